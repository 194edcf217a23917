import path from 'node:path';
import { z } from 'zod';

/**
 * The only reader of process.env. Every setting is validated once at start; a bad value stops the
 * process with a message naming the variable, instead of failing later in a request.
 */
const intFrom = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

/** A PostgreSQL connection URL. */
const postgresUrl = () => z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL');

/** The most `timetrack serve` processes (WORKERS, --workers) one primary starts. */
export const MAX_WORKERS = 256;

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: intFrom(0, 65535).default(3000),
  DATABASE_URL: postgresUrl().optional(),
  // With DATABASE_URL through a pooler in transaction mode: a direct URL to the same primary, for
  // the one connection that needs a session of its own (LISTEN). docs/scaling.md.
  DATABASE_SESSION_URL: postgresUrl().optional(),
  // Streaming replicas of the primary, comma-separated: reports, exports and long lists read there.
  DATABASE_REPLICA_URLS: z
    .string()
    .regex(
      /^postgres(ql)?:\/\/[^,]+(,postgres(ql)?:\/\/[^,]+)*$/,
      'must be postgres:// URLs separated by commas',
    )
    .optional(),
  REPLICA_MAX_LAG_MS: intFrom(0, 3_600_000).default(5_000),
  // A list read asking for at least this many rows (first/last) goes to a replica.
  REPLICA_LIST_ROWS: intFrom(1, 1_000_000).default(500),
  DATA_DIR: z.string().min(1).default('./data'),
  DB_POOL_MAX: intFrom(1, 200).default(10),
  DB_STATEMENT_TIMEOUT_MS: intFrom(100, 600_000).default(15_000),
  // Unset: DB_CONNECT_TIMEOUT_MS, so a request that waits for a connection in a partition fails
  // when a new connection would have (docs/operations.md#when-postgresql-is-down).
  DB_ACQUIRE_TIMEOUT_MS: intFrom(100, 600_000).default(10_000),
  DB_CONNECT_TIMEOUT_MS: intFrom(100, 600_000).default(3_000),
  DB_LISTEN: z.enum(['true', 'false']).default('true'),
  // Unset: all but one of the pool, so that one is always left for the other accounts.
  DB_CONNECTIONS_PER_ACCOUNT: intFrom(0, 200).optional(),
  ACCOUNT_MAX_IN_FLIGHT: intFrom(0, 100_000).default(8),
  ACCOUNT_QUEUE_MAX: intFrom(0, 1_000_000).default(1_000),
  ACCOUNT_QUEUE_WAIT_MS: intFrom(100, 600_000).default(30_000),
  // Unset: a quarter of the pool, at least one (one on the embedded database).
  HEAVY_WORK_MAX: intFrom(1, 200).optional(),
  HEAVY_WORK_PER_ACCOUNT: intFrom(1, 200).default(1),
  HEAVY_WORK_QUEUE_MAX: intFrom(0, 100_000).default(20),
  SHUTDOWN_TIMEOUT_MS: intFrom(0, 600_000).default(10_000),
  // Worker threads that render documents (XLSX, PDF) off the event loop, and how long one may
  // work without a word before it is stopped (docs/operations.md#documents).
  RENDER_THREADS: intFrom(1, 64).default(1),
  RENDER_TIMEOUT_MS: intFrom(100, 600_000).default(30_000),
  // Above 1 only with DATABASE_URL; `timetrack serve` refuses it on the embedded database.
  WORKERS: intFrom(1, MAX_WORKERS).default(1),
  // 0 turns a connection cap off.
  HTTP_MAX_CONNECTIONS: intFrom(0, 1_000_000).default(10_000),
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: intFrom(0, 1_000_000).default(256),
  HTTP_HEADERS_TIMEOUT_MS: intFrom(500, 600_000).default(10_000),
  HTTP_REQUEST_TIMEOUT_MS: intFrom(500, 3_600_000).default(30_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: intFrom(100, 600_000).default(5_000),
  TRUST_PROXY: z
    .string()
    .regex(
      /^(\d+|loopback|linklocal|uniquelocal|[0-9a-fA-F.:/]+(,[0-9a-fA-F.:/]+)*)$/,
      'must be a hop count, loopback, linklocal, uniquelocal or a comma-separated list of addresses',
    )
    .optional(),
  RATE_LIMIT_PER_ACCOUNT: intFrom(0, 100_000_000).default(30_000),
  RATE_LIMIT_PER_ADDRESS: intFrom(0, 100_000_000).default(60_000),
  RATE_LIMIT_WINDOW_S: intFrom(1, 86_400).default(60),
  // 0 turns the timer off; otherwise at least 100 ms, so a typo cannot hammer the database.
  SUBSCRIPTION_RECHECK_MS: intFrom(0, 3_600_000)
    .refine((ms) => ms === 0 || ms >= 100, 'must be 0 (off) or at least 100')
    .default(2_000),
  GRAPHQL_MAX_DEPTH: intFrom(1, 1_000).default(12),
  GRAPHQL_MAX_ALIASES: intFrom(0, 10_000).default(30),
  GRAPHQL_MAX_TOKENS: intFrom(10, 1_000_000).default(5_000),
  GRAPHQL_MAX_COST: intFrom(1, 1_000_000_000).default(500_000),
  GRAPHQL_COMPILED_READS: z.enum(['true', 'false']).default('true'),
  // Cost budgets (leaky buckets, src/auth/cost-budget.ts): points held full (0 turns one off) and
  // points restored a second. A budget that is on holds at least GRAPHQL_MAX_COST (checked below).
  GRAPHQL_COST_BUDGET_PER_USER: intFrom(0, 1_000_000_000_000).default(1_000_000),
  GRAPHQL_COST_RESTORE_PER_USER: intFrom(1, 1_000_000_000).default(10_000),
  GRAPHQL_COST_BUDGET_PER_ACCOUNT: intFrom(0, 1_000_000_000_000).default(5_000_000),
  GRAPHQL_COST_RESTORE_PER_ACCOUNT: intFrom(1, 1_000_000_000).default(50_000),
  REPORT_ROLLUPS: z.enum(['true', 'false']).default('true'),
  IDEMPOTENCY_TTL_S: intFrom(60, 30 * 86_400).default(86_400),
  TOMBSTONE_RETENTION_DAYS: intFrom(1, 3_650).default(30),
  AUTH_CACHE_TTL_MS: intFrom(0, 3_600_000).default(60_000),
  PAGE_SIZE_DEFAULT: intFrom(1, 100_000).default(100),
  PAGE_SIZE_MAX: intFrom(1, 100_000).default(5_000),
  BODY_LIMIT_BYTES: intFrom(1024, 64 * 1024 * 1024).default(1024 * 1024),
  PASSWORD_HASH_MEMORY_KIB: intFrom(8, 4 * 1024 * 1024).default(19_456),
  AUTH_FAILURES_PER_LOGIN: intFrom(1, 1_000_000).default(10),
  AUTH_FAILURES_PER_ADDRESS: intFrom(1, 1_000_000).default(100),
  AUTH_FAILURE_WINDOW_S: intFrom(1, 86_400).default(900),
  OAUTH1_TIMESTAMP_WINDOW_S: intFrom(10, 86_400).default(300),
  // Web origins whose pages may send state-changing requests (src/auth/cross-site-guard.ts).
  ALLOWED_ORIGINS: z
    .string()
    .refine(
      (s) => s.split(',').every((origin) => isOrigin(origin.trim())),
      'must be a comma-separated list of http:// or https:// origins such as https://app.example.com',
    )
    .optional(),
  PUBLIC_URL: z
    .string()
    .refine(isOrigin, 'must be an http:// or https:// origin such as https://time.example.com')
    .optional(),
  SMTP_URL: z
    .string()
    .refine(
      (s) => URL.canParse(s) && /^smtps?:$/.test(new URL(s).protocol),
      'must be an smtp:// or smtps:// URL',
    )
    .optional(),
  // An address nodemailer can put in From: a bare address or `Name <address>`.
  SMTP_FROM: z
    .string()
    .regex(
      /^([^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/,
      'must be an e-mail address, optionally as "Name <address>"',
    )
    .default('timetrack <no-reply@localhost>'),
  OUTBOX_POLL_MS: intFrom(100, 3_600_000).default(2_000),
  WEBHOOK_TIMEOUT_MS: intFrom(100, 120_000).default(10_000),
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: z.enum(['true', 'false']).default('false'),
  GEOCODER: z.enum(['offline', 'http', 'none']).default('offline'),
  GEOCODER_URL: z
    .string()
    .refine(
      (s) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol),
      'must be an http:// or https:// URL',
    )
    .optional(),
  // Unset: on except in production, like introspection, which the IDE needs for its docs.
  GRAPHIQL: z.enum(['true', 'false']).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  // A shared secret of the scraper: long enough not to be guessed, nothing a header cannot carry.
  METRICS_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]{16,256}$/, 'must be 16 to 256 printable ASCII characters without spaces')
    .optional(),
});

