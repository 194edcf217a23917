import type { MikroORM } from '@mikro-orm/postgresql';
import type { CostBudget } from '../auth/cost-budget';
import type { CredentialCheck } from '../auth/credential-check';
import { crossSiteRefusal, originPolicyOf } from '../auth/cross-site-guard';
import type { FairShareLimiter } from '../auth/fair-share-limiter';
import type { Identified, RequestAuthenticator } from '../auth/request-authenticator';
import type { RateLimitObserver, RequestLimiter } from '../auth/request-limiter';
import { enterAccount } from '../core/account-scope';
import type { Config } from '../core/config';
import { AppError, TooManyRequestsError, UnauthenticatedError } from '../core/errors';
import { Loaders } from '../core/loaders';
import { currentLogger, type Logger } from '../core/logger';
import {
  tenantFork,
  type ContextFactory,
  throttleHeaderValues,
  type RateLimitStatus,
  type RequestContext,
  type RequestCredentials,
  type RequestOptions,
} from '../core/request-context';
import type { Viewer } from '../core/viewer';
import { mapDatabaseError } from '../db/database-errors';

interface ContextDeps {
  orm: MikroORM;
  config: Config;
  authenticator: RequestAuthenticator;
  limiter: RequestLimiter;
  /** Each account's share of requests in flight and of the heavy-work lane. */
  fairShare: FairShareLimiter;
  /** Each user's and account's budget of GraphQL cost points. */
  costBudget: CostBudget;
  /** The process logger, for contexts made outside a request. */
  logger: Logger;
}

/**
 * The one context factory, used by /graphql and by the facades alike, so every interface
 * refuses cross-site requests, authenticates, counts requests against the rate limits, forks the
 * EntityManager and scopes to the tenant the same way.
 */
export function createContextFactory(deps: ContextDeps): ContextFactory {
  const originPolicy = originPolicyOf(deps.config);
  return (credentials, options = {}) =>
    catalogued(async () => {
      // First: a forged request costs no password check and no database round trip.
      const refusal = crossSiteRefusal(credentials, originPolicy);
      if (refusal) throw refusal;
      const tally = rateLimitTally(options.onRateLimit);
      const { viewer } = await admit(deps, credentials, tally.observe, options.ended);
      return {
        ...contextForViewer(deps.orm, deps.config, viewer, {
          ...options,
          log: options.log ?? currentLogger(deps.logger),
        }),
        heavy: deps.fairShare.heavyWork(viewer.accountId, options.ended),
        rateLimit: tally.status(),
        throttle: throttleOf(deps.costBudget, viewer, options.onRateLimit),
      };
    });
}

/**
 * A connection that signs in once and then carries many operations and events (a WebSocket).
 * It keeps what it signed in with, so that every operation, every event and every change of the
 * user's credentials can ask again whether it still holds.
 */
export interface LiveSession {
  /** The user as they signed in. */
  readonly viewer: Viewer;
  /**
   * One more request on the connection, admitted as an HTTP request is: its credentials checked
   * again and counted against the address and account limits. Answers the operation's own
   * context, which carries `recheck` (a subscription lives on with it). Throws the catalogue's
   * UNAUTHENTICATED (the connection is being closed), TOO_MANY_REQUESTS or SERVICE_UNAVAILABLE.
   */
  operation(): Promise<RequestContext>;
  /** RequestContext.recheck: a fresh context, or undefined once the credentials no longer hold. */
  recheck(): Promise<RequestContext | undefined>;
}

/** Opens a LiveSession; `revoked` runs once, when a check first finds the credentials gone. */
export type LiveSessionFactory = (
  credentials: RequestCredentials,
  revoked: () => void,
) => Promise<LiveSession>;

/**
 * Live sessions admitted like every request (createContextFactory). A session holds while its
 * grant still signs in as the same user with the same role: a role change, either way, ends it,
 * and the client reconnects with what it may now see.
 */
export function createLiveSessionFactory(
  deps: ContextDeps & { credentials: CredentialCheck },
): LiveSessionFactory {
  return (credentials, revoked) =>
    catalogued(async () => {
      const { viewer, grant } = await admit(deps, credentials, rateLimitTally().observe);
      const log = currentLogger(deps.logger);
      let holds = true;
      const recheck = async (): Promise<RequestContext | undefined> => {
        const now = holds ? await deps.credentials.current(grant) : undefined;
        if (
          holds &&
          now?.id === viewer.id &&
          now.type === viewer.type &&
          now.accountId === viewer.accountId
        )
          return { ...contextForViewer(deps.orm, deps.config, viewer, { log }), recheck };
        if (holds) {
          holds = false;
          revoked();
        }
        return undefined;
      };
      return {
        viewer,
        recheck,
        operation: () =>
          catalogued(async () => {
            const tally = rateLimitTally();
            const [context] = await Promise.all([
              recheck(),
              deps.limiter.countAddress(credentials.address, tally.observe),
            ]);
            if (!context) throw new UnauthenticatedError('These credentials no longer hold');
            await deps.limiter.countAccount(viewer.accountId, tally.observe);
            return {
              ...context,
              rateLimit: tally.status(),
              throttle: throttleOf(deps.costBudget, viewer),
            };
          }),
      };
    });
}

