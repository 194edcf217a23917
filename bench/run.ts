import 'reflect-metadata';
import { fork } from 'node:child_process';
import fs from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { Client } from 'pg';
import { createApp, type App } from '../src/http/app';
import { loadConfig } from '../src/core/config';
import { distributeSchema } from '../src/db/citus-distribution';
import { openDatabase, type Database } from '../src/db/database';
import {
  loadDataset,
  scaledSize,
  type DatasetManifest,
  datasetDatabase,
  datasetTag,
} from './dataset';
import {
  citusWorkers,
  clusterDataDirs,
  createClusterDatabase,
  dropClusterDatabase,
} from './citus-nodes';
import type { LoadResult, LoadSpec } from './load';
import { serverCpuSeconds } from './postgres-clients';
import { writeReport, type Measurement, type NestedPlan, type RunInfo } from './report';
import {
  nodeVersion,
  quiesce,
  ROOT,
  SERVICE,
  SERVICE_NODE_FLAGS,
  startTarget,
  treeRssMb,
  type Target,
} from './targets';

/**
 * `npm run bench`: loads the dataset (once per scale; reused after), starts the service on
 * PostgreSQL (on this Node, on Node 20, and with two workers) and on the embedded database, the
 * hand-written floor and PostGraphile 4, drives each scenario with autocannon in a separate
 * process at each concurrency, and writes the report.
 */
const program = new Command('bench')
  .option('--scale <n>', 'dataset size against the reference (1 = 1,000,000 shifts)', '1')
  .option('--duration <s>', 'seconds per measured run', '10')
  .option('--connections <list>', 'concurrencies', '1,16,64')
  .option(
    '--admin-url <url>',
    'a PostgreSQL server (the database is created on it)',
    process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  )
  .option(
    '--citus-url <url>',
    'a Citus coordinator with its workers added, for a target on the cluster (scenarios a, c, e, r)',
    process.env.BENCH_CITUS_URL,
  )
  .option('--no-embedded', 'skip the service on the embedded database')
  .option('--no-peers', 'skip the floor and PostGraphile')
  .option(
    '--node20 <path>',
    'a Node 20 binary for a second service target (skipped when it is not Node 20)',
    '/usr/bin/node',
  )
  .option('--only <scenarios>', 'comma-separated scenario ids (a,b,c,da,db,e,f,n,r,rm,w)');

const log = (line: string) => process.stdout.write(`${line}\n`);

/** The built service; plain JS, so it runs on Node 20 as well as on the runner's Node. */

/** One request of a scenario, relative to a target's address. */
type RequestSpec = Omit<LoadSpec, 'url' | 'connections' | 'durationSeconds'> & {
  readonly path: string;
};

interface Scenario {
  readonly id: string;
  readonly title: string;
  /** The request for one kind of target; undefined when that target does not serve the scenario. */
  spec(target: TargetKind): RequestSpec | undefined;
}

type TargetKind = 'service' | 'embedded' | 'floor' | 'postgraphile';

/** A started target: `kind` says which requests it answers, `variant` names its rows in the report. */
interface RunTarget {
  readonly kind: TargetKind;
  readonly variant: string;
  readonly target: Target;
  /** Only these scenarios (all it answers when absent). */
  readonly scenarios?: readonly string[];
}

