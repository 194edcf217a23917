import type { Request, Response } from 'express';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from './config';
import type { AppError } from './errors';
import { currentLogger, type Logger } from './logger';
import { Loaders } from './loaders';
import type { NodeWriter } from './node-writer';
import type { Viewer } from './viewer';

/**
 * The request context every layer shares: who asks (credentials, then the viewer), the one
 * database handle of the request, its loaders, instant, configuration and logger. Made by the
 * context factory of src/graphql/context.ts; services, resolvers and the facade only use it.
 */

/** Everything a resolver and a service may use for one request. */
export interface RequestContext {
  /** A fork of the EntityManager for this request only, scoped to the viewer's account. */
  readonly em: EntityManager;
  readonly viewer: Viewer;
  /** The request's instant: live totals of running shifts are computed up to it. */
  readonly now: Date;
  readonly loaders: Loaders;
  readonly config: Config;
  /** The request's Idempotency-Key header, as sent: creates and punches honour it. */
  readonly idempotencyKey?: string | undefined;
  /** The request's logger (every line carries its request id); the process logger outside a request. */
  readonly log: Logger;
  /**
   * Only on a context that outlives one request (a subscription's): asks the database whether the
   * credentials the connection signed in with still hold, with the same role. Answers a fresh
   * context (empty identity map, new loaders) acting as the caller, or undefined once they do not;
   * the connection is then being closed. Whatever decides per event what a subscriber may hear
   * asks this first, so a change of rights counts from the next event on.
   */
  readonly recheck?: () => Promise<RequestContext | undefined>;

  /**
   * Runs work that keeps a database connection busy for long (a report's aggregate, a CSV
   * export) in the heavy-work lane, so that such work of all accounts together never occupies
   * more than a few of the pool's connections (issue 20, finding 4). Absent outside an HTTP
   * request (the CLI): the work then simply runs.
   */
  readonly heavy?: HeavyWork | undefined;

  /**
   * Where the caller stands against the request rate limits once this request was counted (the
   * tighter of its address's and its account's); absent where nothing counts (the CLI, limits off).
   */
  readonly rateLimit?: RateLimitStatus | undefined;

  /**
   * Takes an operation's estimated cost from the caller's cost budgets (its user's and its
   * account's, auth/cost-budget.ts) and answers where the tighter one stands, or where the one that
   * refused it stands and the TOO_MANY_REQUESTS refusal (with how long to wait); sets the answer's
   * RateLimit headers to that status. Only the first operation of a request can be refused (a
   * request's later ones, such as the pages of a download already under way, are charged all the
   * same). Absent where nothing is charged (the CLI, budgets off). A charge taken gives back what
   * the operation did not read (`refund`, taken off at the next charge) and sets the headers
   * again.
   */
  readonly throttle?:
    | ((cost: number) => Promise<{
        status: ThrottleStatus;
        refusal?: AppError;
        refund?: (points: number) => ThrottleStatus;
      }>)
    | undefined;

  /**
   * Where this request's reads that may go to a read replica went first (the replica's name, or
   * PRIMARY), set by graphql/replica-routing.ts and shared with the contexts renewed from this one:
   * an export's later pages read there too, so that they never step back in time; with the
   * caller's position it was chosen for, so those pages ask the primary for it no more. Cleared
   * when the request writes.
   */
  readonly readSource?: { name?: string; seen?: bigint };

  /**
   * Only on a request of /graphql over HTTP: takes JSON text into the answer as it is (a read
   * compiled to SQL, which PostgreSQL wrote), giving the value that stands in for it in the data.
   */
  readonly rawJson?: { placeholder(text: string, shown?: number): unknown } | undefined;

  /**
   * Only on a facade's list operation: how it writes the nodes of the root list. Where the read
   * compiles, the nodes come written (`WrittenNodes`), straight from the rows.
   */
  readonly nodeWriter?: NodeWriter | undefined;
}

/**
 * One request counter after a request was counted: a fixed window of `limit` requests that starts
 * again `resetSeconds` from now. These counters stop a runaway client before it costs a password
 * check or a parse; the `RateLimit-*` headers carry them until a GraphQL operation is charged to
 * a cost budget (ThrottleStatus), and always when they refuse.
 */
