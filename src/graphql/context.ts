import type { MikroORM } from '@mikro-orm/postgresql';
import { crossSiteRefusal, originPolicyOf } from '../auth/cross-site-guard';
import type { RequestAuthenticator } from '../auth/request-authenticator';
import type { RequestLimiter } from '../auth/request-limiter';
import type { Config } from '../core/config';
import { AppError } from '../core/errors';
import { Loaders } from '../core/loaders';
import { currentLogger, type Logger } from '../core/logger';
import {
  tenantFork,
  type ContextFactory,
  type RequestContext,
  type RequestOptions,
} from '../core/request-context';
import type { Viewer } from '../core/viewer';
import { mapDatabaseError } from '../db/database-errors';

/**
 * The one context factory, used by /graphql and by the facades alike, so every interface
 * refuses cross-site requests, authenticates, counts requests against the rate limits, forks the
 * EntityManager and scopes to the tenant the same way.
 */
export function createContextFactory(deps: {
  orm: MikroORM;
  config: Config;
  authenticator: RequestAuthenticator;
  limiter: RequestLimiter;
  /** The process logger, for contexts made outside a request. */
  logger: Logger;
}): ContextFactory {
  const originPolicy = originPolicyOf(deps.config);
  return async (credentials, options = {}) => {
    // First: a forged request costs no password check and no database round trip.
    const refusal = crossSiteRefusal(credentials, originPolicy);
    if (refusal) throw refusal;
    try {
      // Authentication reads a few columns of the user on a fork of its own, so that no partly
      // loaded user sits in the request's identity map. The address is counted meanwhile.
      const [viewer] = await Promise.all([
        deps.authenticator.authenticate(deps.orm.em.fork({ useContext: false }), credentials),
        deps.limiter.countAddress(credentials.address),
      ]);
      await deps.limiter.countAccount(viewer.accountId);
      return contextForViewer(deps.orm, deps.config, viewer, {
        ...options,
        log: options.log ?? currentLogger(deps.logger),
      });
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