async function main(): Promise<void> {
  const options = program.parse().opts<{
    scale: string;
    duration: string;
    connections: string;
    adminUrl: string;
    citusUrl?: string;
    embedded: boolean;
    peers: boolean;
    node20: string;
    only?: string;
  }>();
  const scale = Number(options.scale);
  const size = scaledSize(scale);
  const tag = datasetTag(scale);
  const started = new Date();

  const server = await ensureServerDataset(options.adminUrl, datasetDatabase(scale), size);
  const citusWorkerUrls = options.citusUrl ? await citusWorkers(options.citusUrl) : [];
  // The same dataset distributed on the cluster, and where each node's PostgreSQL keeps its files
  // (for the CPU seconds of its processes).
  const citus =
    citusWorkerUrls.length > 0
      ? {
          ...(await ensureServerDataset(
            options.citusUrl!,
            datasetDatabase(scale),
            size,
            citusWorkerUrls,
          )),
          nodes: await clusterDataDirs(options.citusUrl!, citusWorkerUrls),
        }
      : undefined;
  const embedded = options.embedded
    ? await ensureEmbeddedDataset(path.join(ROOT, 'bench', '.data', `embedded-${tag}`), size)
    : undefined;
  const manifest = server.manifest;
  const basic = (login: string) =>
    `Basic ${Buffer.from(`${login}:${manifest.password}`).toString('base64')}`;
  const owner = basic(manifest.ownerLogin);
  const where = `start > "${manifest.window.from}" && start < "${manifest.window.to}"`;
  const ids = await datasetIds(server.url);
  if (options.peers) await installPeerFunctions(server.url);

  const queries = operationTexts();
  const all: Scenario[] = [
    {
      id: 'a',
      title: `JSON shifts in a window (${manifest.window.shifts} shifts)`,
      spec: (kind: TargetKind) =>
        kind === 'postgraphile'
          ? undefined
          : {
              path: `/api/1/shifts.json?where=${encodeURIComponent(where)}`,
              headers: { authorization: owner },
            },
    },
    {
      id: 'b',
      title: `JSON project list (${size.projects} projects with activities and totals)`,
      spec: (kind: TargetKind) =>
        kind === 'postgraphile'
          ? undefined
          : { path: '/api/1/projects.json', headers: { authorization: owner } },
    },
    {
      id: 'c',
      title: 'GraphQL companies → projects → activities with totals',
      spec: (kind: TargetKind) =>
        kind === 'floor'
          ? undefined
          : kind === 'postgraphile'
            ? graphqlSpec('/graphql', ids.postgraphileQuery, {}, {})
            : graphqlSpec('/graphql', DASHBOARD_QUERY, {}, { authorization: owner }),
    },
    {
      id: 'da',
      title: '(a) through direct GraphQL: the facade operation ListShifts',
      spec: (kind: TargetKind) =>
        kind === 'service'
          ? graphqlSpec(
              '/graphql',
              queries.ListShifts,
              {
                filter: { start: { gt: manifest.window.from, lt: manifest.window.to } },
                first: 5000,
              },
              { authorization: owner },
            )
          : undefined,
    },
    {
      id: 'db',
      title: '(b) through direct GraphQL: the facade operation ListProjects',
      spec: (kind: TargetKind) =>
        kind === 'service'
          ? graphqlSpec('/graphql', queries.ListProjects, { first: 5000 }, { authorization: owner })
          : undefined,
    },
    {
      id: 'n',
      title: 'GraphQL nested pages: 20 companies → 5 projects each → 10 shifts each',
      spec: (kind: TargetKind) =>
        kind === 'service'
          ? graphqlSpec('/graphql', NESTED_QUERY, {}, { authorization: owner })
          : undefined,
    },
    {
      id: 'f',
      title: `XML shift list of one project (/project/:id/shifts.xml, ~${Math.round(size.shifts / size.projects)} shifts)`,
      spec: (kind: TargetKind) =>
        kind === 'service'
          ? { path: `/project/${ids.xmlProjectId}/shifts.xml`, headers: { authorization: owner } }
          : undefined,
    },
    {
      id: 'r',
      title: 'GraphQL report: one year grouped by project and month (Europe/Berlin), 4,800 rows',
      spec: (kind: TargetKind) =>
        kind === 'service'
          ? graphqlSpec('/graphql', REPORT_QUERY, REPORT_VARIABLES, { authorization: owner })
          : undefined,
    },
    {
      id: 'rm',
      title:
        '(r) asked by a manager: the projects they see (all 400 are PUBLIC) and their own time',
      spec: (kind: TargetKind) =>
        kind === 'service'
          ? graphqlSpec('/graphql', REPORT_QUERY, REPORT_VARIABLES, {
              // The dataset's first five staff are managers.
              authorization: basic(manifest.staffLogins[0]!),
            })
          : undefined,
    },
    {
      id: 'w',
      title: 'GraphQL report: one week grouped by user and day (Asia/Kolkata, +05:30), 350 rows',
      spec: (kind: TargetKind) =>
        kind === 'service'
          ? graphqlSpec('/graphql', REPORT_QUERY, WEEK_REPORT_VARIABLES, { authorization: owner })
          : undefined,
    },
    {
      id: 'e',
      title: `punch in / punch out across ${manifest.staffLogins.length} users (JSON)`,
      spec: (kind: TargetKind) =>
        kind === 'service'
          ? {
              path: '/',
              punches: manifest.staffLogins.map((login, i) => ({
                authorization: basic(login),
                projectUuid: ids.projectUuids[i % ids.projectUuids.length]!,
              })),
            }
          : undefined,
    },
  ];
  const scenarios = all.filter((s) => !options.only || options.only.split(',').includes(s.id));

  const targets: RunTarget[] = [];
  // Targets that could not run, said in the report instead of failing the run.
  const notes: string[] = [];
  const here = `Node ${process.versions.node}`;
  const node20 = nodeVersion(options.node20);
  try {
    const serve = (name: string, env: Record<string, string>, node?: string) =>
      startTarget(name, SERVICE, () => ['serve'], env, node);
    targets.push({
      kind: 'service',
      variant: 'service',
      target: await serve(`service (PostgreSQL, ${here})`, { DATABASE_URL: server.url }),
    });
    if (process.versions.node.startsWith('20.')) {
      notes.push('No separate Node 20 target: the runner and its targets already run on Node 20.');
    } else if (node20?.startsWith('v20.')) {
      const name = `service (PostgreSQL, Node ${node20.slice(1)})`;
      try {
        const target = await serve(name, { DATABASE_URL: server.url }, options.node20);
        targets.push({
          kind: 'service',
          variant: 'service-node20',
          scenarios: ['a', 'b', 'c', 'n'],
          target,
        });
      } catch (error) {
        // Native addons built for newer Node versions can keep the service from starting there.
        notes.push(`${name} did not start: ${firstLines(error)}.`);
      }
    } else {
      notes.push(
        `No Node 20 target: ${options.node20} is ${node20 ?? 'no node binary'} (\`--node20 <path>\` names one).`,
      );
    }
    // The reports again with the rollups off: the aggregate over the shifts, side by side.
    targets.push({
      kind: 'service',
      variant: 'service-direct',
      scenarios: ['r', 'w'],
      target: await serve(`service (PostgreSQL, ${here}, REPORT_ROLLUPS=false)`, {
        DATABASE_URL: server.url,
        REPORT_ROLLUPS: 'false',
      }),
    });
    if (citus)
      targets.push({
        kind: 'service',
        variant: 'service-citus',
        scenarios: ['a', 'c', 'e', 'r'],
        target: await serve(`service (Citus, ${citusWorkerUrls.length} workers, ${here})`, {
          DATABASE_URL: citus.url,
        }),
      });
    else if (options.citusUrl)
      notes.push(`No Citus target: ${options.citusUrl} is no coordinator with workers added.`);
    const workers = await startWorkers(`service (PostgreSQL, ${here}, 2 workers)`, server.url);
    if (typeof workers === 'string') notes.push(`No 2-worker target: ${workers}.`);
    else
      targets.push({
        kind: 'service',
        variant: 'service-workers',
        scenarios: ['a', 'e'],
        target: workers,
      });
    if (embedded) {
      targets.push({
        kind: 'embedded',
        variant: 'embedded',
        scenarios: ['a', 'b', 'c'],
        target: await serve(`service (embedded, ${here})`, { DATA_DIR: embedded.dataDir }),
      });
    }
    if (options.peers) {
      targets.push({
        kind: 'floor',
        variant: 'floor',
        target: await startTarget(
          `floor (pg + http, ${here})`,
          path.join(ROOT, 'dist', 'bench', 'floor.js'),
          () => [],
          { DATABASE_URL: server.url },
        ),
      });
      targets.push({
        kind: 'postgraphile',
        variant: 'postgraphile',
        target: await startPostGraphile(server.url, here),
      });
    }
    const checks = await sameAnswers(targets, scenarios);
    const sql = await statementsPerRequest(server.url, scenarios);
    const statements = Object.fromEntries(
      Object.entries(sql).map(([id, list]) => [id, list.length]),
    );
    const nested = sql.n && (await explainShiftPages(server.url, sql.n));
    const authShare = await basicAuthMicros(server.url, manifest);

    const measurements: Measurement[] = [];
    for (const scenario of scenarios) {
      for (const { kind, variant, target, scenarios: only } of targets) {
        if (only && !only.includes(scenario.id)) continue;
        const spec = scenario.spec(kind);
        if (!spec) continue;
        for (const connections of options.connections.split(',').map(Number)) {
          const { path: requestPath, ...rest } = spec;
          // On the cluster, the CPU seconds each node's PostgreSQL spent on the measurement.
          const nodes = variant === 'service-citus' ? citus!.nodes : [];
          const cpuBefore = nodes.map(({ dataDir }) => serverCpuSeconds(dataDir));
          const result = await measure(target, {
            ...rest,
            url: `${target.url}${requestPath}`,
            connections,
            durationSeconds: Number(options.duration),
          });
          const cpuAfter = nodes.map(({ dataDir }) => serverCpuSeconds(dataDir));
          const row: Measurement = {
            scenario: scenario.id,
            target: target.name,
            kind: variant,
            connections,
            ...result,
            statements: kind === 'service' ? statements[scenario.id] : undefined,
            ...(nodes.length > 0
              ? {
                  nodeCpuSeconds: Object.fromEntries(
                    nodes.map(({ node }, i) => [
                      node,
                      cpuBefore[i] === null || cpuAfter[i] === null
                        ? null
                        : cpuAfter[i]! - cpuBefore[i]!,
                    ]),
                  ),
                }
              : {}),
          };
          measurements.push(row);
          log(
            `${scenario.id.padEnd(3)} ${target.name.padEnd(44)} c=${String(connections).padEnd(3)} ${result.requestsPerSecond.toFixed(1).padStart(8)} req/s  p50 ${result.latencyP50} ms  p99 ${result.latencyP99} ms  rss ${result.rssMb.toFixed(0)} MB${result.non2xx ? `  non-2xx ${result.non2xx}` : ''}`,
          );
        }
      }
    }
    const info: RunInfo = {
      started,
      finished: new Date(),
      machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${await serverVersion(server.url)}`,
      nodes: `the runner and its targets on ${here} (${process.execPath}), the service with \`npm start\`'s flags (${SERVICE_NODE_FLAGS.join(' ')}); ${targets.some((t) => t.variant === 'service-node20') ? `the second service target on Node ${node20!.slice(1)} (${options.node20})` : 'no Node 20 target (see the notes)'}`,
      notes,
      size,
      manifest,
      embeddedLoadSeconds: embedded?.manifest.loadSeconds,
      durationSeconds: Number(options.duration),
      scenarios: scenarios.map((s) => ({ id: s.id, title: s.title })),
      checks,
      statements,
      nested,
      authShare,
    };
    const file = writeReport(path.join(ROOT, 'bench', 'results'), info, measurements);
    log(`\nreport: ${path.relative(ROOT, file)}`);
  } finally {
    for (const { target } of targets.reverse()) await target.stop();
  }
}

