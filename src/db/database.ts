import { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../core/config';
import { installConnectionLanes, type ConnectionLanes } from './connection-lanes';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded/embedded-postgres';
import { ormOptions } from './orm-options';

export interface Database {
  readonly orm: MikroORM;
  /** 'embedded' when this process owns a PGlite child, 'server' for a PostgreSQL server. */
  readonly kind: 'embedded' | 'server';
  /** The pool's connections shared out between accounts (DB_CONNECTIONS_PER_ACCOUNT). */
  readonly lanes: ConnectionLanes;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** Run pending migrations before returning (the default). */
  migrate?: boolean;
  /** Tests: an in-memory embedded database instead of the data directory. */
  inMemory?: boolean;
  /**
   * Embedded only: a backup tarball to fill the (empty) data directory with before it starts
   * (`timetrack restore` opens a backup this way, in a directory of its own, to check it).
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
  if (config.database.kind === 'server') {
    clientUrl = config.database.url;
  } else {
    embedded = await startEmbeddedPostgres(
      options.inMemory
        ? 'memory'
        : { dataDir: config.database.dataDir, restoreFrom: options.restoreFrom },
    );
    clientUrl = embedded.url;
  }
  try {
    const orm = await MikroORM.init(
      ormOptions({
        clientUrl,
        // PGlite serves one connection; its multi-connection mode is unreliable.
        poolMax: embedded ? 1 : config.db.poolMax,
        statementTimeoutMs: config.db.statementTimeoutMs,
        acquireTimeoutMs: config.db.acquireTimeoutMs,
        connectTimeoutMs: config.db.connectTimeoutMs,
      }),
    );
    if (options.migrate !== false) await orm.getMigrator().up();
    const poolMax = embedded ? 1 : config.db.poolMax;
    const lanes = installConnectionLanes(orm.em.getConnection().getKnex(), {
      poolMax,
      // 0: no cap of its own; the whole pool, still handed out fairly.
      perAccount: config.db.connectionsPerAccount || poolMax,
      acquireTimeoutMs: config.db.acquireTimeoutMs,
    });
    let closed: Promise<void> | undefined;
    return {
      orm,
      kind: embedded ? 'embedded' : 'server',
      lanes,
      close: () =>
        (closed ??= (async () => {
          await orm.close(true);
          await embedded?.stop();
        })()),
    };
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
}
