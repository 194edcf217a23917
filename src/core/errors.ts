/**
 * The error catalogue. Every failure a client can see has one stable code here; GraphQL puts it in
 * `extensions.code`, and the facades map it (exhaustively, checked by the compiler) to an HTTP
 * status and a legacy XML error type.
 */
export const ERROR_CODES = [
  'BAD_REQUEST',
  'UNAUTHENTICATED',
  'READ_DENIED',
  'CREATE_DENIED',
  'UPDATE_DENIED',
  'DELETE_DENIED',
  'NOT_FOUND',
  'VALIDATION_FAILED',
  'PAYMENT_REQUIRED',
  'STAFF_NOT_ALLOWED',
  'MAX_TIME',
  'PROJECT_INACTIVE',
  'PUNCHED_IN',
  'PUNCHED_OUT',
  'USER_NOT_ALLOWED',
  'SERVICE_UNAVAILABLE',
  'INTERNAL_SERVER_ERROR',
  // Refusals of the HTTP facades, before any operation runs.
  'METHOD_NOT_ALLOWED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'TOO_MANY_REQUESTS',
  // A state-changing request a browser sent from another web site (src/auth/cross-site-guard.ts).
  'CROSS_SITE_REQUEST',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * The HTTP status of every code, the same on every interface: /graphql (refusals before any
 * operation runs), the legacy JSON and XML facades and the /oauth endpoints.
 */
export const HTTP_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  READ_DENIED: 403,
  CREATE_DENIED: 403,
  UPDATE_DENIED: 403,
  DELETE_DENIED: 403,
  NOT_FOUND: 404,
  VALIDATION_FAILED: 422,
  PAYMENT_REQUIRED: 402,
  STAFF_NOT_ALLOWED: 402,
  MAX_TIME: 402,
  PROJECT_INACTIVE: 422,
  PUNCHED_IN: 422,
  PUNCHED_OUT: 422,
  USER_NOT_ALLOWED: 422,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL_SERVER_ERROR: 500,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  CROSS_SITE_REQUEST: 403,
} as const satisfies Record<ErrorCode, number>;

/** What each code means, for the schema's `ErrorCode` enum and its readers. */
export const ERROR_MEANINGS = {
  BAD_REQUEST: 'The request is malformed (a bad header, body or query parameter).',
  UNAUTHENTICATED: 'No valid credentials were sent.',
  READ_DENIED: 'The caller may not read this.',
  CREATE_DENIED: 'The caller may not create this.',
  UPDATE_DENIED: 'The caller may not change this.',
  DELETE_DENIED: 'The caller may not delete this.',
  NOT_FOUND: 'No such object, or none the caller may see.',
  VALIDATION_FAILED: 'The input breaks a rule; `fieldErrors` names the fields.',
  PAYMENT_REQUIRED: "The plan's maximum of active staff members is reached.",
  STAFF_NOT_ALLOWED: 'The account allows no staff members.',
  MAX_TIME: "The plan's maximum of entered time is used up.",
  PROJECT_INACTIVE: 'The project is inactive and cannot be punched in to.',
  PUNCHED_IN: 'The caller is already punched in to this project.',
  PUNCHED_OUT: 'The caller is not punched in to this project.',
  USER_NOT_ALLOWED: "A listed user is not in the caller's staff list.",
  SERVICE_UNAVAILABLE: 'The database is unreachable or the service is overloaded; retry later.',
  INTERNAL_SERVER_ERROR: 'An unexpected failure, logged and masked.',
  METHOD_NOT_ALLOWED: 'The HTTP method is not supported there.',
  PAYLOAD_TOO_LARGE: 'The body is larger than the service accepts.',
  UNSUPPORTED_MEDIA_TYPE: 'The body has an unsupported encoding or charset.',
  TOO_MANY_REQUESTS: 'Too many requests or failed attempts; wait `retryAfterSeconds`.',
  CROSS_SITE_REQUEST: 'A browser request from another site was refused.',
} as const satisfies Record<ErrorCode, string>;

/** The kinds of thing an error can be about; the legacy XML types are named after them. */
export type EntityName =
  | 'Staff'
  | 'Company'
  | 'Project'
  | 'Activity'
  | 'Shift'
  | 'Account'
  | 'OAuthClient'
  | 'Webhook'
  | 'Rate'
  // An object named by an id alone (`node(id:)`), whose type the id did not reveal.
  | 'Node';

/**
 * The field-error message of a required value that was never given. The legacy XML interface
 * reports an input whose only faults are such fields as `ParamMissing`.
 */
export const REQUIRED = 'is required';
/** The field-error message of a required value given as null or empty. */
export const BLANK = "can't be blank";

export interface FieldError {
  field: string;
  message: string;
}

export interface ErrorDetails {
  entity?: EntityName;
  fieldErrors?: FieldError[];
  [key: string]: unknown;
}

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequestError extends AppError {
  constructor(message: string, details: ErrorDetails = {}) {
    super('BAD_REQUEST', message, details);
  }
}

/** A refusal of the HTTP layer itself (method, body size, media type) rather than of a rule. */
export class HttpRefusalError extends AppError {
  constructor(
    code: Extract<ErrorCode, 'METHOD_NOT_ALLOWED' | 'PAYLOAD_TOO_LARGE' | 'UNSUPPORTED_MEDIA_TYPE'>,
    message: string,
    details: ErrorDetails = {},
  ) {
    super(code, message, details);
  }
}

