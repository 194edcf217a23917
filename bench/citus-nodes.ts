import { onDatabaseOf, withClient } from './postgres-clients';

/**
 * Databases on a Citus cluster for the benchmarks and the test suites: a database of the cluster
 * lives on the coordinator and on each worker under one name (Citus connects to a worker's
 * database of the coordinator's database's name), with the extension in each and the workers
 * added on the coordinator.
 */

/**
 * The URLs of the active workers of the Citus coordinator at `url` (on its database, with its
 * user), or none when the server is no coordinator (no Citus, or no worker added).
 */
export async function citusWorkers(url: string): Promise<string[]> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ citus: boolean }>(
      `select exists (select 1 from pg_extension where extname = 'citus') as citus`,
    );
    if (!rows[0]!.citus) return [];
    const workers = await client.query<{ host: string; port: number }>(
      `select node_name as host, node_port as port from citus_get_active_worker_nodes() order by node_port`,
    );
    return workers.rows.map(({ host, port }) => {
      const worker = new URL(url);
      worker.hostname = host;
      worker.port = String(port);
      return worker.toString();
    });
  });
}

/**
 * Creates the database `name` on the coordinator and on every worker. With `template`, each node's
 * copy of its own database of that name (a distributed database copies whole: the coordinator's
 * metadata and the workers' shards keep naming each other); without, new, with the extension and
 * the workers added. With no workers, the database of a plain server.
 */
export async function createClusterDatabase(
  coordinator: string,
  workers: readonly string[],
  name: string,
  template?: string,
): Promise<void> {
  for (const node of [coordinator, ...workers])
    await withClient(node, async (client) => {
      if (template) {
        // Citus's maintenance daemon keeps a connection to each of its databases, and a database
        // copies only while nobody is connected to it; stopped, it starts again seconds later.
        await client.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [template],
        );
      }
      await client.query(`create database ${name}${template ? ` template ${template}` : ''}`);
    });
  if (template || workers.length === 0) return;
  const on = (node: string) => onDatabaseOf(node, `postgres:///${name}`);
  for (const node of [coordinator, ...workers])
    await withClient(on(node), (client) =>
      client.query('set client_min_messages = warning; create extension citus'),
    );
  await withClient(on(coordinator), async (client) => {
    const host = new URL(coordinator);
    await client.query('select citus_set_coordinator_host($1, $2)', [
      host.hostname,
      Number(host.port || 5432),
    ]);
    for (const worker of workers) {
      const node = new URL(worker);
      await client.query('select citus_add_node($1, $2)', [node.hostname, Number(node.port)]);
    }
  });
}

/** Drops the database `name` on the coordinator and on every worker, whoever is connected to it. */
export async function dropClusterDatabase(
  coordinator: string,
  workers: readonly string[],
  name: string,
): Promise<void> {
  for (const node of [coordinator, ...workers])
    await withClient(node, (client) =>
      client.query(`drop database if exists ${name} with (force)`),
    );
}

/** Each node of a cluster, named (`coordinator`, `worker <port>`), with its data directory. */
export async function clusterDataDirs(
  coordinator: string,
  workers: readonly string[],
): Promise<{ node: string; dataDir: string }[]> {
  const nodes = [
    ['coordinator', coordinator],
    ...workers.map((worker) => [`worker ${new URL(worker).port}`, worker]),
  ] as const;
  const found: { node: string; dataDir: string }[] = [];
  for (const [node, url] of nodes)
    found.push({
      node,
      dataDir: await withClient(url, async (client) => {
        const { rows } = await client.query<{ data_directory: string }>('show data_directory');
        return rows[0]!.data_directory;
      }),
    });
  return found;
}
