/**
 * OAuth client registrations and their secrets. Imports accounts and staff. Other modules and the
 * layers above use nothing of it but what this file exports.
 */
import type { ModuleDefinition } from '../../core/module-definition';
import { OAuthClient } from './oauth-client.entity';
import { OAuthTokenLifetimeMigration } from './migrations/20261208120000-oauth-token-lifetime.migration';
import { WebAppClientMigration } from './migrations/20261211000000-web-app-client.migration';
import { OAuthGrantsByAccountMigration } from './migrations/20261218000000-oauth-grants-by-account.migration';
import { OAuthClientsSharedMigration } from './migrations/20261219000000-oauth-clients-shared.migration';
import { OAuthTokenAccountsMigration } from './migrations/20261220000000-oauth-token-accounts.migration';
export { OAuthClient, OAuthProtocol } from './oauth-client.entity';
export {
  OAuthClientService,
  type OperatorListedClient,
  type RegisterOAuthClientInput,
} from './oauth-client.service';
export {
  assertMayManageOAuthClients,
  mayManageOAuthClients,
  servesAccount,
  type ClientAccounts,
} from './oauth-client.policy';
export { WEB_APP_CLIENT } from './web-app-client';
export { hashSecret, hashesEqual, newKey, newSecret } from './oauth-secrets';

/** What the module adds to the process (entities and migrations); src/modules/index.ts lists it. */
export const OAUTH_MODULE = {
  name: 'oauth',
  entities: [OAuthClient],
  migrations: [
    { name: '20261208120000-oauth-token-lifetime', class: OAuthTokenLifetimeMigration },
    { name: '20261211000000-web-app-client', class: WebAppClientMigration },
    { name: '20261218000000-oauth-grants-by-account', class: OAuthGrantsByAccountMigration },
    { name: '20261219000000-oauth-clients-shared', class: OAuthClientsSharedMigration },
    { name: '20261220000000-oauth-token-accounts', class: OAuthTokenAccountsMigration },
  ],
} as const satisfies ModuleDefinition;
