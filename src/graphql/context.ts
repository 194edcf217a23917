import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { BasicAuthenticator } from '../auth/basic-auth';
import { parseBasicAuthorization } from '../auth/basic-auth';
import type { Viewer } from '../auth/viewer';
import type { Config } from '../config';
import { TENANT_FILTER, type TenantFilterParams } from '../db/orm-options';
import { mapDatabaseError } from '../db/database-errors';
import { AppError, UnauthenticatedError } from '../errors';
import { Loaders } from './loaders';

/** Everything a resolver and a service may use for one request. */
export interface RequestContext {
  /** A fork of the EntityManager for this request only, scoped to the viewer's account. */
  readonly em: EntityManager;
  readonly viewer: Viewer;
  /** The request's instant: live totals of running shifts are computed up to it. */
  readonly now: Date;
  readonly loaders: Loaders;
  readonly config: Config;
}

/** What a transport hands over to authenticate a request. */
export interface RequestCredentials {
  /** The HTTP Authorization header. */
  authorization?: string | undefined;
}

export type ContextFactory = (credentials: RequestCredentials) => Promise<RequestContext>;

/**
 * The one context factory, used by /graphql and by the facades alike, so every interface
 * authenticates, forks the EntityManager and scopes to the tenant the same way.
 */
export function createContextFactory(deps: {
  orm: MikroORM;
  config: Config;
  authenticator: BasicAuthenticator;
}): ContextFactory {
  return async (credentials) => {
    const basic = parseBasicAuthorization(credentials.authorization);
    if (!basic) throw new UnauthenticatedError();
    // The login lookup reads a few columns of the user on a fork of its own, so that no partly
    // loaded user sits in the request's identity map.
    const viewer = await deps.authenticator
      .authenticate(deps.orm.em.fork({ useContext: false }), basic)
      .catch((error: unknown) => {
        // A database that cannot answer is SERVICE_UNAVAILABLE for every transport alike.
        throw error instanceof AppError ? error : (mapDatabaseError(error) ?? error);
      });
    const em = deps.orm.em.fork({ clear: true, useContext: false });
    em.setFilterParams(TENANT_FILTER, { accountId: viewer.accountId } satisfies TenantFilterParams);
    return { em, viewer, now: new Date(), loaders: new Loaders(), config: deps.config };
  };
}