/** The GraphQL query of scenario (c) on the service. */
// Pages sized to the dataset (20 companies of about 20 projects): pages of 1,000 in pages of
// 1,000 would ask for more objects than GRAPHQL_MAX_COST allows.
export const DASHBOARD_QUERY = `query Dashboard { companies(first: 50) { nodes { id name projects(first: 100) { nodes { id name grandTotal activities { id name } } } } } }`;

/** Scenario (n): pages in pages, each nested list read a page per parent (no totalCount). */
export const NESTED_QUERY = `query Nested { companies(first: 20) { nodes { name projects(first: 5) { nodes { name shifts(first: 10) { nodes { id start stop } } } } } } }`;

/**
 * Scenario (r): the last year of the dataset (it ends 2026-01-01) by project and month, 400 × 12
 * rows, with names, money and totals. One aggregate statement over about a third of the shifts.
 */
export const REPORT_QUERY = `query Report($input: ReportInput!) { report(input: $input, first: 5000) { totalCount totals { seconds billableSeconds amountCents } rows { project { id: nodeId name } bucketStart seconds billableSeconds amountCents } } }`;
export const REPORT_VARIABLES = {
  input: {
    from: '2024-12-31T23:00:00Z',
    to: '2025-12-31T23:00:00Z',
    timeZone: 'Europe/Berlin',
    groupBy: ['PROJECT'],
    bucket: 'MONTH',
  },
};
/** Scenario (w): the last full week of the dataset in India (midnight at 18:30 UTC) by user and day. */
export const WEEK_REPORT_VARIABLES = {
  input: {
    fromDate: '2025-12-22',
    toDate: '2025-12-29',
    timeZone: 'Asia/Kolkata',
    groupBy: ['USER'],
    bucket: 'DAY',
  },
};

