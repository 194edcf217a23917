import { ApolloServer } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import type { GraphQLSchema } from 'graphql';
import type { Config } from '../core/config';
import type { RequestContext } from '../core/request-context';
import { formatError } from './format-error';
import { jitGateway } from './jit-gateway';
import { operationGuards } from './operation-guards';

export function createApolloServer(
  schema: GraphQLSchema,
  config: Config,
): ApolloServer<RequestContext> {
  const guards = operationGuards(schema, config);
  const production = config.env === 'production';
  return new ApolloServer<RequestContext>({
    gateway: jitGateway(schema),
    formatError,
    parseOptions: guards.parseOptions,
    validationRules: guards.validationRules,
    // In production the schema is not for browsing: no introspection, and no "Did you mean …?"
    // suggestions that would spell out field names one typo at a time.
    introspection: !production,
    hideSchemaDetailsFromClientErrors: production,
    includeStacktraceInErrorResponses: false,
    // The cache-control plugin hooks every field and we set no cache hints. Apollo's landing page
    // loads Apollo Sandbox from a CDN; browsers get our own GraphiQL instead (graphiql-page.ts).
    plugins: [
      ApolloServerPluginCacheControlDisabled(),
      ApolloServerPluginLandingPageDisabled(),
      guards.plugin,
    ],
  });
}
