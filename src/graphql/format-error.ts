import type { GraphQLFormattedError } from 'graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import { mapDatabaseError } from '../db/database-errors';
import { AppError } from '../core/errors';
import { currentLogger } from '../core/logger';

/** Apollo's own codes for requests it rejects before any resolver runs, and ours from the context. */
const PASS_THROUGH = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'PERSISTED_QUERY_NOT_FOUND',
  'OPERATION_RESOLUTION_FAILURE',
  'BAD_REQUEST',
  'UNAUTHENTICATED',
  'SERVICE_UNAVAILABLE',
  'TOO_MANY_REQUESTS',
  'CROSS_SITE_REQUEST',
]);

/**
 * Every error leaves with a code of the catalogue. Catalogue errors keep their message and
 * details; database refusals are mapped; anything else is masked and logged.
 */
export function formatError(
  formatted: GraphQLFormattedError,
  error: unknown,
): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  const appError = original instanceof AppError ? original : mapDatabaseError(original);
  if (appError) {
    return {
      message: appError.message,
      ...(formatted.locations ? { locations: formatted.locations } : {}),
      ...(formatted.path ? { path: formatted.path } : {}),
      extensions: { code: appError.code, ...appError.details },
    };
  }
  const code = formatted.extensions?.code;
  if (typeof code === 'string' && PASS_THROUGH.has(code)) return formatted;
  // Apollo gives formatError no context: the logger is the one of the request being served.
  currentLogger().error({ err: original }, 'unexpected error');
  return {
    message: 'Internal server error',
    ...(formatted.path ? { path: formatted.path } : {}),
    extensions: { code: 'INTERNAL_SERVER_ERROR' },
  };
}
