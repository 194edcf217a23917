import { Migration } from '@mikro-orm/migrations';

/**
 * How long an application's access tokens last, set per application (issue 34, item 7). The
 * official CLI gets its token from the implicit flow, which has no refresh token, so at the end of
 * the default 14 days its user has to set it up again; the operator may register it with a longer
 * lifetime. Null keeps the defaults (1 hour with a refresh token, 14 days from the implicit flow).
 * Registration checks the same bounds first, with a message that names them.
 */
export class OAuthTokenLifetimeMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table oauth_clients add column access_token_lifetime_seconds integer null
         constraint oauth_clients_access_token_lifetime_bounds
         check (access_token_lifetime_seconds between 60 and 315360000);`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table oauth_clients drop column access_token_lifetime_seconds;`);
  }
}
