import { ApolloServer } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import type { GraphQLSchema } from 'graphql';
import type { Config } from '../core/config';
import type { RequestContext } from '../core/request-context';
import { formatError } from './format-error';
import { jitGateway, type ExecutionAround } from './jit-gateway';
import { operationGuards, type OperationGuards } from './operation-guards';

export function createApolloServer(
  schema: GraphQLSchema,
  config: Config,
  guards: OperationGuards = operationGuards(schema, config),
  around?: ExecutionAround,
): ApolloServer<RequestContext> {
  return new ApolloServer<RequestContext>({
    gateway: jitGateway(schema, around),
    formatError,
    parseOptions: guards.parseOptions,
    validationRules: guards.validationRules,
    // In production the guards refuse introspection (a validation rule) and drop "Did you mean"
    // suggestions (their plugin), for WebSocket operations as well; Apollo's own switches for the
    // same would cover HTTP only.
    introspection: true,
    // Replaced by graphqlRequestRefusal (src/auth/cross-site-guard.ts), run before the context:
    // Apollo's refuses every GET without a custom header, the default GET of urql 6 included.
    csrfPrevention: false,
    hideSchemaDetailsFromClientErrors: false,
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