export interface RateLimitStatus {
  /** Requests allowed per window. */
  readonly limit: number;
  /** Requests left in the current window (0 once refused). */
  readonly remaining: number;
  /** Seconds until the current window ends and `remaining` is `limit` again. */
  readonly resetSeconds: number;
  /** The length of a window in seconds. */
  readonly windowSeconds: number;
}

/** Whose cost budget a ThrottleStatus describes. */
export type ThrottleScope = 'USER' | 'ACCOUNT';

/**
 * A cost budget after an operation was charged (or refused), as GraphQL answers report it in
 * `extensions.cost.throttleStatus`, with Shopify's names: it holds up to `maximumAvailable` points
 * and gets `restoreRate` of them back a second. Of a user's and an account's budget, the tighter.
 */
export interface ThrottleStatus {
  readonly scope: ThrottleScope;
  readonly maximumAvailable: number;
  /** Whole points left now (0 once used up). */
  readonly currentlyAvailable: number;
  /** Points restored per second. */
  readonly restoreRate: number;
  /** Seconds until the budget is full again. */
  readonly fullInSeconds: number;
}

/**
 * The IETF draft's RateLimit headers of a status (draft-ietf-httpapi-ratelimit-headers: limit,
 * remaining quota, delta-seconds until the quota resets).
 */
export function rateLimitHeadersOf(status: RateLimitHeaderValues): Record<string, string> {
  return {
    'RateLimit-Limit': String(status.limit),
    'RateLimit-Remaining': String(status.remaining),
    'RateLimit-Reset': String(status.resetSeconds),
  };
}

/**
 * What the RateLimit headers carry: a request counter's window (RateLimitStatus), or, once a
 * GraphQL operation was charged, its cost budget (limit: maximumAvailable, remaining:
 * currentlyAvailable, reset: seconds until full).
 */
export type RateLimitHeaderValues = Pick<RateLimitStatus, 'limit' | 'remaining' | 'resetSeconds'>;

/** The RateLimit header values of a cost budget's status. */
export function throttleHeaderValues(status: ThrottleStatus): RateLimitHeaderValues {
  return {
    limit: status.maximumAvailable,
    remaining: status.currentlyAvailable,
    resetSeconds: status.fullInSeconds,
  };
}

/** Runs `work` once the heavy-work lane lets it in; rejects with TOO_MANY_REQUESTS when full. */
export type HeavyWork = <T>(work: () => Promise<T>) => Promise<T>;

/**
 * What a transport hands over to authenticate a request: the Authorization header, and the request
 * line itself, which carries OAuth 1.0a query-string signatures and `access_token`.
 */
export interface RequestCredentials {
  /** Absent for JSONP, which trusts only credentials in its own URL. */
  readonly authorization?: string | undefined;
  readonly method: string;
  /** Path and raw query string, exactly as the client sent them. */
  readonly url: string;
  readonly host: string | undefined;
  readonly protocol: 'http' | 'https';
  /** The client's network address (behind trusted proxies, from X-Forwarded-For): the key of the address limits. */
  readonly address: string;
  /**
   * The `Origin` and `Sec-Fetch-Site` headers: a browser's word on which site's page sent the
   * request (src/auth/cross-site-guard.ts). Absent from programs, and from the CLI's contexts.
   */
  readonly origin?: string | undefined;
  readonly fetchSite?: string | undefined;
}

/** The credentials of an Express request; `urlOnly` ignores its Authorization header. */
export function credentialsOf(
  req: Request,
  options: { urlOnly?: boolean } = {},
): RequestCredentials {
  return {
    ...(options.urlOnly ? {} : { authorization: req.headers.authorization }),
    method: req.method,
    url: req.originalUrl,
    host: req.headers.host,
    protocol: req.protocol === 'https' ? 'https' : 'http',
    address: req.ip ?? req.socket.remoteAddress ?? 'unknown',
    origin: req.headers.origin,
    fetchSite: req.get('sec-fetch-site'),
  };
}

/** What a request asks of the acts it runs, besides who it is. */
export interface RequestOptions {
  readonly idempotencyKey?: string | undefined;
  /** Where the request's acts log; unset: the current request's logger, or the process logger. */
  readonly log?: Logger | undefined;
  /**
   * Aborted when the request's answer is complete or its client has gone. A request with it
   * takes one of its account's places in flight until then (and waits for one, or is refused with
   * 429); one without it (a WebSocket connection, the CLI) takes none.
   */
  readonly ended?: AbortSignal | undefined;
  /**
   * Told where the caller stands each time the request is counted against a rate limit, the
   * tightest so far last, refusals included, and then each time an operation of it is charged to
   * a cost budget: an HTTP request puts the last it heard in its answer's headers.
   */
  readonly onRateLimit?: ((status: RateLimitHeaderValues) => void) | undefined;
  /** See RequestContext.rawJson. */
  readonly rawJson?: RequestContext['rawJson'];
}

