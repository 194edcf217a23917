import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 38: the OAuth clients are read before any account is known (by their key, at every OAuth
 * request) and some serve every account, so on Citus they are a reference table, a copy on every
 * node, which the grants' foreign keys may point to. A reference table refers to no distributed
 * one, so:
 *
 * - a client's account is a plain column (no account is ever deleted by the service; its clients
 *   would go with it by hand, as its users' logins do);
 * - the web app's client is registered by the account opening (OAuthClientService.accountOpened)
 *   instead of a trigger on `accounts`, which on Citus runs on a worker, where it can neither read
 *   every account nor write a reference table.
 */
export class OAuthClientsSharedMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop trigger accounts_register_web_app_client on accounts;`);
    this.addSql(`drop function register_web_app_client();`);
    this.addSql(`alter table oauth_clients drop constraint oauth_clients_account_id_fkey;`);
  }

  override async down(): Promise<void> {
    throw new Error(
      '20261219000000-oauth-clients-shared cannot be undone: restore a backup taken before it',
    );
  }
}
