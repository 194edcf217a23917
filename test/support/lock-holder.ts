import { Client } from 'pg';

/** Waits, without a clock, until `condition` holds (each round lets I/O and other tasks run). */
export async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setImmediate(resolve));
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
  const waiting = async (n: number) =>
    (
      await watcher.query(
        `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
      )
    ).rows[0].n === n;
  try {
    await work(holder, (n) => until(() => waiting(n)));
  } finally {
    await holder.query('rollback').catch(() => undefined);
    await Promise.all([holder.end(), watcher.end()]);
  }
}
