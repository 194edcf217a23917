import type { ApolloServer } from '@apollo/server';
import type { DocumentNode, GraphQLFormattedError } from 'graphql';
import type { RequestContext } from './context';

export interface ExecutionResult<T = Record<string, unknown>> {
  data?: T | null;
  errors?: readonly GraphQLFormattedError[];
}

/**
 * The executor port of the facades: runs one operation in-process through Apollo, so validation,
 * error formatting and plugins are exactly those of /graphql.
 */
export type Executor = <T = Record<string, unknown>>(
  document: DocumentNode,
  variables: Record<string, unknown>,
  context: RequestContext,
) => Promise<ExecutionResult<T>>;

export function createExecutor(server: ApolloServer<RequestContext>): Executor {
  return async <T>(document: DocumentNode, variables: Record<string, unknown>, context: RequestContext) => {
    const response = await server.executeOperation({ query: document, variables }, { contextValue: context });
    if (response.body.kind !== 'single') throw new Error('incremental delivery is not supported by the facade');
    return response.body.singleResult as ExecutionResult<T>;
  };
}
