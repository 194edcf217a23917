import { Migration } from '@mikro-orm/migrations';

/** Each grant table's keys that a client presents, with the expiry of what each one opens. */
const KEYS = [
  { table: 'oauth1_tokens', key: 'token_key', expires: 'expires_at' },
  { table: 'oauth2_tokens', key: 'access_token_hash', expires: 'access_expires_at' },
  { table: 'oauth2_tokens', key: 'refresh_token_hash', expires: 'refresh_expires_at' },
  { table: 'oauth2_codes', key: 'code_hash', expires: 'expires_at' },
] as const;

/**
 * Issue 38: OAuth finds a token's account before it reads the token. `oauth_token_accounts` maps
 * every key a client presents (a 1.0a token key, the hash of a 2.0 access or refresh token or of a
 * code) to the account its grant is filed under; its primary key keeps those keys unique across
 * accounts, which the grant tables' own unique keys did, and which now hold `account_id` (each keeps
 * its name). On Citus it is a reference table: the coordinator reads it from its own copy and sends
 * the grant's read to the one worker that holds the account. The OAuth providers write a grant and
 * its keys in one statement (src/auth/token-accounts.ts). A key whose grant was deleted another way
 * (a password change, a revoked application, a deleted user) points to nothing and is purged when it
 * expires; a 1.0a access token's never expires.
 */
export class OAuthTokenAccountsMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table oauth_token_accounts (
        token varchar(64) not null constraint oauth_token_accounts_pkey primary key,
        account_id integer not null,
        expires_at timestamptz
      );`);
    this.addSql(
      `create index oauth_token_accounts_expiry_idx on oauth_token_accounts (expires_at) where expires_at is not null;`,
    );
    for (const { table, key, expires } of KEYS)
      this.addSql(`insert into oauth_token_accounts (token, account_id, expires_at)
        select ${key}, account_id, ${expires} from ${table} where ${key} is not null;`);
    for (const { table, key } of KEYS)
      this.addSql(`alter table ${table} drop constraint ${table}_${key}_key,
        add constraint ${table}_${key}_key unique (${key}, account_id);`);
  }

  override async down(): Promise<void> {
    for (const { table, key } of KEYS)
      this.addSql(`alter table ${table} drop constraint ${table}_${key}_key,
        add constraint ${table}_${key}_key unique (${key});`);
    this.addSql(`drop table oauth_token_accounts;`);
  }
}
