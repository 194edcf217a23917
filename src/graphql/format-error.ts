import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import { mapDatabaseError } from '../db/database-errors';
import { AppError, errorHeadersOf, HTTP_STATUS, type ErrorCode } from '../core/errors';
import { currentLogger, type Logger } from '../core/logger';

/** Apollo's own codes for requests it rejects before any resolver runs (the schema documents them). */
export const APOLLO_CODES = {
  GRAPHQL_PARSE_FAILED: 'The document is not GraphQL.',
  GRAPHQL_VALIDATION_FAILED: 'The document does not fit the schema (or the guards refused it).',
  BAD_USER_INPUT: 'A variable or argument value does not fit its type.',
  PERSISTED_QUERY_NOT_FOUND: 'The persisted query is not known; send its text.',
  OPERATION_RESOLUTION_FAILURE: 'The operation to run is not named or not in the document.',
} as const;

/** Apollo's codes, and ours from the context. */
const PASS_THROUGH = new Set([
  ...Object.keys(APOLLO_CODES),
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
  // An error of ours raised before execution (required-input-fields.ts) carries no path, which is
  // what unwrapResolverError looks for.
  const cause =
    original instanceof GraphQLError && original.originalError instanceof AppError
      ? original.originalError
      : original;
  const appError = cause instanceof AppError ? cause : mapDatabaseError(cause);
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

/** What the context factory refuses a request for; anything else failing there is our fault. */
const CONTEXT_REFUSALS: ReadonlySet<ErrorCode> = new Set([
  'CROSS_SITE_REQUEST',
  'UNAUTHENTICATED',
  'TOO_MANY_REQUESTS',
  'SERVICE_UNAVAILABLE',
]);

/**
 * A refusal before any field runs (the context's, or the operation guards'), as Apollo answers it:
 * the catalogue's code and details, with its HTTP status and headers (`Retry-After`, …).
 */
export function refusalError(refusal: AppError): GraphQLError {
  return new GraphQLError(refusal.message, {
    originalError: refusal,
    extensions: {
      code: refusal.code,
      ...refusal.details,
      http: {
        status: HTTP_STATUS[refusal.code],
        headers: new Map(Object.entries(errorHeadersOf(refusal))),
      },
    },
  });
}

/** Context failures (a cross-site request, no or bad credentials, too many failures, database down) become coded HTTP errors. */
export function contextFailureError(error: unknown, log: Logger): GraphQLError {
  if (error instanceof AppError && CONTEXT_REFUSALS.has(error.code)) return refusalError(error);
  log.error({ err: error }, 'context creation failed');
  return new GraphQLError('Internal server error', {
    extensions: {
      code: 'INTERNAL_SERVER_ERROR',
      http: { status: HTTP_STATUS.INTERNAL_SERVER_ERROR },
    },
  });
}