export function graphqlSpec(
  requestPath: string,
  query: string,
  variables: object,
  headers: Record<string, string>,
) {
  return {
    path: requestPath,
    method: 'POST' as const,
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  };
}

/** The facade's operations, as the facade itself sends them (with their fragments). */
function operationTexts(): Record<string, string> {
  const dir = path.join(ROOT, 'rest-facade', 'operations');
  const all = fs
    .readdirSync(dir)
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
    .join('\n');
  const fragments = new Map(
    [...all.matchAll(/fragment (\w+) on \w+ \{/g)].map((m) => [m[1]!, block(all, m.index!)]),
  );
  const withFragments = (text: string): string => {
    const used = new Set<string>();
    const visit = (t: string) => {
      for (const m of t.matchAll(/\.\.\.(\w+)/g)) {
        if (used.has(m[1]!)) continue;
        used.add(m[1]!);
        visit(fragments.get(m[1]!) ?? '');
      }
    };
    visit(text);
    return [text, ...[...used].map((name) => fragments.get(name)!)].join('\n');
  };
  const operation = (name: string) => withFragments(block(all, all.indexOf(`query ${name}(`)));
  return { ListShifts: operation('ListShifts'), ListProjects: operation('ListProjects') };
}

/** The text of the `{ … }` block that starts at `from`, braces balanced. */
function block(text: string, from: number): string {
  let depth = 0;
  for (let i = text.indexOf('{', from); i < text.length; i++) {
    if (text[i] === '{') depth++;
    if (text[i] === '}' && --depth === 0) return text.slice(from, i + 1);
  }
  throw new Error('unbalanced operation text');
}

export async function measure(
  target: Target,
  spec: LoadSpec,
): Promise<LoadResult & { rssMb: number }> {
  await quiesce(target.pid);
  let rssMb = treeRssMb(target.pid);
  const sampler = setInterval(() => (rssMb = Math.max(rssMb, treeRssMb(target.pid))), 250);
  try {
    const worker = fork(path.join(__dirname, 'load.js'), [], { stdio: 'inherit' });
    const result = await new Promise<LoadResult>((resolve, reject) => {
      worker.once('message', (message) => resolve(message as LoadResult));
      worker.once(
        'exit',
        (code) => code !== 0 && reject(new Error(`load generator exited with ${code}`)),
      );
      worker.send(spec);
    });
    return { ...result, rssMb };
  } finally {
    clearInterval(sampler);
  }
}

/** Compared key by key: a manifest read back from jsonb has its keys in another order. */
function sameSize(a: ReturnType<typeof scaledSize>, b: ReturnType<typeof scaledSize>): boolean {
  const keys = Object.keys(b) as (keyof typeof b)[];
  return Object.keys(a).length === keys.length && keys.every((key) => a[key] === b[key]);
}

/**
 * The dataset in the database `name` of the server at `adminUrl`, loaded unless a load of this
 * size is there. With `workers`, `adminUrl` is a Citus coordinator: the database is the cluster's,
 * distributed (`timetrack migrate --distribute`'s step) before the load.
 */
export async function ensureServerDataset(
  adminUrl: string,
  name: string,
  size: ReturnType<typeof scaledSize>,
  workers: readonly string[] = [],
): Promise<{ url: string; manifest: DatasetManifest }> {
  const url = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    if ((await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount) {
      const db = new Client({ connectionString: url });
      await db.connect();
      const found = await db
        .query<{ doc: DatasetManifest }>('select doc from bench_manifest')
        .catch(() => undefined);
      await db.end();
      const manifest = found?.rows[0]?.doc;
      if (manifest && sameSize(manifest.size, size)) {
        log(`dataset: reusing ${name} (loaded in ${manifest.loadSeconds.toFixed(1)} s)`);
        return { url, manifest };
      }
    }
    log(`dataset: loading ${size.shifts.toLocaleString('en')} shifts into ${name}`);
  } finally {
    await admin.end();
  }
  await dropClusterDatabase(adminUrl, workers, name);
  await createClusterDatabase(adminUrl, workers, name);
  const db = await openDatabase(loadConfig({ DATABASE_URL: url }));
  if (workers.length > 0) await distributeSchema(url);
  try {
    const manifest = await loadDataset(db.orm, size, (line) => log(`  ${line}`));
    await db.orm.em.getConnection().execute(`create table bench_manifest (doc jsonb not null)`);
    await db.orm.em
      .getConnection()
      .execute(`insert into bench_manifest values (?)`, [JSON.stringify(manifest)]);
    log(`dataset: loaded in ${manifest.loadSeconds.toFixed(1)} s`);
    return { url, manifest };
  } finally {
    await db.close();
  }
}

export async function ensureEmbeddedDataset(
  dataDir: string,
  size: ReturnType<typeof scaledSize>,
): Promise<{ dataDir: string; manifest: DatasetManifest }> {
  const file = path.join(dataDir, 'bench-manifest.json');
  if (fs.existsSync(file)) {
    const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as DatasetManifest;
    if (sameSize(manifest.size, size)) return { dataDir, manifest };
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  log(
    `dataset: loading ${size.shifts.toLocaleString('en')} shifts into the embedded database (${path.relative(ROOT, dataDir)})`,
  );
  const db = await openDatabase(loadConfig({ DATA_DIR: dataDir }));
  try {
    const manifest = await loadDataset(db.orm, size, (line) => log(`  ${line}`));
    fs.writeFileSync(file, JSON.stringify(manifest));
    log(`dataset: loaded in ${manifest.loadSeconds.toFixed(1)} s (embedded)`);
    return { dataDir, manifest };
  } finally {
    await db.close();
  }
}

/** Ids the scenarios address, and scenario (c) in PostGraphile's names (composite foreign keys name its relations). */
export async function datasetIds(url: string) {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    const projects = await db.query<{ id: number; uuid: string }>(
      'select id, uuid from projects order by id',
    );
    return {
      projectUuids: projects.rows.map((p) => p.uuid),
      projectIds: projects.rows.map((p) => p.id),
      xmlProjectId: projects.rows[0]!.id,
      postgraphileQuery: `{ allCompanies { nodes { uuid name projectsByAccountIdAndCompanyId { nodes { uuid name grandTotal activitiesByAccountIdAndProjectId { nodes { uuid name } } } } } } }`,
    };
  } finally {
    await db.end();
  }
}

/**
 * PostGraphile exposes SQL functions on a table's rows as computed fields: `projects_grand_total`
 * becomes `Project.grandTotal`, computed the way the service computes it (kept sums plus running shifts).
 */
async function installPeerFunctions(url: string): Promise<void> {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    await db.query(`
      create or replace function projects_grand_total(p projects) returns bigint language sql stable as $$
        select coalesce(sum(seconds), 0)::bigint from (
          select stopped_seconds as seconds from project_user_totals where project_id = p.id
          union all
          select extract(epoch from (now() - start)) from shifts where project_id = p.id and stop is null) parts
      $$`);
  } finally {
    await db.end();
  }
}

