import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import type { GraphQLSchema } from 'graphql';
import type { Config } from '../config';
import type { RequestContext } from './context';
import { formatError } from './format-error';
import { jitGateway } from './jit-gateway';

export function createApolloServer(schema: GraphQLSchema, config: Config): ApolloServer<RequestContext> {
  return new ApolloServer<RequestContext>({
    gateway: jitGateway(schema),
    formatError,
    introspection: config.env !== 'production',
    includeStacktraceInErrorResponses: false,
    // The cache-control plugin hooks every field and we set no cache hints.
    plugins: [ApolloServerPluginCacheControlDisabled()],
  });
}
