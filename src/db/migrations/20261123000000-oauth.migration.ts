import { Migration } from '@mikro-orm/migrations';

/**
 * The OAuth providers' state and the sign-in limiter's counters. Everything lives in PostgreSQL so
 * that several server processes share one view of tokens, nonces and failures.
 *
 * Secrets are stored hashed (SHA-256 of a 256-bit random value) wherever the protocol allows it.
 * OAuth 1.0a HMAC signatures need the shared secret itself on both sides, so the consumer secret
 * and the 1.0a token secrets are the only secrets stored as issued.
 */
export class OAuthMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table oauth_clients (
        id serial primary key,
        uuid uuid not null unique,
        account_id integer not null references accounts (id) on delete cascade,
        created_by_id integer references users (id) on delete set null,
        name varchar(255) not null,
        protocol varchar(8) not null check (protocol in ('oauth1', 'oauth2')),
        client_key varchar(64) not null unique,
        secret varchar(128),
        secret_hash varchar(64),
        redirect_uris text[] not null default '{}',
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        check ((protocol = 'oauth1') = (secret is not null)),
        check (protocol = 'oauth2' or secret_hash is null)
      );`);
    this.addSql(`create index oauth_clients_account_idx on oauth_clients (account_id);`);

    // 1.0a request tokens (short-lived, user_id set once approved) and access tokens.
    this.addSql(`
      create table oauth1_tokens (
        id serial primary key,
        client_id integer not null references oauth_clients (id) on delete cascade,
        kind varchar(8) not null check (kind in ('request', 'access')),
        token_key varchar(64) not null unique,
        token_secret varchar(128) not null,
        callback text,
        verifier_hash varchar(64),
        user_id integer references users (id) on delete cascade,
        account_id integer references accounts (id) on delete cascade,
        expires_at timestamptz,
        created_at timestamptz not null default now(),
        check (kind = 'request' or (user_id is not null and account_id is not null))
      );`);
    this.addSql(`create index oauth1_tokens_user_idx on oauth1_tokens (user_id, client_id);`);

    // Nonces seen within the timestamp window; the primary key is the replay check.
    this.addSql(`
      create table oauth1_nonces (
        client_key varchar(64) not null,
        token_key varchar(64) not null,
        nonce varchar(255) not null,
        timestamp bigint not null,
        seen_at timestamptz not null default now(),
        primary key (client_key, token_key, nonce, timestamp)
      );`);
    this.addSql(`create index oauth1_nonces_seen_idx on oauth1_nonces (seen_at);`);

    // 2.0 grants: one row per access token with its refresh token; a refresh replaces the row.
    this.addSql(`
      create table oauth2_tokens (
        id serial primary key,
        client_id integer not null references oauth_clients (id) on delete cascade,
        user_id integer not null references users (id) on delete cascade,
        account_id integer not null references accounts (id) on delete cascade,
        access_token_hash varchar(64) not null unique,
        access_expires_at timestamptz not null,
        refresh_token_hash varchar(64) unique,
        refresh_expires_at timestamptz,
        scope text,
        created_at timestamptz not null default now()
      );`);
    this.addSql(`create index oauth2_tokens_user_idx on oauth2_tokens (user_id, client_id);`);

    this.addSql(`
      create table oauth2_codes (
        id serial primary key,
        client_id integer not null references oauth_clients (id) on delete cascade,
        user_id integer not null references users (id) on delete cascade,
        code_hash varchar(64) not null unique,
        redirect_uri text,
        code_challenge varchar(128),
        code_challenge_method varchar(8),
        scope text,
        expires_at timestamptz not null,
        created_at timestamptz not null default now()
      );`);

    // The layout rate-limiter-flexible's RateLimiterPostgres expects (created here, not by it).
    this.addSql(`
      create table rate_limits (
        key varchar(255) primary key,
        points integer not null default 0,
        expire bigint
      );`);
  }

  override async down(): Promise<void> {
    for (const table of [
      'rate_limits',
      'oauth2_codes',
      'oauth2_tokens',
      'oauth1_nonces',
      'oauth1_tokens',
      'oauth_clients',
    ]) {
      this.addSql(`drop table if exists ${table} cascade;`);
    }
  }
}