/** An Express body parser's refusal (body-parser sets `status`) as the catalogue error a client sees. */
export function bodyRefusalOf(error: unknown): AppError {
  const status = (error as { status?: unknown }).status;
  if (status === 413)
    return new HttpRefusalError(
      'PAYLOAD_TOO_LARGE',
      'The body is larger than this service accepts',
    );
  if (status === 415)
    return new HttpRefusalError(
      'UNSUPPORTED_MEDIA_TYPE',
      'The body has an unsupported encoding or charset',
    );
  return new BadRequestError('The body is not well-formed');
}

/** The challenge of a 401 (`WWW-Authenticate`) when the request offered no bearer token. */
export const BASIC_CHALLENGE = 'Basic realm="timetrack", charset="UTF-8"';

/**
 * RFC 6750 §3: a request that carried a bearer token is answered in the bearer scheme, so an OAuth
 * 2.0 client learns its token is the problem (`invalid_token`) rather than being asked for a password.
 */
export function bearerChallenge(
  error: 'invalid_token' | 'invalid_request',
  description: string,
): string {
  return `Bearer realm="timetrack", error="${error}", error_description="${description.replace(/["\\]/g, "'")}"`;
}

export class UnauthenticatedError extends AppError {
  constructor(
    message = 'Authentication required: send valid credentials',
    /** The `WWW-Authenticate` value of the 401 (never sent to JSONP). */
    readonly challenge: string = BASIC_CHALLENGE,
  ) {
    super('UNAUTHENTICATED', message);
  }
}

/**
 * What the headers of an error answer depend on: an AppError, or the facade's rendering of one
 * (which carries the challenge of the UnauthenticatedError it came from).
 */
export interface ErrorHeaderSource {
  readonly code: ErrorCode;
  /** A 401's `WWW-Authenticate` value; Basic when absent. */
  readonly challenge?: string | undefined;
  readonly details?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * The headers an answer with this error carries besides its status: a 401's challenge and how long
 * to wait after a 429. `challenge: false` leaves out the challenge where it must not make a browser
 * ask for Basic credentials (JSONP scripts, HTML pages).
 */
export function errorHeadersOf(
  error: ErrorHeaderSource,
  options: { challenge?: boolean } = {},
): Record<string, string> {
  if (error.code === 'UNAUTHENTICATED')
    return options.challenge === false
      ? {}
      : { 'WWW-Authenticate': error.challenge ?? BASIC_CHALLENGE };
  const wait = error.details?.retryAfterSeconds;
  if (error.code === 'TOO_MANY_REQUESTS' && typeof wait === 'number')
    return { 'Retry-After': String(wait) };
  return {};
}

export type Act = 'read' | 'create' | 'update' | 'delete';
const deniedCode = {
  read: 'READ_DENIED',
  create: 'CREATE_DENIED',
  update: 'UPDATE_DENIED',
  delete: 'DELETE_DENIED',
} as const satisfies Record<Act, ErrorCode>;

export class PermissionDeniedError extends AppError {
  constructor(act: Act, entity: EntityName, message?: string) {
    super(
      deniedCode[act],
      message ?? `${capitalise(act)} denied: you may not ${act} this ${entity.toLowerCase()}`,
      {
        entity,
      },
    );
  }
}

export class NotFoundError extends AppError {
  constructor(entity: EntityName, message = `${entity} not found`) {
    super('NOT_FOUND', message, { entity });
  }
}

export class ValidationError extends AppError {
  constructor(entity: EntityName | undefined, fieldErrors: FieldError[]) {
    const summary = fieldErrors.map((e) => `${e.field} ${e.message}`).join('; ');
    super('VALIDATION_FAILED', `Invalid ${entity?.toLowerCase() ?? 'input'}: ${summary}`, {
      ...(entity ? { entity } : {}),
      fieldErrors,
    });
  }

  static field(entity: EntityName | undefined, field: string, message: string): ValidationError {
    return new ValidationError(entity, [{ field, message }]);
  }
}

/** A rule of the domain refused the act (punching, plan limits, membership). */
export class DomainRuleError extends AppError {
  constructor(
    code: Extract<
      ErrorCode,
      | 'PAYMENT_REQUIRED'
      | 'STAFF_NOT_ALLOWED'
      | 'MAX_TIME'
      | 'PROJECT_INACTIVE'
      | 'PUNCHED_IN'
      | 'PUNCHED_OUT'
      | 'USER_NOT_ALLOWED'
    >,
    entity: EntityName,
    message: string,
  ) {
    super(code, message, { entity });
  }
}

/** Too many requests, or failed sign-ins or signatures, from one client: wait `retryAfterSeconds`. */
export class TooManyRequestsError extends AppError {
  constructor(
    retryAfterSeconds: number,
    message = `Too many failed attempts; try again in ${retryAfterSeconds} seconds`,
  ) {
    super('TOO_MANY_REQUESTS', message, { retryAfterSeconds });
  }
}

/**
 * A browser sent a state-changing request from a page of another web site: with the browser's
 * cached credentials attached, that would be a cross-site request forgery.
 */
export class CrossSiteRequestError extends AppError {
  constructor(message: string) {
    super('CROSS_SITE_REQUEST', message);
  }
}

export class ServiceUnavailableError extends AppError {
  constructor(message = 'The database is unavailable; try again shortly') {
    super('SERVICE_UNAVAILABLE', message);
  }
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
