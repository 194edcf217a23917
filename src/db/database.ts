import { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../core/config';
import { installConnectionLanes, type ConnectionLanes } from './connection-lanes';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded/embedded-postgres';
import { ormOptions } from './orm-options';
import { ReadReplicas } from './read-replicas';
import { currentLogger } from '../core/logger';

export interface Database {
  readonly orm: MikroORM;
  /** 'embedded' when this process owns a PGlite child, 'server' for a PostgreSQL server. */
  readonly kind: 'embedded' | 'server';
  /** The pool's connections shared out between accounts (DB_CONNECTIONS_PER_ACCOUNT). */
  readonly lanes: ConnectionLanes;
  /** DATABASE_REPLICA_URLS (checked once the app starts them); undefined without. */
  readonly replicas?: ReadReplicas;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** Run pending migrations before returning (the default). */
  migrate?: boolean;
  /** Tests: an in-memory embedded database instead of the data directory. */
  inMemory?: boolean;
  /**
   * Embedded only: a backup tarball to fill the (empty) data directory with before it starts
   * (`timetrack restore` opens a backup this way, in a directory of its own, to check it); with
   * `inMemory`, the tarball the in-memory database starts from (the tests' migrated template).
   */
  restoreFrom?: string;
}

/**
 * Opens the database the configuration names: a PostgreSQL server for `DATABASE_URL`, otherwise
 * the embedded PostgreSQL in `DATA_DIR`. Both go through the same `pg` driver and migrations.
 */
export async function openDatabase(
  config: Config,
  options: OpenDatabaseOptions = {},
): Promise<Database> {
  let embedded: EmbeddedPostgres | undefined;
  let clientUrl: string;
  let replicas: ReadReplicas | undefined;
  if (config.database.kind === 'server') {
    clientUrl = config.database.url;
  } else {
    embedded = await startEmbeddedPostgres(
      options.inMemory
        ? { memory: true, restoreFrom: options.restoreFrom }
        : { dataDir: config.database.dataDir, restoreFrom: options.restoreFrom },
    );
    clientUrl = embedded.url;
  }
  let orm: MikroORM | undefined;
  try {
    // PGlite serves one connection; its multi-connection mode is unreliable.
    const poolMax = embedded ? 1 : config.db.poolMax;
    const settings = {
      poolMax,
      statementTimeoutMs: config.db.statementTimeoutMs,
      acquireTimeoutMs: config.db.acquireTimeoutMs,
      connectTimeoutMs: config.db.connectTimeoutMs,
    };
    const pooled = config.database.kind === 'server' && config.database.sessionUrl !== undefined;
    orm = await MikroORM.init(ormOptions({ ...settings, clientUrl, pooled }));
    if (options.migrate !== false) await orm.getMigrator().up();
    if (pooled) await warnOfStatementTimeout(orm, config.db.statementTimeoutMs);
    // 0: no cap of its own; the whole pool, still handed out fairly.
    const perAccount = config.db.connectionsPerAccount || poolMax;
    const primary = orm.em.getConnection().getKnex();
    const lanes = installConnectionLanes(primary, {
      poolMax,
      perAccount,
      acquireTimeoutMs: config.db.acquireTimeoutMs,
    });
    if (config.database.kind === 'server' && config.database.replicaUrls.length > 0)
      replicas = await ReadReplicas.open(
        config.database.replicaUrls,
        { ...settings, perAccount },
        config.database.url,
        config.db.replicaMaxLagMs,
      );
    const opened = orm;
    let closed: Promise<void> | undefined;
    return {
      orm,
      kind: embedded ? 'embedded' : 'server',
      lanes,
      replicas,
      close: () =>
        (closed ??= (async () => {
          await replicas?.close();
          await opened.close(true);
          await embedded?.stop();
        })()),
    };
  } catch (error) {
    await orm?.close(true);
    await embedded?.stop();
    throw error;
  }
}

/**
 * Through a pooler the pool sends no `statement_timeout` (the pooler refuses it at connection);
 * the server sessions behind it carry the pooler's `connect_query` or the role's setting
 * (docs/scaling.md). One that differs from DB_STATEMENT_TIMEOUT_MS is told at start.
 */
async function warnOfStatementTimeout(orm: MikroORM, expectedMs: number): Promise<void> {
  const [row] = await orm.em
    .getConnection()
    .execute<{ ms: string }[]>(
      `select setting as ms from pg_settings where name = 'statement_timeout'`,
    );
  if (row && Number(row.ms) !== expectedMs)
    currentLogger().warn(
      `statement_timeout behind DATABASE_URL (a pooler) is ${row.ms} ms, DB_STATEMENT_TIMEOUT_MS ${expectedMs}: set it in the pooler or for the role (docs/scaling.md#a-connection-pooler)`,
    );
}
