import type { GraphQLFormattedError } from 'graphql';
import {
  ERROR_CODES,
  HTTP_STATUS,
  REQUIRED,
  type EntityName,
  type ErrorCode,
  type FieldError,
} from '../src/core/errors';

/** How the legacy interfaces say one catalogue code: HTTP status, a title, the XML error type. */
export interface LegacyErrorForm {
  readonly status: number;
  /** The status's name as docs/json-api.md words it ("Read Denied", "Invalid Record"). */
  readonly title: string;
  /** The `type` attribute of the legacy XML `<error>`. */
  readonly xmlType: (entity: LegacyEntity) => string;
}

/** The entity prefixes of the legacy XML error types. */
export type LegacyEntity = 'User' | 'Company' | 'Project' | 'Shift';

const general = (entity: LegacyEntity) => `${entity}::Error`;
const fixed = (type: string) => () => type;

/**
 * The one table: every code of the catalogue, with its status in docs/json-api.md. A code
 * added to the catalogue without a row here does not compile.
 */
export const LEGACY_ERRORS = {
  BAD_REQUEST: { status: HTTP_STATUS.BAD_REQUEST, title: 'Bad Request', xmlType: general },
  UNAUTHENTICATED: {
    status: HTTP_STATUS.UNAUTHENTICATED,
    title: 'Unauthorized',
    xmlType: fixed('User::Error'),
  },
  READ_DENIED: {
    status: HTTP_STATUS.READ_DENIED,
    title: 'Read Denied',
    xmlType: (e) => `${e}::ReadDenied`,
  },
  CREATE_DENIED: { status: HTTP_STATUS.CREATE_DENIED, title: 'Create Denied', xmlType: general },
  UPDATE_DENIED: {
    status: HTTP_STATUS.UPDATE_DENIED,
    title: 'Update Denied',
    xmlType: (e) => `${e}::UpdateDenied`,
  },
  DELETE_DENIED: {
    status: HTTP_STATUS.DELETE_DENIED,
    title: 'Delete Denied',
    xmlType: (e) => `${e}::DeleteDenied`,
  },
  NOT_FOUND: { status: HTTP_STATUS.NOT_FOUND, title: 'Record Not Found', xmlType: general },
  VALIDATION_FAILED: {
    status: HTTP_STATUS.VALIDATION_FAILED,
    title: 'Invalid Record',
    xmlType: general,
  },
  PAYMENT_REQUIRED: {
    status: HTTP_STATUS.PAYMENT_REQUIRED,
    title: 'Payment Required',
    xmlType: fixed('User::MaxStaff'),
  },
  STAFF_NOT_ALLOWED: {
    status: HTTP_STATUS.STAFF_NOT_ALLOWED,
    title: 'Payment Required',
    xmlType: fixed('User::StaffNotAllowed'),
  },
  MAX_TIME: {
    status: HTTP_STATUS.MAX_TIME,
    title: 'Payment Required',
    xmlType: fixed('User::MaxTime'),
  },
  PROJECT_INACTIVE: {
    status: HTTP_STATUS.PROJECT_INACTIVE,
    title: 'Invalid Record',
    xmlType: fixed('Project::ProjectInactive'),
  },
  PUNCHED_IN: {
    status: HTTP_STATUS.PUNCHED_IN,
    title: 'Invalid Record',
    xmlType: fixed('Project::PunchedIn'),
  },
  PUNCHED_OUT: {
    status: HTTP_STATUS.PUNCHED_OUT,
    title: 'Invalid Record',
    xmlType: fixed('Project::PunchedOut'),
  },
  USER_NOT_ALLOWED: {
    status: HTTP_STATUS.USER_NOT_ALLOWED,
    title: 'Invalid Record',
    xmlType: (e) => `${e === 'Project' ? 'Project' : 'Company'}::UserNotAllowed`,
  },
  SERVICE_UNAVAILABLE: {
    status: HTTP_STATUS.SERVICE_UNAVAILABLE,
    title: 'Service Unavailable',
    xmlType: general,
  },
  INTERNAL_SERVER_ERROR: {
    status: HTTP_STATUS.INTERNAL_SERVER_ERROR,
    title: 'Internal Server Error',
    xmlType: general,
  },
  METHOD_NOT_ALLOWED: {
    status: HTTP_STATUS.METHOD_NOT_ALLOWED,
    title: 'Method Not Allowed',
    xmlType: general,
  },
  PAYLOAD_TOO_LARGE: {
    status: HTTP_STATUS.PAYLOAD_TOO_LARGE,
    title: 'Payload Too Large',
    xmlType: general,
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: HTTP_STATUS.UNSUPPORTED_MEDIA_TYPE,
    title: 'Unsupported Media Type',
    xmlType: general,
  },
  TOO_MANY_REQUESTS: {
    status: HTTP_STATUS.TOO_MANY_REQUESTS,
    title: 'Too Many Requests',
    xmlType: fixed('User::Error'),
  },
  CROSS_SITE_REQUEST: {
    status: HTTP_STATUS.CROSS_SITE_REQUEST,
    title: 'Forbidden',
    xmlType: general,
  },
} as const satisfies Record<ErrorCode, LegacyErrorForm>;