/** The request options of an Express request. */
export function requestOptionsOf(req: Request): RequestOptions {
  const key = req.headers['idempotency-key'];
  return {
    idempotencyKey: Array.isArray(key) ? key[0] : key,
    log: loggerOf(req),
    ...(req.res ? { ended: endedSignal(req.res), onRateLimit: rateLimitHeaders(req.res) } : {}),
  };
}

/**
 * Every HTTP interface (/graphql, the JSON and XML facades, CSV downloads) answers with the
 * RateLimit headers, set when the request is counted, before any byte of the answer: a 429 keeps
 * them beside its Retry-After.
 */
function rateLimitHeaders(res: Response): (status: RateLimitHeaderValues) => void {
  return (status) => {
    if (!res.headersSent) res.set(rateLimitHeadersOf(status));
  };
}

/** One signal per response: aborted on its 'close' (answered in full, or the connection lost). */
const endedSignals = new WeakMap<Response, AbortSignal>();
function endedSignal(res: Response): AbortSignal {
  let signal = endedSignals.get(res);
  if (!signal) {
    const controller = new AbortController();
    if (res.closed) controller.abort();
    else res.once('close', () => controller.abort());
    signal = controller.signal;
    endedSignals.set(res, signal);
  }
  return signal;
}

/**
 * The logger of a request: the child logger with its request id (src/observability) of `req`, or
 * without `req` the one of the request being served; outside any request, the process's last resort.
 */
export function loggerOf(req?: Request): Logger {
  return (req as { log?: Logger } | undefined)?.log ?? currentLogger();
}

export type ContextFactory = (
  credentials: RequestCredentials,
  options?: RequestOptions,
) => Promise<RequestContext>;

const transactionAccounts = new WeakMap<object, number>();

/**
 * Files a database transaction (the ORM's handle of it) under the account of the request that runs
 * it: the ORM's own updates and deletes in it then name the account too (src/db/tenant-driver.ts),
 * which on Citus keeps each on the one worker that holds the row.
 */
export function fileTransactionAccount(transaction: unknown, accountId: number): void {
  if (isHandle(transaction)) transactionAccounts.set(transaction, accountId);
}

/** The account a transaction was filed under (fileTransactionAccount), if any. */
export function transactionAccount(transaction: unknown): number | undefined {
  return isHandle(transaction) ? transactionAccounts.get(transaction) : undefined;
}

/** Knex's transaction is a function with properties. */
function isHandle(value: unknown): value is object {
  return (typeof value === 'object' || typeof value === 'function') && value !== null;
}

/** Name and parameter of the filter that scopes every tenant query to one account. */
export const TENANT_FILTER = 'tenant';
export interface TenantFilterParams {
  accountId: number;
}

/**
 * The same request with an empty identity map and empty loaders: for an export that runs one
 * operation per page under one authentication, so that no page keeps the rows of the pages before,
 * and for a subscription, whose context lives as long as its connection. With `source`, on that
 * database's connections instead (a read replica's EntityManager).
 */
export function renewedContext(
  ctx: RequestContext,
  source: EntityManager = ctx.em,
): RequestContext {
  return { ...ctx, em: tenantFork(source, ctx.viewer.accountId), loaders: new Loaders() };
}

/**
 * Drops what the request has kept of its reads: its loaders' values and its EntityManager's identity
 * map. A mutation field changes rows (some by plain SQL, which the identity map never sees), so the
 * next field must read them again rather than answer with what an earlier field read. The entities
 * already handed out stay as they are; they are only no longer the request's managed copies.
 */
export function forgetReads(ctx: RequestContext): void {
  ctx.loaders.clear();
  ctx.em.clear();
}

/** A fork with an empty identity map whose every query the tenant filter scopes to one account. */
export function tenantFork(em: EntityManager, accountId: number): EntityManager {
  const fork = em.fork({ clear: true, useContext: false });
  fork.setFilterParams(TENANT_FILTER, { accountId } satisfies TenantFilterParams);
  return fork;
}
