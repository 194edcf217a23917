import { Migration } from '@mikro-orm/migrations';
import { WEB_APP_CLIENT } from '../web-app-client';

/**
 * Registers the service's own web app (served at `/`) as the operator's public OAuth 2.0 client,
 * so that it signs people in through the approval page like any other application, with PKCE.
 *
 * A client is filed under an account (`account_id` is NOT NULL, the distribution column), and a
 * fresh database has none yet: it is registered here under the first account when there is one,
 * else by a trigger when the first account is opened, whichever path opens it (the CLI, the seed).
 * Only the first: an operator who revoked it (`timetrack oauth client revoke`) keeps it revoked.
 *
 * Its one redirect address is the path `/`. The approval page answers `Location: /?code=…`, which a
 * browser resolves against the address it asked, so the code never leaves the service whatever the
 * request's Host header said (the reason other clients may not use addresses made of it).
 */
export class WebAppClientMigration extends Migration {
  override async up(): Promise<void> {
    const { key, name, redirectUri } = WEB_APP_CLIENT;
    const insert = (accountId: string, from = '') =>
      `insert into oauth_clients (uuid, account_id, name, protocol, client_key, redirect_uris, serves_every_account)
       select gen_random_uuid(), ${accountId}, '${name}', 'oauth2', '${key}', '{${redirectUri}}', true ${from}
       on conflict (client_key) do nothing`;
    this.addSql(`${insert('min(id)', 'from accounts having count(*) > 0')};`);
    this.addSql(`
      create function register_web_app_client() returns trigger language plpgsql as $$
      begin
        -- The first account: no other is older (an insert of several sees them all here).
        if not exists (select 1 from accounts where id < new.id) then
          ${insert('new.id')};
        end if;
        return null;
      end $$;`);
    this.addSql(`
      create trigger accounts_register_web_app_client after insert on accounts
        for each row execute function register_web_app_client();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists accounts_register_web_app_client on accounts;`);
    this.addSql(`drop function if exists register_web_app_client();`);
    this.addSql(`delete from oauth_clients where client_key = '${WEB_APP_CLIENT.key}';`);
  }
}