/** One failure as the facades render it, whatever raised it. */
export interface FacadeError {
  readonly code: ErrorCode;
  readonly message: string;
  readonly entity?: EntityName;
  readonly fieldErrors?: readonly FieldError[];
  /** Extra details worth showing a client, such as the position of a query-language error. */
  readonly details?: Readonly<Record<string, unknown>>;
  /** A 401's `WWW-Authenticate` value when it is not the Basic one. */
  readonly challenge?: string;
}

const KNOWN_CODES: ReadonlySet<string> = new Set(ERROR_CODES);

/**
 * The first error of a GraphQL answer as a facade error. Apollo's BAD_USER_INPUT (a variable the
 * schema refused) is the client's invalid record; any other code outside the catalogue means the
 * facade sent something wrong, which is our fault and masked.
 */
export function fromGraphQLError(error: GraphQLFormattedError): FacadeError {
  const { code, entity, fieldErrors, ...rest } = (error.extensions ?? {}) as Record<
    string,
    unknown
  >;
  if (code === 'BAD_USER_INPUT') return { code: 'VALIDATION_FAILED', message: error.message };
  // The per-operation cost limit (GRAPHQL_MAX_COST): a list page the facade asks for smaller.
  if (typeof rest.cost === 'number' && typeof rest.maxCost === 'number')
    return {
      code: 'VALIDATION_FAILED',
      message: error.message,
      details: { cost: rest.cost, maxCost: rest.maxCost },
    };
  if (typeof code !== 'string' || !KNOWN_CODES.has(code)) {
    return { code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error' };
  }
  return {
    code: code as ErrorCode,
    message: error.message,
    ...(typeof entity === 'string' ? { entity: entity as EntityName } : {}),
    ...(Array.isArray(fieldErrors) ? { fieldErrors: fieldErrors as FieldError[] } : {}),
    ...(Object.keys(rest).length ? { details: rest } : {}),
  };
}

/**
 * The XML error type of a failure. A create that lacks required fields is the old service's
 * `ParamMissing`; everything else comes from the table.
 */
export function xmlErrorType(error: FacadeError, fallback: LegacyEntity): string {
  const entity = legacyEntity(error.entity, fallback);
  const missing =
    error.fieldErrors?.length && error.fieldErrors.every((fe) => fe.message === REQUIRED);
  if (error.code === 'VALIDATION_FAILED' && missing && entity !== 'User')
    return `${entity}::ParamMissing`;
  return LEGACY_ERRORS[error.code].xmlType(entity);
}

/** The legacy XML name of an entity of the catalogue. */
export function legacyEntity(entity: EntityName | undefined, fallback: LegacyEntity): LegacyEntity {
  switch (entity) {
    case 'Staff':
    case 'Account':
      return 'User';
    case 'Company':
    case 'Project':
    case 'Shift':
      return entity;
    case 'Activity':
      return 'Project';
    default:
      return fallback;
  }
}
