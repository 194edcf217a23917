import { Client } from 'pg';

/** Waits, without a clock, until `condition` holds (each round lets I/O and other tasks run). */
export async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * How many statements of `client`'s database wait on a lock. On a Citus coordinator a statement
 * waits on the worker that holds the row: the cluster's sessions are in citus_stat_activity.
 */
export async function lockWaitCount(client: Client): Promise<number> {
  const sessions = await sessionsView(client);
  const waiting = await client.query<{ n: number }>(
    `select count(*)::int as n from ${sessions} where datname = current_database() and wait_event_type = 'Lock'`,
  );
  return waiting.rows[0]!.n;
}

/** The view of the database's sessions, asked once per client (the count above is polled). */
const sessionViews = new WeakMap<Client, Promise<string>>();
function sessionsView(client: Client): Promise<string> {
  let view = sessionViews.get(client);
  if (!view) {
    view = client
      .query<{ citus: boolean }>(`select to_regclass('citus_stat_activity') is not null as citus`)
      .then(({ rows }) => (rows[0]!.citus ? 'citus_stat_activity' : 'pg_stat_activity'));
    sessionViews.set(client, view);
  }
  return view;
}

/**
 * Runs `work` with a session of its own on a PostgreSQL server (`holder`) to hold rows in a
 * transaction, so that a race can be staged without a clock, and `lockWaiters(n)`, which waits
 * until `n` statements of the database wait on a lock. A transaction the holder left open is
 * rolled back.
 */
export async function withLockHolder(
  databaseUrl: string,
  work: (holder: Client, lockWaiters: (n: number) => Promise<void>) => Promise<void>,
): Promise<void> {
  const holder = new Client({ connectionString: databaseUrl });
  const watcher = new Client({ connectionString: databaseUrl });
  await Promise.all([holder.connect(), watcher.connect()]);
  try {
    await work(holder, (n) => until(async () => (await lockWaitCount(watcher)) === n));
  } finally {
    await holder.query('rollback').catch(() => undefined);
    await Promise.all([holder.end(), watcher.end()]);
  }
}
