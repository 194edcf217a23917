import {
  AppError,
  ServiceUnavailableError,
  TooManyRequestsError,
  ValidationError,
} from '../core/errors';

/**
 * Maps what PostgreSQL refused into the error catalogue, so a constraint the code did not check
 * first still reaches the client as a coded 4xx, never as a 500. Returns undefined for anything
 * that is a real fault.
 */
const UNIQUE_CONSTRAINTS: Record<string, [field: string, message: string]> = {
  shifts_one_running_per_user: ['stop', 'the user already has a running shift'],
  oauth_clients_client_key_key: ['clientId', 'is already taken'],
};

/**
 * A unique index named by the convention `<table>_<column>_unique` (`logins_login_unique`,
 * `projects_code_unique`) refuses a value of the input field of its column.
 */
function uniqueColumnOf(constraint: string): [field: string, message: string] | undefined {
  const column = /^[a-z]+_([a-z_]+)_unique$/.exec(constraint)?.[1];
  return column
    ? [column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()), 'is already taken']
    : undefined;
}

/** Socket errors of a database that is gone or unreachable. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that is shutting down, starting or out of connections. Class 08
 * (connection exception) is matched by prefix.
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);

/**
 * What the drivers say, without any code, when the connection is lost or does not answer: pg
 * ("Connection terminated unexpectedly", "Query read timeout" of `query_timeout`, "timeout expired"
 * of a connection not made within DB_CONNECT_TIMEOUT_MS) and knex ("Transaction query already
 * complete": knex resolves a transaction whose BEGIN failed because the connection died under it,
 * loses the BEGIN error and refuses the transaction's first query with this message; nothing of
 * the transaction reached the database; "Unable to acquire a connection": the pool was destroyed,
 * the process is closing its database). knex puts the statement in front of the driver's message
 * (`select ... - Connection terminated unexpectedly`).
 */
const CONNECTION_LOST =
  /(?:^| - )(?:Connection terminated|Connection ended unexpectedly|Query read timeout|Client has encountered a connection error|Client was closed and is not queryable|timeout exceeded when trying to connect|Transaction query already complete|Unable to acquire a connection)|^timeout expired$/;

/**
 * Whether `error` says the server could not be reached or dropped the connection (refused, reset,
 * shutting down, too many connections), as opposed to refusing the statement itself.
 */
export function isConnectionFailure(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown; name?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  const code = typeof e.code === 'string' ? e.code : undefined;
  return (
    e.name === 'ConnectionException' ||
    (code !== undefined &&
      (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) ||
    (code === undefined && typeof e.message === 'string' && CONNECTION_LOST.test(e.message))
  );
}

export function mapDatabaseError(error: unknown): AppError | undefined {
  const e = error as {
    code?: string;
    constraint?: string;
    message?: string;
    name?: string;
    thrownValue?: unknown;
  } | null;
  if (!e || typeof e !== 'object') return undefined;
  // graphql-js wraps what fails its `instanceof Error` (an error of another realm) as NonErrorThrown.
  if (e.name === 'NonErrorThrown' && e.thrownValue && typeof e.thrownValue === 'object')
    return mapDatabaseError(e.thrownValue);
  if (isConnectionFailure(e)) return new ServiceUnavailableError();
  const code = typeof e.code === 'string' ? e.code : undefined;
  const message = typeof e.message === 'string' ? e.message : '';
  if (e.name === 'KnexTimeoutError' || /Knex: Timeout acquiring a connection/.test(message)) {
    return new ServiceUnavailableError('The database is busy; try again shortly');
  }
  if (!code) return undefined;
  // On Citus a worker's refusal comes without the constraint's name, and the message names the
  // shard's copy of it (`logins_login_unique_102648`): the name is the table's, without the shard.
  const constraint =
    e.constraint ?? /constraint "([^"]+?)(?:_\d+)?"/.exec(e.message ?? '')?.[1] ?? '';
  switch (code) {
    case '23505': {
      const [field, message] =
        UNIQUE_CONSTRAINTS[constraint] ??
        uniqueColumnOf(constraint) ??
        (constraint.endsWith('uuid_key')
          ? ['id', 'is already taken']
          : ['input', 'duplicates an existing record']);
      return ValidationError.field(undefined, field, message);
    }
    case '23514':
      return constraint === 'shifts_stop_after_start'
        ? ValidationError.field('Shift', 'stop', 'must be after start')
        : ValidationError.field(undefined, 'input', 'breaks a rule of the data');
    case '23503':
      return ValidationError.field(undefined, 'input', 'refers to a record that does not exist');
    case '22001':
      return ValidationError.field(undefined, 'input', 'a value is too long');
    case '22003':
    case '22008':
    case '22007':
    case '22P02':
    case '22021':
    case '22P05':
      return ValidationError.field(undefined, 'input', 'a value is out of range or malformed');
    // A deadlock or serialization failure that inTransaction's retries did not get past: the
    // request collided with concurrent writes of the same rows. Nothing was written; the client
    // retries after a moment (issue 20, finding 3: never a 500).
    case '40P01':
    case '40001':
      return new TooManyRequestsError(
        1,
        'Too many concurrent changes of the same records; try again in 1 second',
      );
    case '57014':
      return new ServiceUnavailableError('The query took too long and was cancelled');
    default:
      return undefined;
  }
}