/** An http(s) origin: scheme, host and port, nothing else (a trailing `/` is tolerated). */
function isOrigin(s: string): boolean {
  if (!URL.canParse(s)) return false;
  const url = new URL(s);
  return (
    /^https?:$/.test(url.protocol) &&
    url.pathname === '/' &&
    !url.search &&
    !url.hash &&
    !url.username &&
    !url.password
  );
}

/** pino's levels; `silent` logs nothing. */
export interface FailureLimit {
  /** Failures allowed within the window; the next attempt is refused until the window ends. */
  readonly failures: number;
  readonly windowSeconds: number;
}

export interface SignInLimits {
  /** Failures of one login from one client address. */
  readonly perLogin: FailureLimit;
  /** Failures of any kind (sign-ins, signatures) from one client address. */
  readonly perAddress: FailureLimit;
}

export type LogLevel = NonNullable<z.infer<typeof envSchema>['LOG_LEVEL']>;

export type DatabaseTarget =
  | { kind: 'embedded'; dataDir: string }
  | {
      kind: 'server';
      url: string;
      /**
       * DATABASE_SESSION_URL: set when `url` is a pooler in transaction mode. The LISTEN connection
       * uses it, and the pool sends no session settings (nor named prepared statements) through
       * `url`, which the pooler could not keep.
       */
      sessionUrl?: string;
      /** DATABASE_REPLICA_URLS: streaming replicas of the primary, for the reads that may lag. */
      replicaUrls: readonly string[];
    };

