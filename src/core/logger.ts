import { AsyncLocalStorage } from 'node:async_hooks';
import {
  destination as fileDestination,
  pino,
  stdSerializers,
  stdTimeFunctions,
  type DestinationStream,
  type Logger,
} from 'pino';
import type { LogLevel } from './config';

export type { Logger };

/** What the logs must never show: the value of these fields and parameters becomes `[Redacted]`. */
export const REDACTED = '[Redacted]';

/**
 * Secret fields at any of the first few levels of a logged object (a body, a form, an input):
 * pino's redaction has no recursive wildcard, and deeper nesting is not something we log.
 */
const SECRET_FIELDS = [
  'password',
  'oauth_signature',
  'oauth_token_secret',
  'access_token',
  'refresh_token',
  'client_secret',
];

/** Request headers that carry credentials, wherever a `headers` object is logged. */
const SECRET_HEADERS = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-auth-token',
];

/** Query parameters whose value is a credential: OAuth 1.0a signatures, bearer tokens in the URL. */
const SECRET_PARAMETERS = new Set([...SECRET_FIELDS, 'api_key', 'apikey']);

const REDACT_PATHS = [
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`, `*.*.*.${field}`]),
  ...SECRET_HEADERS.flatMap((header) => [`headers["${header}"]`, `*.headers["${header}"]`]),
];

/**
 * Fields PostgreSQL adds to an error that quote values of the statement or of a row: `detail`
 * ("Key (login)=(alice) already exists"), `where` (a function's context, with its arguments),
 * `internalQuery`.
 */
const VALUE_BEARING_DB_FIELDS = ['detail', 'where', 'internalQuery'];

/** The shape of an error PostgreSQL raised: a five-character SQLSTATE and the server's fields. */
function isDatabaseError(err: Record<string, unknown>): boolean {
  return (
    typeof err.code === 'string' &&
    /^[0-9A-Z]{5}$/.test(err.code) &&
    (typeof err.severity === 'string' || typeof err.routine === 'string')
  );
}

/**
 * What a failed statement's error says without the statement: knex and MikroORM write it in front
 * of PostgreSQL's message (`<statement> - <message>`), and MikroORM inlines the bound values into
 * that statement and appends the `detail` and `hint`. What PostgreSQL said comes after the last
 * ` - `, so only that part is kept.
 */
function withoutStatement(message: string): string {
  const said = message.replace(/\n - (?:detail|hint): [\s\S]*$/, '');
  const separator = said.lastIndexOf(' - ');
  return separator < 0 ? said : said.slice(separator + 3);
}

/**
 * The `err` of every log line: pino's standard serializer, and for database errors neither the
 * statement with its bound values (a filter's text, a name, a password hash) nor PostgreSQL's
 * fields that quote values (issue 20, finding 10). The SQLSTATE (`code`), the constraint, table,
 * column, routine and the stack's frames stay, which is what a fault's diagnosis needs. Takes an
 * Error, or what pino's serializer made of one (pino-http applies that first).
 */
export function serializeLoggedError(err: unknown): unknown {
  const plain = (err instanceof Error ? stdSerializers.err(err) : err) as Record<string, unknown>;
  if (!plain || typeof plain !== 'object' || !isDatabaseError(plain)) return plain;
  const safe: Record<string, unknown> = { ...plain };
  for (const field of VALUE_BEARING_DB_FIELDS) delete safe[field];
  if (typeof plain.message === 'string') safe.message = withoutStatement(plain.message);
  if (typeof plain.stack === 'string') {
    const frames = plain.stack.split('\n').filter((line) => /^\s+at /.test(line));
    safe.stack = [`${String(plain.type ?? 'Error')}: ${String(safe.message)}`, ...frames].join(
      '\n',
    );
  }
  return safe;
}

/**
 * The process logger: JSON lines (pino) on stdout, or on `destination` (tests). Credentials are
 * redacted here, once, so no call site has to remember it; so are the values of failed database
 * statements (serializeLoggedError).
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      timestamp: stdTimeFunctions.isoTime,
      // `"level":"info"` rather than 30: readable without a table, and what most shippers expect.
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: REDACTED },
      serializers: { err: serializeLoggedError },
    },
    destination,
  );
}

/** `url` with the values of credential parameters replaced; the rest stays as the client sent it. */
export function redactUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark < 0) return url;
  const hash = url.indexOf('#', mark);
  const query = url.slice(mark + 1, hash < 0 ? undefined : hash);
  const redacted = query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      return equals >= 0 && SECRET_PARAMETERS.has(decodedName(name).toLowerCase())
        ? `${name}=${REDACTED}`
        : pair;
    })
    .join('&');
  return `${url.slice(0, mark)}?${redacted}`;
}

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** Headers as logged: credential headers keep their name (it tells how a client authenticated), not their value. */
export function redactHeaders(headers: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers))
    copy[name] = SECRET_HEADERS.includes(name.toLowerCase()) ? REDACTED : value;
  return copy;
}

/**
 * The logger of the request being served. The request middleware runs the rest of the request
 * inside it, so code far from the HTTP layer (error formatting, the geocoder) logs with the request
 * id without a logger being threaded through every call.
 */
const scope = new AsyncLocalStorage<Logger>();

/** Runs `work` (and everything it starts) with `log` as the current logger. */
export function withLogger<T>(log: Logger, work: () => T): T {
  return scope.run(log, work);
}

/** The current request's logger; outside a request `fallback`, or the last-resort logger. */
export function currentLogger(fallback?: Logger): Logger {
  return scope.getStore() ?? fallback ?? lastResortLogger();
}

let lastResort: Logger | undefined;

/**
 * For code that runs outside any request and was given no logger (a module used on its own, as in
 * unit tests, or the CLI's one-shot commands): `info` to stderr, redacted like every other.
 */
export function lastResortLogger(): Logger {
  return (lastResort ??= createLogger('info', fileDestination({ dest: 2, sync: true })));
}