async function startPostGraphile(url: string, node: string): Promise<Target> {
  const peer = path.join(ROOT, 'bench', 'peers', 'postgraphile');
  if (!fs.existsSync(path.join(peer, 'node_modules', 'postgraphile'))) {
    log('installing PostGraphile 4 into bench/peers/postgraphile');
    const { execFileSync } = await import('node:child_process');
    execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: peer, stdio: 'inherit' });
  }
  const cli = require.resolve('postgraphile/build/postgraphile/cli.js', { paths: [peer] });
  return startTarget(
    `PostGraphile 4 (${node})`,
    cli,
    (port) => [
      '--connection',
      url,
      '--schema',
      'public',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--disable-query-log',
    ],
    {},
  );
}

/** A start's error on one line, for a note in the report. */
function firstLines(error: unknown): string {
  return String(error).split('\n').slice(0, 3).join(' ').trim().replace(/:$/, '');
}

/**
 * The service with WORKERS=2 (`serve --workers`, PostgreSQL only), else as the first target. A
 * build without workers ignores WORKERS and serves alone, which must not pass for two workers: the
 * target counts only when its start announced them (`… with 2 workers`). Returns why not otherwise.
 */
async function startWorkers(name: string, url: string): Promise<Target | string> {
  let target: Target;
  try {
    target = await startTarget(name, SERVICE, () => ['serve'], { DATABASE_URL: url, WORKERS: '2' });
  } catch (error) {
    return `it did not start with WORKERS=2 (${firstLines(error)})`;
  }
  // The primary announces once every worker serves, which can be a moment after the port answers.
  const announced = () => /\bworkers\b/.test(target.output());
  for (const deadline = Date.now() + 10_000; !announced() && Date.now() < deadline;)
    await new Promise((r) => setTimeout(r, 250));
  if (announced()) return target;
  await target.stop();
  return 'its start did not mention workers, so this build ignores WORKERS (no `serve --workers` yet)';
}

