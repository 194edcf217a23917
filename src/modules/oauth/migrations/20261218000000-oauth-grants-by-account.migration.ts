import { Migration } from '@mikro-orm/migrations';

/** The grant tables, each of whose rows is one user's (or, for a request token, one client's). */
const GRANTS = ['oauth1_tokens', 'oauth2_tokens', 'oauth2_codes'] as const;

/**
 * Issue 38: every OAuth grant is filed under an account, and refers to its user by account and id,
 * so that the grants are tenant rows (on Citus, on the worker of their user's account) and `users`
 * is keyed `(id, account_id)` like every other tenant table.
 *
 * - An authorization code gets its user's account.
 * - A 1.0a request token, which has no user until one approves it, is filed under its client's
 *   account; the approval files it anew under the approving user's (OAuth1Provider.approve), since
 *   an account is never changed in place (Citus refuses to change a distribution column).
 * - An application's creator is a plain column, without the foreign key whose `on delete set null`
 *   Citus refuses: it is the account's owner, whom no one deletes (the operator's have none).
 * - The rule that an account's application is authorised by that account's users only reads the
 *   grant's own account, not its user's row.
 */
export class OAuthGrantsByAccountMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table oauth2_codes add column account_id integer;`);
    this.addSql(
      `update oauth2_codes c set account_id = u.account_id from users u where u.id = c.user_id;`,
    );
    this.addSql(`alter table oauth2_codes alter column account_id set not null,
      add constraint oauth2_codes_account_id_fkey foreign key (account_id) references accounts (id) on delete cascade;`);
    this.addSql(`update oauth1_tokens t set account_id = c.account_id
      from oauth_clients c where c.id = t.client_id and t.account_id is null;`);
    this.addSql(`alter table oauth1_tokens alter column account_id set not null,
      drop constraint oauth1_tokens_check,
      add constraint oauth1_tokens_check check (kind = 'request' or user_id is not null);`);
    for (const table of GRANTS) {
      this.addSql(`alter table ${table}
        drop constraint ${table}_user_id_fkey,
        add constraint ${table}_user_id_fkey foreign key (account_id, user_id) references users (account_id, id) on delete cascade;`);
    }
    for (const table of ['oauth1_tokens', 'oauth2_codes'])
      this.addSql(`alter table ${table} drop constraint ${table}_pkey,
        add constraint ${table}_pkey primary key (id, account_id);`);
    this.addSql(`alter table oauth_clients drop constraint oauth_clients_created_by_id_fkey;`);
    this.addSql(`alter table users drop constraint users_pkey,
      add constraint users_pkey primary key (id, account_id);`);
    this.addSql(`
      create or replace function oauth_grant_within_client_accounts() returns trigger language plpgsql as $$
      begin
        if new.user_id is not null and not exists (
          select 1 from oauth_clients c
           where c.id = new.client_id and (c.serves_every_account or c.account_id = new.account_id)
        ) then
          raise exception using
            errcode = 'check_violation',
            constraint = 'oauth_grant_within_client_accounts',
            message = 'an application registered by an account is authorised by that account''s users only';
        end if;
        return new;
      end $$;`);
  }

  override async down(): Promise<void> {
    throw new Error(
      '20261218000000-oauth-grants-by-account cannot be undone: restore a backup taken before it',
    );
  }
}