/** Where company coordinates come from when a client leaves them blank. */
export type GeocoderConfig =
  { readonly kind: 'offline' | 'none' } | { readonly kind: 'http'; readonly url: string };

export interface Config {
  readonly env: 'development' | 'production' | 'test';
  readonly host: string;
  readonly port: number;
  readonly database: DatabaseTarget;
  readonly db: {
    readonly poolMax: number;
    readonly statementTimeoutMs: number;
    readonly acquireTimeoutMs: number;
    /** How long opening one new connection may take (a database that does not answer). */
    readonly connectTimeoutMs: number;
    /**
     * With DATABASE_URL: whether this process holds one extra connection that LISTENs for the
     * live events of other processes. Off where the server cannot give one (a pooler in
     * transaction mode, a one-connection server); subscriptions then hear this process only.
     */
    readonly listen: boolean;
    /** Connections one account may hold at once; 0: the whole pool (still handed out fairly). */
    readonly connectionsPerAccount: number;
    /** A replica further behind the primary than this is skipped (REPLICA_MAX_LAG_MS). */
    readonly replicaMaxLagMs: number;
    /** A list read asking for at least this many rows goes to a replica (REPLICA_LIST_ROWS). */
    readonly replicaListRows: number;
  };
  /**
   * Each account's fair share of the process (issue 20, finding 4), counted per process: requests
   * in flight, and the lane of heavy work (reports, CSV exports).
   */
  readonly fairShare: {
    /** Requests of one account served at once; 0 turns the cap off. */
    readonly inFlightPerAccount: number;
    /** Requests of one account waiting beyond those; more are 429. */
    readonly queuePerAccount: number;
    /** How long a request waits for its turn (in flight or in the heavy lane) before a 429. */
    readonly queueWaitMs: number;
    /** Heavy work (reports, CSV exports) running at once in the whole process. */
    readonly heavyWorkMax: number;
    /** Heavy work of one account running at once. */
    readonly heavyWorkPerAccount: number;
    /** Heavy work of one account waiting beyond that; more is 429. */
    readonly heavyQueuePerAccount: number;
  };
  /** How long SIGTERM/SIGINT waits for requests in flight before closing their connections. */
  readonly shutdownTimeoutMs: number;
  /** The worker threads that render the downloads' documents (XLSX, PDF), per process. */
  readonly render: {
    /** Threads at most, started on demand. */
    readonly threads: number;
    /** How long a thread may work on a document without a word (bytes, a request for rows). */
    readonly timeoutMs: number;
  };
  /**
   * Server processes `timetrack serve` runs on the one port (node:cluster). Above 1 only with a
   * PostgreSQL server: the embedded database belongs to one process.
   */
  readonly workers: number;
  /** What `timetrack serve`'s HTTP server holds open, and for how long (docs/operations.md). */
  readonly http: HttpServerLimits;
  /** Express's `trust proxy`: which proxies' X-Forwarded-For names the client address. */
  readonly trustProxy: string | number | false;
  /** Requests per window; 0 turns a limit off. Counted in PostgreSQL, shared by every process. */
  readonly rateLimits: {
    readonly perAccount: number;
    readonly perAddress: number;
    readonly windowSeconds: number;
  };
  readonly subscriptions: {
    /**
     * How often every open WebSocket's credentials are checked again (0: never on a timer). Each
     * operation and each delivered event checks them too, and with a PostgreSQL server a change
     * is announced at once; the timer is the backstop for expiry, lost notifications and the
     * embedded database, which announces nothing.
     */
    readonly recheckMs: number;
  };
  /** Limits every GraphQL operation must keep, whoever sends it (clients and the facades). */
  readonly graphql: {
    readonly maxDepth: number;
    readonly maxAliases: number;
    readonly maxTokens: number;
    readonly maxCost: number;
    /**
     * Whether reads whose selection compiles are answered by one SQL statement that writes their
     * JSON (src/graphql/compiled-reads); off, the executor answers every field (the differential
     * test's other side).
     */
    readonly compiledReads: boolean;
  };
  /**
   * Each user's and each account's budget of GraphQL cost points (Shopify's leaky bucket): holds up
   * to `perUser` / `perAccount` points (0: off), restores `userRestoreRate` /
   * `accountRestoreRate` a second. Kept in PostgreSQL, shared by every process.
   */
  readonly costBudgets: {
    readonly perUser: number;
    readonly userRestoreRate: number;
    readonly perAccount: number;
    readonly accountRestoreRate: number;
  };
  /**
   * Whether reports read the time rollups the database keeps where they answer (docs/reports.md);
   * off, every report adds up the shifts themselves (the benchmark's comparison).
   */
  readonly reportRollups: boolean;
  /** How long an Idempotency-Key is remembered. */
  readonly idempotencyTtlSeconds: number;
  /** How long the record of a deletion is kept for incremental sync (docs/sync.md). */
  readonly tombstoneRetentionDays: number;
  readonly auth: {
    readonly cacheTtlMs: number;
    readonly hashMemoryKib: number;
    readonly signInLimits: SignInLimits;
    /** How far an OAuth 1.0a timestamp may be from the server's clock, either way. */
    readonly oauth1TimestampWindowSeconds: number;
    /** The origin clients address (behind a proxy); unset: the request's own Host and scheme. */
    readonly publicUrl: string | undefined;
    /**
     * Origins (`https://app.example.com`, as `URL.origin` spells them) of other web sites whose
     * pages may send state-changing requests with a browser's credentials.
     */
    readonly allowedOrigins: readonly string[];
  };
  readonly pageSize: { readonly default: number; readonly max: number };
  readonly bodyLimitBytes: number;
  readonly outbox: {
    /** Unset: e-mails are written as .eml files to `fileDir` instead of being sent. */
    readonly smtpUrl: string | undefined;
    readonly from: string;
    readonly pollMs: number;
    /** How long a webhook receiver has to answer one delivery. */
    readonly webhookTimeoutMs: number;
    /** Whether webhook URLs may reach loopback, private and link-local addresses (SSRF guard off). */
    readonly webhookAllowPrivateAddresses: boolean;
    /** `DATA_DIR/outbox`, with or without DATABASE_URL. */
    readonly fileDir: string;
  };
  readonly geocoder: GeocoderConfig;
  /** Whether a browser opening GET /graphql gets the GraphiQL IDE (served from node_modules). */
  readonly graphiql: boolean;
  /** JSON lines on stdout; LOG_LEVEL unset is `info`, or `silent` under NODE_ENV=test. */
  readonly log: { readonly level: LogLevel };
  /** When set, /metrics answers only requests with `Authorization: Bearer <token>`. */
  readonly metricsToken: string | undefined;
}