/** Every target of a scenario must give the same answer, or the comparison means nothing. */
async function sameAnswers(targets: RunTarget[], scenarios: Scenario[]): Promise<string[]> {
  const checks: string[] = [];
  const service = targets[0]!;
  for (const scenario of scenarios.filter((s) => ['a', 'b', 'r', 'w'].includes(s.id))) {
    const answer = async (kind: TargetKind, base: string) => {
      const spec = scenario.spec(kind);
      if (!spec) return undefined;
      const text = await (
        await fetch(`${base}${spec.path}`, {
          method: spec.method ?? 'GET',
          headers: spec.headers ?? {},
          body: spec.body,
        })
      ).text();
      // A GraphQL answer's extensions carry the caller's rate-limit budget, which every request
      // spends: the data must be the same.
      return spec.method === 'POST' ? JSON.stringify(JSON.parse(text).data) : text;
    };
    const reference = await answer('service', service.target.url);
    const serving = targets.filter(
      (t) => t !== service && (!t.scenarios || t.scenarios.includes(scenario.id)),
    );
    for (const { kind, target } of serving) {
      const other = await answer(kind, target.url);
      if (other === undefined) continue;
      checks.push(
        `(${scenario.id}) ${target.name}: ${other === reference ? `byte-identical JSON${scenario.spec('service')?.method === 'POST' ? ' data' : ''}` : `DIFFERENT JSON (${other.length} vs ${reference!.length} bytes)`}`,
      );
    }
  }
  return checks;
}

