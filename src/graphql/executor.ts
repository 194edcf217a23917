import type { ApolloServer } from '@apollo/server';
import type { GraphQLFormattedError } from 'graphql';
import type { RequestContext } from '../core/request-context';

export interface ExecutionResult<T = Record<string, unknown>> {
  data?: T | null;
  errors?: readonly GraphQLFormattedError[];
}

/** A named operation as text: Apollo parses and validates each distinct text once and caches it. */
export interface PreparedOperation {
  readonly name: string;
  readonly source: string;
}

/**
 * The executor port of the facades: runs one operation in-process through Apollo, so validation,
 * error formatting and plugins are exactly those of /graphql.
 */
export type Executor = <T = Record<string, unknown>>(
  operation: PreparedOperation,
  variables: Record<string, unknown>,
  context: RequestContext,
) => Promise<ExecutionResult<T>>;

export function createExecutor(server: ApolloServer<RequestContext>): Executor {
  return async <T>(
    operation: PreparedOperation,
    variables: Record<string, unknown>,
    context: RequestContext,
  ) => {
    // Text, not a DocumentNode: Apollo would print a DocumentNode on every call before looking
    // it up in its document cache.
    const response = await server.executeOperation(
      { query: operation.source, operationName: operation.name, variables },
      { contextValue: context },
    );
    if (response.body.kind !== 'single')
      throw new Error('incremental delivery is not supported by the facade');
    return response.body.singleResult as ExecutionResult<T>;
  };
}
