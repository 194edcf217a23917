import { randomBytes } from 'node:crypto';
import { createClusterDatabase, dropClusterDatabase } from '../../bench/citus-nodes';
import { onDatabaseOf, replicasReplayed } from '../../bench/postgres-clients';

/** Set by test/support/global-setup.ts: the migrated template's tarball (embedded database). */
export const EMBEDDED_TEMPLATE_ENV = 'TIMETRACK_TEST_TEMPLATE_TARBALL';
/** Set by test/support/global-setup.ts: the migrated template database's name (TEST_DATABASE_URL). */
export const SERVER_TEMPLATE_ENV = 'TIMETRACK_TEST_TEMPLATE_DATABASE';
/**
 * Set by test/support/global-setup.ts when TEST_DATABASE_URL names a Citus coordinator: the
 * template of an empty database of the cluster (the extension, the workers added).
 */
export const CITUS_EMPTY_TEMPLATE_ENV = 'TIMETRACK_TEST_CITUS_EMPTY_TEMPLATE';
/** Set with CITUS_EMPTY_TEMPLATE_ENV: the coordinator's workers, their URLs comma-separated. */
export const CITUS_WORKERS_ENV = 'TIMETRACK_TEST_CITUS_WORKERS';

/** The workers of the Citus coordinator the suite runs on (none on a plain server). */
export function testCitusWorkers(): string[] {
  return process.env[CITUS_WORKERS_ENV]?.split(',').filter(Boolean) ?? [];
}

/**
 * Where a test file's database lives. With TEST_DATABASE_URL (CI: a real PostgreSQL server) each
 * file gets a database of its own, dropped afterwards; without it, an in-memory embedded
 * PostgreSQL that dies with the file.
 */
export interface TestDatabaseTarget {
  /** Environment for loadConfig: DATABASE_URL for a server, nothing for embedded. */
  env: Record<string, string>;
  inMemory: boolean;
  /** Embedded: the tarball the in-memory database starts from (openDatabase's restoreFrom). */
  restoreFrom?: string;
  drop(): Promise<void>;
}

export interface TestDatabaseOptions {
  /**
   * `migrated`: a copy of the suite's template, every migration applied (test/support/global-setup.ts
   * made it once per run), so the file skips initdb and the migrations. `empty` (the default): no
   * tables yet, for the tests of migrations themselves. Without the template (a jest run without
   * the global set-up), `migrated` is an empty database that the app migrates as it opens.
   */
  schema?: 'empty' | 'migrated';
}

export async function createTestDatabaseTarget(
  options: TestDatabaseOptions = {},
): Promise<TestDatabaseTarget> {
  const migrated = options.schema === 'migrated';
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const template = migrated ? process.env[EMBEDDED_TEMPLATE_ENV] : undefined;
    return {
      env: {},
      inMemory: true,
      ...(template ? { restoreFrom: template } : {}),
      drop: async () => {},
    };
  }
  const name = `timetrack_test_${randomBytes(6).toString('hex')}`;
  // On a Citus coordinator the database is the cluster's, on every node, distributed as
  // `timetrack migrate --distribute` leaves it; an empty one has the extension and the workers.
  const workers = testCitusWorkers();
  const template = migrated
    ? process.env[SERVER_TEMPLATE_ENV]
    : process.env[CITUS_EMPTY_TEMPLATE_ENV];
  // A copy of a migrated database is a file copy on the server; running the migrations is not.
  await createClusterDatabase(serverUrl, workers, name, template);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    inMemory: false,
    drop: () => dropClusterDatabase(serverUrl, workers, name),
  };
}

/** The environment of a set-up of the service on a test file's database (its direct URL). */
export type ServerSetup = [name: string, env: (direct: string) => NodeJS.ProcessEnv];

/**
 * The set-ups a multi-process test runs on: the PostgreSQL server directly, and, where
 * `.ci/replica-and-pooler` started them (TEST_POOLER_URL, TEST_REPLICA_URL), through PgBouncer in
 * transaction mode with the LISTEN connection on the direct URL and a streaming replica for the
 * reads that may lag (issue 24). None without TEST_DATABASE_URL.
 */
export function serverSetups(): ServerSetup[] {
  if (!process.env.TEST_DATABASE_URL) return [];
  const setups: ServerSetup[] = [
    ['on a PostgreSQL server', (direct) => ({ DATABASE_URL: direct })],
  ];
  const { TEST_POOLER_URL: pooler, TEST_REPLICA_URL: replica } = process.env;
  if (pooler && replica)
    setups.push([
      'through PgBouncer (transaction mode) with a streaming replica',
      (direct) => behindPooler(direct, pooler, replica),
    ]);
  return setups;
}

/**
 * The service's settings for the database of `direct` through the pooler at `pooler`, its LISTEN
 * connection on `direct`, and with `replica` (another server's URL) its streaming replica.
 */
export function behindPooler(
  direct: string,
  pooler: string,
  replica?: string,
): Record<string, string> {
  return {
    DATABASE_URL: onDatabaseOf(pooler, direct),
    DATABASE_SESSION_URL: direct,
    ...(replica ? { DATABASE_REPLICA_URLS: onDatabaseOf(replica, direct) } : {}),
  };
}

/** With DATABASE_REPLICA_URLS in `env`: replicasReplayed for them, against `direct`'s primary. */
export async function replicasCaughtUp(env: NodeJS.ProcessEnv, direct: string): Promise<void> {
  if (env.DATABASE_REPLICA_URLS)
    await replicasReplayed(direct, env.DATABASE_REPLICA_URLS.split(','));
}
