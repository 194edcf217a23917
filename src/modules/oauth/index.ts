export { OAuthClientResolver } from './graphql/oauth-client.resolver';
export { OAuthClient, OAuthProtocol } from './oauth-client.entity';
export { OAuthClientService } from './oauth-client.service';
export { hashSecret, hashesEqual, newKey, newSecret } from './oauth-secrets';
