/**
 * OAuth client registrations and their secrets. Imports accounts and staff. Other modules and the
 * layers above use nothing of it but what this file exports.
 */
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
export { hashSecret, hashesEqual, newKey, newSecret } from './oauth-secrets';
