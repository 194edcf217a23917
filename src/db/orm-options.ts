import { TENANT_FILTER, type TenantFilterParams } from '../core/request-context';
import { FlushMode, ReflectMetadataProvider, type Options } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { afterCreateFor } from './connection-hooks';
import { ENTITIES, TENANT_ENTITY_NAMES } from './entities';
import { migrations } from './migrations';
import { TenantPostgreSqlDriver } from './tenant-driver';
import { currentLogger } from '../core/logger';

export interface OrmConnectionSettings {
  clientUrl: string;
  poolMax: number;
  statementTimeoutMs: number;
  acquireTimeoutMs: number;
  connectTimeoutMs: number;
  /**
   * `clientUrl` is a pooler in transaction mode: no session settings at connection (the pooler
   * refuses them; the statement timeout is then the pooler's or the role's, docs/scaling.md) and
   * no named prepared statements.
   */
  pooled?: boolean;
  /** A read replica: nothing is checked or created at start; the replica monitor connects. */
  replica?: boolean;
}

export function ormOptions(settings: OrmConnectionSettings): Options<PostgreSqlDriver> {
  return {
    // Its updates and deletes name the row's account (tenant-driver.ts); batched updates, which
    // name rows by their keys alone, are off.
    driver: TenantPostgreSqlDriver,
    useBatchUpdates: false,
    clientUrl: settings.clientUrl,
    ...(settings.replica ? { connect: false, ensureDatabase: false } : {}),
    entities: ENTITIES,
    metadataProvider: ReflectMetadataProvider,
    discovery: { disableDynamicFileAccess: true, requireEntitiesArray: true },
    extensions: [Migrator],
    migrations: {
      migrationsList: migrations,
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
    },
    pool: {
      min: 0,
      max: settings.poolMax,
      acquireTimeoutMillis: settings.acquireTimeoutMs,
      idleTimeoutMillis: 30_000,
      // Forgets prepared statements of earlier connections (PGlite), sends statements unnamed
      // through a pooler, and closes a connection whose query the driver's timer abandoned.
      afterCreate: afterCreateFor({ unnamedStatements: settings.pooled === true }),
    },
    driverOptions: {
      // knex's own messages (a connection lost in an outage) as JSON log lines, with the request's
      // id when one is being served, instead of plain text on stdout.
      log: {
        warn: (message: unknown) => currentLogger().warn({ component: 'knex' }, String(message)),
        error: (message: unknown) => currentLogger().error({ component: 'knex' }, String(message)),
        deprecate: (method: string, alternative: string) =>
          currentLogger().warn(
            { component: 'knex' },
            `${method} is deprecated: use ${alternative}`,
          ),
        debug: (message: unknown) => currentLogger().debug({ component: 'knex' }, String(message)),
      },
      connection: {
        // A session whose process froze or vanished mid-transaction (SIGSTOP, a lost host) would
        // otherwise hold its row locks and an Idempotency-Key's claim until TCP gives up: the
        // server ends a transaction left idle as long as a statement may run.
        ...(settings.pooled
          ? {}
          : {
              statement_timeout: settings.statementTimeoutMs,
              idle_in_transaction_session_timeout: settings.statementTimeoutMs,
              // No JIT: a read compiled to SQL (a page of 400 projects with their totals) is
              // estimated above jit_above_cost and spent 45 ms compiling to run in 20.
              options: '-c jit=off',
            }),
        // The driver's own timer, for when the server cannot even answer the cancel.
        query_timeout: settings.statementTimeoutMs + 5_000,
        connectionTimeoutMillis: settings.connectTimeoutMs,
        // Dead peers are noticed even on an idle connection (first probe after 10 s idle; 0 would
        // keep the system's default of two hours).
        keepAlive: true,
        keepAliveInitialDelayMillis: 10_000,
      },
    },
    filters: {
      [TENANT_FILTER]: {
        name: TENANT_FILTER,
        cond: (args: TenantFilterParams) => ({ account: args.accountId }),
        entity: TENANT_ENTITY_NAMES,
        default: true,
      },
    },
    // References never cross accounts (composite foreign keys), so no join is needed to re-check them.
    autoJoinRefsForFilters: false,
    forceUtcTimezone: true,
    // Writes happen at explicit flushes only: a query must never push half-prepared rows early.
    flushMode: FlushMode.COMMIT,
    allowGlobalContext: false,
    ignoreUndefinedInQuery: true,
    loadStrategy: 'select-in',
    validateRequired: false,
  };
}