/** Runs `work` against the service built in-process on the bench database (not under load). */
async function withInProcessApp<T>(
  url: string,
  env: Record<string, string>,
  work: (app: App, db: Database) => Promise<T>,
): Promise<T> {
  // No access lines among the report's output.
  const config = loadConfig({
    DATABASE_URL: url,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    ...env,
  });
  const db = await openDatabase(config);
  const app = await createApp({ orm: db.orm, config });
  try {
    return await work(app, db);
  } finally {
    await app.stop();
    await db.close();
  }
}

/** A statement as the knex `query` event gives it. */
interface Statement {
  readonly sql: string;
  readonly bindings: readonly unknown[];
}

/** SQL statements of one request per scenario, caught in-process on the same database. */
function statementsPerRequest(
  url: string,
  scenarios: Scenario[],
): Promise<Record<string, Statement[]>> {
  return withInProcessApp(url, { DB_POOL_MAX: '1' }, async (app, db) => {
    const http = createServer(app.express).listen(0, '127.0.0.1');
    await new Promise((r) => http.once('listening', r));
    const base = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
    const seen: Statement[] = [];
    db.orm.em
      .getConnection()
      .getKnex()
      .on('query', ({ sql, bindings }: Statement) => seen.push({ sql, bindings: bindings ?? [] }));
    const statements: Record<string, Statement[]> = {};
    try {
      for (const scenario of scenarios.filter((s) => s.id !== 'e')) {
        const spec = scenario.spec('service');
        if (!spec) continue;
        const send = () =>
          fetch(`${base}${spec.path}`, {
            method: spec.method ?? 'GET',
            headers: spec.headers ?? {},
            ...(spec.body ? { body: spec.body } : {}),
          }).then((r) => r.text());
        await send();
        const before = seen.length;
        await send();
        statements[scenario.id] = seen.slice(before);
      }
    } finally {
      http.close();
    }
    return statements;
  });
}

