import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { FairShareLimiter } from '../auth/fair-share-limiter';
import type { RequestAuthenticator } from '../auth/request-authenticator';
import type { RequestLimiter } from '../auth/request-limiter';
import { enterAccount } from '../core/account-scope';
import type { Config } from '../core/config';
import { AppError } from '../core/errors';
import { Loaders } from '../core/loaders';
import { currentLogger, type Logger } from '../core/logger';
import type { ContextFactory, RequestContext, RequestOptions } from '../core/request-context';
import type { Viewer } from '../core/viewer';
import { mapDatabaseError } from '../db/database-errors';
import { TENANT_FILTER, type TenantFilterParams } from '../db/orm-options';

/**
 * The one context factory, used by /graphql and by the facades alike, so every interface
 * authenticates, counts requests against the rate limits, forks the EntityManager and scopes to
 * the tenant the same way.
 */
export function createContextFactory(deps: {
  orm: MikroORM;
  config: Config;
  authenticator: RequestAuthenticator;
  limiter: RequestLimiter;
  /** Each account's share of requests in flight and of the heavy-work lane. */
  fairShare: FairShareLimiter;
  /** The process logger, for contexts made outside a request. */
  logger: Logger;
}): ContextFactory {
  return async (credentials, options = {}) => {
    try {
      // Authentication reads a few columns of the user on a fork of its own, so that no partly
      // loaded user sits in the request's identity map. The address is counted meanwhile.
      const [viewer] = await Promise.all([
        deps.authenticator.authenticate(deps.orm.em.fork({ useContext: false }), credentials),
        deps.limiter.countAddress(credentials.address),
      ]);
      // From here on the request's queries take its account's connections (db/connection-lanes.ts).
      enterAccount(viewer.accountId);
      // Its turn among the account's requests in flight, before it costs any more queries.
      if (options.ended) await deps.fairShare.admit(viewer.accountId, options.ended);
      await deps.limiter.countAccount(viewer.accountId);
      return {
        ...contextForViewer(deps.orm, deps.config, viewer, {
          ...options,
          log: options.log ?? currentLogger(deps.logger),
        }),
        heavy: deps.fairShare.heavyWork(viewer.accountId, options.ended),
      };
    } catch (error) {
      // A database that cannot answer is SERVICE_UNAVAILABLE for every transport alike.
      throw error instanceof AppError ? error : (mapDatabaseError(error) ?? error);
    }
  };
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
  };
}

/**
 * The same request with an empty identity map and empty loaders: for an export that runs one
 * operation per page under one authentication, so that no page keeps the rows of the pages before.
 */
export function renewedContext(ctx: RequestContext): RequestContext {
  return { ...ctx, em: tenantFork(ctx.em, ctx.viewer.accountId), loaders: new Loaders() };
}

/** A fork with an empty identity map whose every query the tenant filter scopes to one account. */
function tenantFork(em: EntityManager, accountId: number): EntityManager {
  const fork = em.fork({ clear: true, useContext: false });
  fork.setFilterParams(TENANT_FILTER, { accountId } satisfies TenantFilterParams);
  return fork;
}