/**
 * Authenticates and counts one request. Authentication reads a few columns of the user on a fork
 * of its own, so that no partly loaded user sits in the request's identity map; the address is
 * counted meanwhile, the account once the request is known to act for it. An HTTP request (one
 * that can `end`) then waits for its turn among its account's requests in flight.
 */
async function admit(
  deps: ContextDeps,
  credentials: RequestCredentials,
  observe: RateLimitObserver,
  ended?: RequestOptions['ended'],
): Promise<Identified> {
  // Both settle before either failure is answered, so that even a refusal reports the address's
  // count (RateLimit headers); an address over its limit is refused first, whatever the credentials.
  const [signedIn, counted] = await Promise.allSettled([
    deps.authenticator.identify(deps.orm.em.fork({ useContext: false }), credentials),
    deps.limiter.countAddress(credentials.address, observe),
  ]);
  if (counted.status === 'rejected') throw counted.reason;
  if (signedIn.status === 'rejected') throw signedIn.reason;
  const identified = signedIn.value;
  const { accountId } = identified.viewer;
  // From here on the request's queries take its account's connections (db/connection-lanes.ts).
  enterAccount(accountId);
  // Its turn among the account's requests in flight, before it costs any more queries.
  if (ended) await deps.fairShare.admit(accountId, ended);
  await deps.limiter.countAccount(accountId, observe);
  return identified;
}

/**
 * A request is counted by two limits (its address's and its account's); what it reports is the
 * tighter one, the one that will refuse it first. `heard` is told each time that changes.
 */
function rateLimitTally(heard?: (status: RateLimitStatus) => void): {
  observe: RateLimitObserver;
  status(): RateLimitStatus | undefined;
} {
  let tightest: RateLimitStatus | undefined;
  return {
    observe: (status) => {
      if (tightest && tightest.remaining <= status.remaining) return;
      tightest = status;
      heard?.(status);
    },
    status: () => tightest,
  };
}

/**
 * RequestContext.throttle of one request. Its first operation is refused when a budget holds
 * less than its cost; the later ones (a download's pages, a facade's reads after its write) are
 * charged even past the budget, so that an answer under way is never cut short: the caller's next
 * request waits for it instead.
 */
function throttleOf(
  budget: CostBudget,
  viewer: Viewer,
  heard?: RequestOptions['onRateLimit'],
): RequestContext['throttle'] {
  if (!budget.enabled) return undefined;
  let operations = 0;
  const payer = { userId: viewer.id, accountId: viewer.accountId };
  return async (cost) => {
    const first = operations === 0;
    operations += 1;
    const charge = await catalogued(() => budget.charge(payer, cost, { force: !first }));
    heard?.(throttleHeaderValues(charge.status));
    if (charge.allowed)
      return {
        status: charge.status,
        refund: (points) => {
          const status = charge.refund(points);
          heard?.(throttleHeaderValues(status));
          return status;
        },
      };
    const { retryAfterSeconds: wait, status } = charge;
    const whose = status.scope === 'USER' ? "this user's" : "this account's";
    const refusal = new TooManyRequestsError(
      wait,
      `This operation costs ${cost} points and ${whose} budget holds ${status.currentlyAvailable} now (of ${status.maximumAvailable}, restoring ${status.restoreRate} a second); try again in ${wait} second${wait === 1 ? '' : 's'}`,
    );
    return { status, refusal };
  };
}

/** A database that cannot answer is SERVICE_UNAVAILABLE for every transport alike. */
async function catalogued<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw error instanceof AppError ? error : (mapDatabaseError(error) ?? error);
  }
}

/** A request context acting as `viewer`: for requests once authenticated, and for the CLI. */
export function contextForViewer(
  orm: MikroORM,
  config: Config,
  viewer: Viewer,
  options: RequestOptions = {},
): RequestContext {
  const em = tenantFork(orm.em, viewer.accountId);
  return {
    em,
    viewer,
    now: new Date(),
    loaders: new Loaders(),
    config,
    idempotencyKey: options.idempotencyKey,
    log: options.log ?? currentLogger(),
    readSource: {},
    ...(options.rawJson ? { rawJson: options.rawJson } : {}),
  };
}