/**
 * Scenario (n): the statement that reads the shifts, run again under EXPLAIN ANALYZE, with the
 * rows its scans of shifts read against the rows it returns. A page per parent reads at most
 * first + 1 rows per parent; a plan that sorts or scans a parent's every shift reads far more.
 */
async function explainShiftPages(url: string, statements: Statement[]): Promise<NestedPlan> {
  const shifts = statements.find((s) => /from "shifts"/.test(s.sql));
  const all = statements.map((s) => ({ sql: s.sql, bindings: [...s.bindings] }));
  if (!shifts) return { statements: all, warnings: ['no statement of the request reads shifts'] };
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    const { rows } = await db.query<{ 'QUERY PLAN': string }>(
      `explain (analyze, format text) ${shifts.sql}`,
      [...shifts.bindings],
    );
    const plan = rows.map((r) => r['QUERY PLAN']);
    return { statements: all, shiftStatement: shifts.sql, plan, ...shiftReads(plan) };
  } finally {
    await db.end();
  }
}

/** Reads a text plan: Σ (actual rows + rows removed) × loops over the scans of shifts. */
export function shiftReads(plan: string[]) {
  // One chunk per plan node: its line and the detail lines under it.
  const nodes = plan.join('\n').split(/\n(?=\s*->)/);
  const actual = (node: string) => {
    const m = /actual time=\S+ rows=(\d+) loops=(\d+)/.exec(node);
    return { rows: Number(m?.[1] ?? NaN), loops: Number(m?.[2] ?? NaN) };
  };
  const top = actual(nodes[0]!);
  let rowsRead = 0;
  let maxRowsPerLoop = 0;
  const warnings: string[] = [];
  for (const node of nodes) {
    const head = node.split('\n')[0]!;
    const { rows, loops } = actual(node);
    if (/^\s*(->\s*)?Sort\b/.test(head)) warnings.push(`a Sort: ${head.trim()}`);
    if (!/Scan\b.* on shifts\b/.test(head)) continue;
    if (/Seq Scan/.test(head)) warnings.push(`a Seq Scan on shifts: ${head.trim()}`);
    const removed = [...node.matchAll(/Rows Removed by [\w ]+: (\d+)/g)].reduce(
      (sum, m) => sum + Number(m[1]),
      0,
    );
    rowsRead += (rows + removed) * loops;
    maxRowsPerLoop = Math.max(maxRowsPerLoop, rows + removed);
  }
  return { rowsRead, rowsReturned: top.rows * top.loops, maxRowsPerLoop, warnings };
}

/** The cost of one cached Basic authentication (context creation), in microseconds. */
function basicAuthMicros(url: string, manifest: DatasetManifest): Promise<number> {
  return withInProcessApp(url, {}, async (app) => {
    const credentials = {
      authorization: `Basic ${Buffer.from(`${manifest.ownerLogin}:${manifest.password}`).toString('base64')}`,
      method: 'GET',
      url: '/api/1/shifts.json',
      host: 'localhost',
      protocol: 'http' as const,
      address: '127.0.0.1',
    };
    await app.createContext(credentials);
    const n = 2000;
    const started = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await app.createContext(credentials);
    return Number(process.hrtime.bigint() - started) / 1000 / n;
  });
}

export async function serverVersion(url: string): Promise<string> {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    return `PostgreSQL ${(await db.query<{ server_version: string }>('show server_version')).rows[0]!.server_version}`;
  } finally {
    await db.end();
  }
}

// soak.ts imports the dataset helpers above; only `node dist/bench/run.js` runs the benchmark.
if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