/** Caps and timeouts of the listening HTTP server; a cap of 0 is off. */
export interface HttpServerLimits {
  /** Open connections in all; more are closed as they arrive. */
  readonly maxConnections: number;
  /** Open connections from one client address (a trusted proxy's own address is exempt). */
  readonly maxConnectionsPerAddress: number;
  /** How long a client has to send a request's headers (from its connection or previous request). */
  readonly headersTimeoutMs: number;
  /** How long a client has to send a whole request, body included. */
  readonly requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open after an answer. */
  readonly keepAliveTimeoutMs: number;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings mean "unset", as in most shells' `VAR= command`.
  const present = Object.fromEntries(
    Object.entries(env).filter(([key, value]) => key in envSchema.shape && value !== ''),
  );
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.PAGE_SIZE_DEFAULT > e.PAGE_SIZE_MAX) {
    throw new ConfigError(
      'Invalid configuration:\n  PAGE_SIZE_DEFAULT: must not exceed PAGE_SIZE_MAX',
    );
  }
  if (e.HTTP_HEADERS_TIMEOUT_MS > e.HTTP_REQUEST_TIMEOUT_MS) {
    throw new ConfigError(
      'Invalid configuration:\n  HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS',
    );
  }
  for (const name of ['DATABASE_SESSION_URL', 'DATABASE_REPLICA_URLS'] as const) {
    if (e[name] && !e.DATABASE_URL)
      throw new ConfigError(`Invalid configuration:\n  ${name}: needs DATABASE_URL (a server)`);
  }
  // A budget smaller than the largest operation allowed would refuse that operation forever.
  for (const name of ['GRAPHQL_COST_BUDGET_PER_USER', 'GRAPHQL_COST_BUDGET_PER_ACCOUNT'] as const) {
    if (e[name] !== 0 && e[name] < e.GRAPHQL_MAX_COST)
      throw new ConfigError(
        `Invalid configuration:\n  ${name}: must be 0 (off) or at least GRAPHQL_MAX_COST (${e.GRAPHQL_MAX_COST})`,
      );
  }
  if (e.GEOCODER === 'http' && !e.GEOCODER_URL) {
    throw new ConfigError('Invalid configuration:\n  GEOCODER_URL: is required when GEOCODER=http');
  }
  return Object.freeze({
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    database: e.DATABASE_URL
      ? {
          kind: 'server',
          url: e.DATABASE_URL,
          sessionUrl: e.DATABASE_SESSION_URL,
          replicaUrls: e.DATABASE_REPLICA_URLS?.split(',') ?? [],
        }
      : { kind: 'embedded', dataDir: path.resolve(e.DATA_DIR) },
    db: Object.freeze({
      poolMax: e.DB_POOL_MAX,
      statementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS,
      acquireTimeoutMs: e.DB_ACQUIRE_TIMEOUT_MS,
      connectTimeoutMs: e.DB_CONNECT_TIMEOUT_MS,
      listen: e.DB_LISTEN === 'true',
      connectionsPerAccount: e.DB_CONNECTIONS_PER_ACCOUNT ?? Math.max(1, e.DB_POOL_MAX - 1),
      replicaMaxLagMs: e.REPLICA_MAX_LAG_MS,
      replicaListRows: e.REPLICA_LIST_ROWS,
    }),
    fairShare: Object.freeze({
      inFlightPerAccount: e.ACCOUNT_MAX_IN_FLIGHT,
      queuePerAccount: e.ACCOUNT_QUEUE_MAX,
      queueWaitMs: e.ACCOUNT_QUEUE_WAIT_MS,
      heavyWorkMax:
        e.HEAVY_WORK_MAX ?? (e.DATABASE_URL ? Math.max(1, Math.floor(e.DB_POOL_MAX / 4)) : 1),
      heavyWorkPerAccount: e.HEAVY_WORK_PER_ACCOUNT,
      heavyQueuePerAccount: e.HEAVY_WORK_QUEUE_MAX,
    }),
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    render: Object.freeze({ threads: e.RENDER_THREADS, timeoutMs: e.RENDER_TIMEOUT_MS }),
    workers: e.WORKERS,
    http: Object.freeze({
      maxConnections: e.HTTP_MAX_CONNECTIONS,
      maxConnectionsPerAddress: e.HTTP_MAX_CONNECTIONS_PER_ADDRESS,
      headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    }),
    trustProxy:
      e.TRUST_PROXY === undefined
        ? false
        : /^\d+$/.test(e.TRUST_PROXY)
          ? Number(e.TRUST_PROXY)
          : e.TRUST_PROXY,
    rateLimits: Object.freeze({
      perAccount: e.RATE_LIMIT_PER_ACCOUNT,
      perAddress: e.RATE_LIMIT_PER_ADDRESS,
      windowSeconds: e.RATE_LIMIT_WINDOW_S,
    }),
    subscriptions: Object.freeze({ recheckMs: e.SUBSCRIPTION_RECHECK_MS }),
    graphql: Object.freeze({
      maxDepth: e.GRAPHQL_MAX_DEPTH,
      maxAliases: e.GRAPHQL_MAX_ALIASES,
      maxTokens: e.GRAPHQL_MAX_TOKENS,
      maxCost: e.GRAPHQL_MAX_COST,
      compiledReads: e.GRAPHQL_COMPILED_READS === 'true',
    }),
    costBudgets: Object.freeze({
      perUser: e.GRAPHQL_COST_BUDGET_PER_USER,
      userRestoreRate: e.GRAPHQL_COST_RESTORE_PER_USER,
      perAccount: e.GRAPHQL_COST_BUDGET_PER_ACCOUNT,
      accountRestoreRate: e.GRAPHQL_COST_RESTORE_PER_ACCOUNT,
    }),
    reportRollups: e.REPORT_ROLLUPS === 'true',
    idempotencyTtlSeconds: e.IDEMPOTENCY_TTL_S,
    tombstoneRetentionDays: e.TOMBSTONE_RETENTION_DAYS,
    auth: Object.freeze({
      cacheTtlMs: e.AUTH_CACHE_TTL_MS,
      hashMemoryKib: e.PASSWORD_HASH_MEMORY_KIB,
      signInLimits: {
        perLogin: { failures: e.AUTH_FAILURES_PER_LOGIN, windowSeconds: e.AUTH_FAILURE_WINDOW_S },
        perAddress: {
          failures: e.AUTH_FAILURES_PER_ADDRESS,
          windowSeconds: e.AUTH_FAILURE_WINDOW_S,
        },
      },
      oauth1TimestampWindowSeconds: e.OAUTH1_TIMESTAMP_WINDOW_S,
      publicUrl: e.PUBLIC_URL?.replace(/\/$/, ''),
      allowedOrigins: Object.freeze(
        (e.ALLOWED_ORIGINS ?? '')
          .split(',')
          .filter((origin) => origin.trim() !== '')
          .map((origin) => new URL(origin.trim()).origin),
      ),
    }),
    pageSize: Object.freeze({ default: e.PAGE_SIZE_DEFAULT, max: e.PAGE_SIZE_MAX }),
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    outbox: Object.freeze({
      smtpUrl: e.SMTP_URL,
      from: e.SMTP_FROM,
      pollMs: e.OUTBOX_POLL_MS,
      webhookTimeoutMs: e.WEBHOOK_TIMEOUT_MS,
      webhookAllowPrivateAddresses: e.WEBHOOK_ALLOW_PRIVATE_ADDRESSES === 'true',
      fileDir: path.join(path.resolve(e.DATA_DIR), 'outbox'),
    }),
    geocoder: Object.freeze(
      e.GEOCODER === 'http' ? { kind: e.GEOCODER, url: e.GEOCODER_URL! } : { kind: e.GEOCODER },
    ),
    graphiql: e.GRAPHIQL === undefined ? e.NODE_ENV !== 'production' : e.GRAPHIQL === 'true',
    // Tests start many apps and keep their output quiet; a test that reads the logs sets LOG_LEVEL.
    log: Object.freeze({ level: e.LOG_LEVEL ?? (e.NODE_ENV === 'test' ? 'silent' : 'info') }),
    metricsToken: e.METRICS_TOKEN,
  } satisfies Config);
}
