import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';

/**
 * Connections of their own to a PostgreSQL server, for the benchmarks and the test suites alike
 * (the suites import this; the service's pools are elsewhere).
 */

/** Runs `work` on a connection of its own to `url`, closed after it. */
export async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** `server` (the URL of another server, or of a pooler) on the database of `url`. */
export function onDatabaseOf(server: string, url: string): string {
  const result = new URL(server);
  result.pathname = new URL(url).pathname;
  return result.toString();
}

/**
 * Waits until the replica behind `replica` has replayed everything the primary behind `primary`
 * had written when this was called (their WAL positions compared), up to `timeoutMs`.
 */
export async function replayedAll(
  primary: Client,
  replica: Client,
  timeoutMs = 60_000,
): Promise<void> {
  const { rows } = await primary.query<{ lsn: string }>(
    'select pg_current_wal_insert_lsn()::text as lsn',
  );
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const caught = await replica.query<{ done: boolean }>(
      'select pg_last_wal_replay_lsn() >= $1::pg_lsn as done',
      [rows[0]!.lsn],
    );
    if (caught.rows[0]!.done) return;
    if (Date.now() > deadline)
      throw new Error(`the replica did not replay ${rows[0]!.lsn} in ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** replayedAll for each replica in `replicaUrls`, against the primary at `primaryUrl`. */
export async function replicasReplayed(
  primaryUrl: string,
  replicaUrls: readonly string[],
  timeoutMs?: number,
): Promise<void> {
  await withClient(primaryUrl, async (primary) => {
    for (const url of replicaUrls)
      await withClient(url, (replica) => replayedAll(primary, replica, timeoutMs));
  });
}

/**
 * CPU seconds (user + system) a PostgreSQL server's processes have used so far: its postmaster
 * (the first line of `postmaster.pid` in its data directory) and its children, from /proc. null
 * where that cannot be read (not root, another machine).
 */
export function serverCpuSeconds(dataDir: string): number | null {
  try {
    const postmaster = fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0];
    let ticks = 0;
    for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      let stat: string;
      try {
        stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch {
        continue; // ended meanwhile
      }
      // The fields after the command (which may hold spaces) in parentheses.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (pid === postmaster || fields[1] === postmaster)
        ticks += Number(fields[11]) + Number(fields[12]);
    }
    return ticks / 100; // USER_HZ
  } catch {
    return null;
  }
}
