import { Migration } from '@mikro-orm/migrations';

/**
 * Whose users may authorise an application (attack findings, item 3). Until now any client id,
 * whoever registered it, was authorised by the users of every account, and an account could choose
 * its id: an account that took the official CLI's id had its own name shown, and the codes sent to
 * its own redirect, for users of every account, and the operator could no longer register that id.
 *
 * From here an application an account registers serves that account's users only; one the
 * operator registers with `timetrack oauth client create --every-account` serves every account's
 * (`serves_every_account`). It is still filed under an account (`account_id` stays NOT NULL, as the
 * distribution plan of docs/scaling.md wants), but that account's owner neither sees nor revokes it.
 *
 * Existing rows. Nothing recorded which registrations the operator made: the CLI and GraphQL wrote
 * the same rows. The documented reason for choosing an id was the operator's registration of a
 * client whose id is fixed in its code (the official CLI's two ids), so a client whose key was
 * chosen keeps serving every account, as it did, and one with a generated key (newKey(): 24
 * characters of base64url) becomes its account's only. An account's client that took an id the
 * operator wanted therefore keeps serving every account too: `timetrack oauth client list` shows
 * every such client with the account it is filed under, and the operator revokes the intruder
 * (`oauth client revoke`), which deletes its tokens, and registers the id for themselves
 * (docs/authentication.md, "Applications for every account").
 *
 * The grants an account-only client holds for users of other accounts were given under the old
 * rule, and are what an intruder would have collected: they are deleted (tokens, unexchanged codes,
 * approved 1.0a request tokens). A trigger then keeps any such grant from being written again,
 * whatever the path (the approval page checks first and answers as for an unknown client; this is
 * what the token endpoint, the refresh grant and the 1.0a exchange rely on).
 */
export class OAuthClientAccountsMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table oauth_clients add column serves_every_account boolean not null default false;`,
    );
    this.addSql(
      `update oauth_clients set serves_every_account = true where client_key !~ '^[A-Za-z0-9_-]{24}$';`,
    );
    for (const table of ['oauth2_tokens', 'oauth2_codes', 'oauth1_tokens']) {
      this.addSql(`
        delete from ${table} g using oauth_clients c, users u
         where c.id = g.client_id and u.id = g.user_id
           and not c.serves_every_account and u.account_id <> c.account_id;`);
    }
    this.addSql(`
      create function oauth_grant_within_client_accounts() returns trigger language plpgsql as $$
      begin
        if new.user_id is not null and not exists (
          select 1 from oauth_clients c join users u on u.id = new.user_id
           where c.id = new.client_id and (c.serves_every_account or c.account_id = u.account_id)
        ) then
          raise exception using
            errcode = 'check_violation',
            constraint = 'oauth_grant_within_client_accounts',
            message = 'an application registered by an account is authorised by that account''s users only';
        end if;
        return new;
      end $$;`);
    for (const [table, events] of [
      ['oauth2_codes', 'insert'],
      ['oauth2_tokens', 'insert'],
      // A 1.0a request token gets its user when approved.
      ['oauth1_tokens', 'insert or update of user_id'],
    ]) {
      this.addSql(`
        create trigger ${table}_within_client_accounts before ${events} on ${table}
          for each row execute function oauth_grant_within_client_accounts();`);
    }
  }

  override async down(): Promise<void> {
    for (const table of ['oauth2_codes', 'oauth2_tokens', 'oauth1_tokens'])
      this.addSql(`drop trigger if exists ${table}_within_client_accounts on ${table};`);
    this.addSql(`drop function if exists oauth_grant_within_client_accounts();`);
    this.addSql(`alter table oauth_clients drop column serves_every_account;`);
  }
}
