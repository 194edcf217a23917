import { Migration } from '@mikro-orm/migrations';

/**
 * PostgreSQL announces, at commit, every change that may end a user's right to what an open
 * connection (a GraphQL subscription) was given: NOTIFY `timetrack_credentials` with the user's id
 * (CREDENTIALS_CHANNEL in src/auth/credential-check.ts). Triggers rather than calls in the
 * services, so that no road is missed: the services, the OAuth endpoints' own SQL, foreign-key
 * cascades (an application revoked, an account deleted), the CLI in another process, an
 * operator's SQL. Each listening process checks that user's sockets again.
 *
 * - users: a change of `active`, `type`, `login` or `password_hash`, and a deletion;
 * - oauth1_tokens (access tokens) and oauth2_tokens: a deletion (revocation, refresh, purge).
 *
 * NOTIFY within one transaction delivers one message per distinct payload, and nothing for a
 * transaction that rolls back. Without a listener (the embedded database) it costs next to nothing.
 */
export class CredentialNotificationsMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create function notify_credentials_changed() returns trigger language plpgsql as $$
      begin
        perform pg_notify('timetrack_credentials', to_jsonb(old) ->> tg_argv[0]);
        return null;
      end $$;`);
    this.addSql(`
      create trigger users_credentials_changed after update on users for each row
        when (old.active is distinct from new.active or old.type is distinct from new.type
              or old.login is distinct from new.login
              or old.password_hash is distinct from new.password_hash)
        execute function notify_credentials_changed('id');`);
    this.addSql(`
      create trigger users_credentials_deleted after delete on users for each row
        execute function notify_credentials_changed('id');`);
    this.addSql(`
      create trigger oauth1_tokens_credentials_deleted after delete on oauth1_tokens for each row
        when (old.kind = 'access')
        execute function notify_credentials_changed('user_id');`);
    this.addSql(`
      create trigger oauth2_tokens_credentials_deleted after delete on oauth2_tokens for each row
        execute function notify_credentials_changed('user_id');`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists users_credentials_changed on users;`);
    this.addSql(`drop trigger if exists users_credentials_deleted on users;`);
    this.addSql(`drop trigger if exists oauth1_tokens_credentials_deleted on oauth1_tokens;`);
    this.addSql(`drop trigger if exists oauth2_tokens_credentials_deleted on oauth2_tokens;`);
    this.addSql(`drop function if exists notify_credentials_changed();`);
  }
}
