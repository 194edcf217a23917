/**
 * The GraphQL side of oauth: the OAuth client resolvers. The schema assembly
 * (src/graphql/schema.ts) imports it, and so may another module's graphql/ folder that extends
 * these types; nothing else does.
 */
import { OAuthClientResolver } from './oauth-client.resolver';
import type { ResolverRegistration } from '../../../core/module-definition';
import type { OAuthClientService } from '../oauth-client.service';

/** Built once per schema from the services they use. */
export const OAUTH_RESOLVERS: readonly ResolverRegistration<{
  oauthClients: OAuthClientService;
}>[] = [[OAuthClientResolver, (s) => new OAuthClientResolver(s.oauthClients)]];
