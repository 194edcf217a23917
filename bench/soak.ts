import 'reflect-metadata';
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { Client } from 'pg';
import { scaledSize, type DatasetManifest, type DatasetSize, datasetDatabase } from './dataset';
import {
  DASHBOARD_QUERY,
  datasetIds,
  ensureServerDataset,
  graphqlSpec,
  serverVersion,
} from './run';
import type { Lane, Slice, SliceStats, SoakSpec, Summary, WorkerMessage } from './soak-load';
import { quiesce, ROOT, SERVICE, startTarget, treeRssMb, type Target } from './targets';

/**
 * `npm run soak`: minutes of mixed load (reads, GraphQL, punches, creates and updates, XML) against
 * `timetrack serve` on PostgreSQL with NODE_ENV=production, on a copy of the bench database. It
 * samples the RSS of the service's process tree, cuts the load into time slices (latency, statuses
 * per slice), and writes `bench/results/soak-<date>.md` and `.json`.
 */
const program = new Command('soak')
  .option('--minutes <n>', 'minutes of load', '10')
  .option('--scale <n>', 'dataset size against the reference (1 = 1,000,000 shifts)', '0.1')
  .option('--slice <s>', 'seconds per time slice (default 60; a sixth of runs under 6 minutes)')
  .option('--warmup <s>', 'seconds of warm-up (default 60; a quarter of runs under 4 minutes)')
  .option('--sample <s>', 'seconds between RSS samples', '5')
  .option(
    '--mix <lanes>',
    'connections per lane',
    'shifts=5,projects=3,graphql=4,punch=4,write=6,xml=2',
  )
  .option(
    '--admin-url <url>',
    'a PostgreSQL server (the databases are created on it)',
    process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  )
  .option(
    '--keep-copy',
    'keep the soak copy of the database afterwards (to look at what the load wrote)',
  )
  .option('--out <dir>', 'where the report goes', path.join(ROOT, 'bench', 'results'));

const log = (line: string) => process.stdout.write(`${line}\n`);

/** The RSS target: growth from the end of warm-up to the end of the run. */
const RSS_GROWTH_TARGET_PERCENT = 10;

const LANES = ['shifts', 'projects', 'graphql', 'punch', 'write', 'xml'] as const;

interface RssSample {
  /** Seconds since the load started (negative: before it). */
  readonly t: number;
  readonly rssMb: number;
}

interface LaneInfo {
  readonly name: string;
  readonly connections: number;
  readonly title: string;
}

async function main(): Promise<void> {
  const options = program.parse().opts<{
    minutes: string;
    scale: string;
    slice?: string;
    warmup?: string;
    sample: string;
    mix: string;
    adminUrl: string;
    keepCopy?: boolean;
    out: string;
  }>();
  const durationSeconds = Math.round(Number(options.minutes) * 60);
  if (!(durationSeconds >= 10)) throw new Error('--minutes: at least 10 seconds of load');
  const sliceSeconds = Number(
    options.slice ?? (durationSeconds < 360 ? Math.max(5, Math.round(durationSeconds / 6)) : 60),
  );
  const warmupSeconds = Number(
    options.warmup ?? (durationSeconds < 240 ? Math.round(durationSeconds / 4) : 60),
  );
  const sampleSeconds = Number(options.sample);
  const mix = parseMix(options.mix);
  const scale = Number(options.scale);
  const size = scaledSize(scale);
  const started = new Date();
  const runId = `${started.getTime().toString(36)}${randomBytes(3).toString('hex')}`;
  const marker = `soak:${runId}`;

  const source = datasetDatabase(scale);
  const server = await ensureServerDataset(options.adminUrl, source, size);
  const manifest = server.manifest;
  const copy = await copyDatabase(options.adminUrl, source, `${source}_soak`);
  let target: Target | undefined;
  try {
    const basic = (login: string) =>
      `Basic ${Buffer.from(`${login}:${manifest.password}`).toString('base64')}`;
    const owner = basic(manifest.ownerLogin);
    const ids = await datasetIds(copy.url);
    const staffUuids = await query<{ uuid: string }>(
      copy.url,
      `select uuid from users where login like 'bench-staff-%' order by login`,
    );
    const where = `start > "${manifest.window.from}" && start < "${manifest.window.to}"`;
    const graphql = graphqlSpec('/graphql', DASHBOARD_QUERY, {}, { authorization: owner });
    // Each lane works on projects of its own, so that no write lands in what a read lane lists:
    // punches on projects 1–50 (one per user), creates on 101–400, XML reads of 51–100.
    const xmlIds = ids.projectIds.slice(50, 100);
    const all: (Lane & { title: string })[] = [
      {
        kind: 'read',
        name: 'shifts',
        title: `(a) JSON shifts in a window: GET /api/1/shifts.json?where=start > … && start < … (${manifest.window.shifts} shifts)`,
        connections: mix.shifts,
        method: 'GET',
        paths: [`/api/1/shifts.json?where=${encodeURIComponent(where)}`],
        headers: { authorization: owner },
      },
      {
        kind: 'read',
        name: 'projects',
        title: `(b) JSON project list: GET /api/1/projects.json (${size.projects} projects with activities and totals)`,
        connections: mix.projects,
        method: 'GET',
        paths: ['/api/1/projects.json'],
        headers: { authorization: owner },
      },
      {
        kind: 'read',
        name: 'graphql',
        title: '(c) GraphQL companies → projects → activities with grandTotal: POST /graphql',
        connections: mix.graphql,
        method: 'POST',
        paths: [graphql.path],
        headers: graphql.headers,
        body: graphql.body,
      },
      {
        kind: 'punch',
        name: 'punch',
        title: `(e) JSON punch in / punch out across ${manifest.staffLogins.length} staff, each on a project of its own (422 when two requests for one user race)`,
        connections: mix.punch,
        punches: manifest.staffLogins.map((login, i) => ({
          authorization: basic(login),
          projectUuid: ids.projectUuids[i % 50]!,
        })),
        notes: `${marker} punch`,
      },
      {
        kind: 'write',
        name: 'write',
        title: `JSON POST /api/1/shifts.json (a stopped shift for one of the staff, unique Idempotency-Key), then PUT /api/1/shifts/:uuid.json of it`,
        connections: mix.write,
        authorization: owner,
        projectUuids: ids.projectUuids.slice(100),
        userUuids: staffUuids.map((u) => u.uuid),
        marker,
        keyPrefix: `soak-${runId}`,
      },
      {
        kind: 'read',
        name: 'xml',
        title: `(f) XML shift list of a project: GET /project/:id/shifts.xml, ${xmlIds.length} projects in turn (~${Math.round(size.shifts / size.projects)} shifts each)`,
        connections: mix.xml,
        method: 'GET',
        paths: xmlIds.map((id) => `/project/${id}/shifts.xml`),
        headers: { authorization: owner },
      },
    ];
    const lanes = all.filter((lane) => lane.connections > 0);
    if (!lanes.length) throw new Error('--mix: no lane has a connection');
    const laneInfo: LaneInfo[] = lanes.map(({ name, connections, title }) => ({
      name,
      connections,
      title,
    }));

    target = await startTarget('service (PostgreSQL)', SERVICE, () => ['serve'], {
      DATABASE_URL: copy.url,
    });
    await preflight(target.url, lanes);
    await quiesce(target.pid);
    const idle = treeRssMb(target.pid);
    const sizeBefore = await databaseMb(copy.url);
    log(
      `soak: ${durationSeconds} s of load, ${lanes.reduce((n, l) => n + l.connections, 0)} connections (${lanes.map((l) => `${l.name} ${l.connections}`).join(', ')}), slices of ${sliceSeconds} s, warm-up ${warmupSeconds} s; idle RSS ${idle.toFixed(0)} MB`,
    );

    const { samples, slices, measured } = await drive(
      target,
      { url: target.url, durationSeconds, sliceSeconds, warmupSeconds, lanes },
      sampleSeconds,
    );
    await quiesce(target.pid, 30_000);
    await new Promise((r) => setTimeout(r, 5000));
    const idleAfter = treeRssMb(target.pid);
    const sizeAfter = await databaseMb(copy.url);
    const [written] = await query<{ shifts: number }>(
      copy.url,
      `select count(*)::int as shifts from shifts where notes like $1`,
      [`${marker}%`],
    );

    const info: SoakInfo = {
      started,
      finished: new Date(),
      machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${await serverVersion(copy.url)}`,
      size,
      manifest,
      database: copy.name,
      keptCopy: Boolean(options.keepCopy),
      durationSeconds,
      sliceSeconds,
      warmupSeconds,
      sampleSeconds,
      lanes: laneInfo,
      marker,
      idleRssMb: idle,
      idleAfterRssMb: idleAfter,
      databaseMb: { before: sizeBefore, after: sizeAfter },
      shiftsWritten: written?.shifts ?? 0,
    };
    const file = writeSoakReport(options.out, info, samples, slices, measured);
    log(`\nreport: ${path.relative(ROOT, file)}`);
  } finally {
    await target?.stop();
    if (!options.keepCopy) await dropDatabase(options.adminUrl, copy.name);
  }
}

function parseMix(text: string): Record<(typeof LANES)[number], number> {
  const mix = Object.fromEntries(LANES.map((lane) => [lane, 0])) as Record<
    (typeof LANES)[number],
    number
  >;
  for (const part of text.split(',').filter(Boolean)) {
    const [name, n] = part.split('=');
    if (!LANES.includes(name as never) || !Number.isInteger(Number(n)) || Number(n) < 0) {
      throw new Error(
        `--mix: "${part}" is not lane=connections with a lane among ${LANES.join(', ')}`,
      );
    }
    mix[name as (typeof LANES)[number]] = Number(n);
  }
  return mix;
}

/**
 * The soak runs in a copy of the bench database (CREATE DATABASE … TEMPLATE), dropped afterwards:
 * the bench dataset stays as its manifest describes it, and everything the load writes (shifts,
 * kept totals, idempotency records, …) goes with the copy.
 */
async function copyDatabase(
  adminUrl: string,
  source: string,
  name: string,
): Promise<{ name: string; url: string }> {
  const url = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(`create database ${name} template ${source}`);
        break;
      } catch (error) {
        // Someone (a bench run, autovacuum) is connected to the source: a copy needs it alone.
        if (attempt >= 5 || !/being accessed by other users/.test(String(error))) throw error;
        await new Promise((r) => setTimeout(r, 3000));
      }
    }
    log(`soak: copied ${source} to ${name} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return { name, url };
  } finally {
    await admin.end();
  }
}

async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
    log(`soak: dropped ${name}`);
  } finally {
    await admin.end();
  }
}

async function query<T extends object>(
  url: string,
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    return (await db.query<T>(text, params)).rows;
  } finally {
    await db.end();
  }
}

async function databaseMb(url: string): Promise<number> {
  const [row] = await query<{ bytes: string }>(
    url,
    'select pg_database_size(current_database())::text as bytes',
  );
  return Number(row!.bytes) / 2 ** 20;
}

/** One request of each lane before the load, so that a wrong route fails the run at once. */
async function preflight(base: string, lanes: readonly Lane[]): Promise<void> {
  const expect = async (what: string, response: Promise<Response>) => {
    const r = await response;
    const text = await r.text();
    if (r.status !== 200)
      throw new Error(`preflight: ${what} answered ${r.status}: ${text.slice(0, 500)}`);
    return text;
  };
  for (const lane of lanes) {
    if (lane.kind === 'read') {
      await expect(
        lane.name,
        fetch(`${base}${lane.paths[0]}`, {
          method: lane.method,
          headers: lane.headers,
          ...(lane.body ? { body: lane.body } : {}),
        }),
      );
    } else if (lane.kind === 'punch') {
      const { authorization, projectUuid } = lane.punches[lane.punches.length - 1]!;
      const headers = { authorization, 'content-type': 'application/json' };
      await expect(
        'punch in',
        fetch(`${base}/api/1/projects/${projectUuid}/punch_in.json`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ notes: `${lane.notes} preflight` }),
        }),
      );
      await expect(
        'punch out',
        fetch(`${base}/api/1/projects/${projectUuid}/punch_out.json`, {
          method: 'POST',
          headers,
          body: '{}',
        }),
      );
    } else {
      const headers = { authorization: lane.authorization, 'content-type': 'application/json' };
      const body = JSON.stringify({
        shift: {
          project_uuid: lane.projectUuids[0],
          user_uuid: lane.userUuids[0],
          start: '2026-01-01T08:00:00Z',
          stop: '2026-01-01T09:00:00Z',
          notes: `${lane.marker} preflight`,
        },
      });
      const created = await expect(
        'shift create',
        fetch(`${base}/api/1/shifts.json`, {
          method: 'POST',
          headers: { ...headers, 'idempotency-key': `${lane.keyPrefix}-preflight` },
          body,
        }),
      );
      const uuid = (JSON.parse(created) as { response: { uuid: string } }).response.uuid;
      await expect(
        'shift update',
        fetch(`${base}/api/1/shifts/${uuid}.json`, {
          method: 'PUT',
          headers,
          body: JSON.stringify({ shift: { notes: `${lane.marker} preflight updated` } }),
        }),
      );
    }
  }
}

/** Runs the load generator and samples the target's RSS until the load ends. */
async function drive(
  target: Target,
  spec: SoakSpec,
  sampleSeconds: number,
): Promise<{ samples: RssSample[]; slices: Slice[]; measured: Summary }> {
  const samples: RssSample[] = [];
  const slices: Slice[] = [];
  let sampler: NodeJS.Timeout | undefined;
  const worker = fork(path.join(__dirname, 'soak-load.js'), [], { stdio: 'inherit' });
  const interrupt = () => worker.kill();
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  try {
    const measured = await new Promise<Summary>((resolve, reject) => {
      let t0 = Date.now();
      const sample = () =>
        samples.push({ t: (Date.now() - t0) / 1000, rssMb: treeRssMb(target.pid) });
      worker.on('message', (message: WorkerMessage) => {
        if (message.type === 'started') {
          t0 = message.t0;
          sample();
          sampler = setInterval(sample, sampleSeconds * 1000);
        } else if (message.type === 'slice') {
          slices.push(message.slice);
          const s = message.slice.total;
          log(
            `slice ${String(message.slice.index + 1).padStart(3)} ${String(message.slice.from).padStart(5)}–${String(message.slice.to).padEnd(5)} s ${String(s.requests).padStart(7)} requests  p50 ${s.p50} ms  p99 ${s.p99} ms  422 ${s.unprocessable}  other 4xx ${s.other4xx}  5xx ${s.server5xx}  errors ${s.errors}  rss ${samples[samples.length - 1]?.rssMb.toFixed(0)} MB`,
          );
        } else {
          sample();
          resolve(message.measured);
        }
      });
      worker.once('exit', (code) =>
        reject(new Error(`soak load generator exited (${code}) before the end`)),
      );
      worker.send(spec);
    });
    return { samples, slices, measured };
  } finally {
    clearInterval(sampler);
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
  }
}

interface SoakInfo {
  readonly started: Date;
  readonly finished: Date;
  readonly machine: string;
  readonly size: DatasetSize;
  readonly manifest: DatasetManifest;
  readonly database: string;
  readonly keptCopy: boolean;
  readonly durationSeconds: number;
  readonly sliceSeconds: number;
  readonly warmupSeconds: number;
  readonly sampleSeconds: number;
  readonly lanes: LaneInfo[];
  readonly marker: string;
  readonly idleRssMb: number;
  readonly idleAfterRssMb: number;
  readonly databaseMb: { readonly before: number; readonly after: number };
  readonly shiftsWritten: number;
}

const fixed = (n: number | undefined, digits = 1) =>
  n !== undefined && Number.isFinite(n) ? n.toFixed(digits) : '–';
const signed = (n: number | undefined, digits = 1) =>
  n !== undefined && Number.isFinite(n) ? `${n >= 0 ? '+' : ''}${n.toFixed(digits)}` : '–';
const ms = (n: number) => (Number.isFinite(n) ? String(n) : '–');

/** What the numbers say: the RSS verdict, the p99 drift and the status counts. */
function analyse(info: SoakInfo, samples: RssSample[], slices: Slice[]) {
  const during = samples.filter((s) => s.t <= info.durationSeconds + info.sampleSeconds);
  const warm = during.find((s) => s.t >= info.warmupSeconds) ?? during[during.length - 1];
  const end = during[during.length - 1];
  const max = during.reduce((m, s) => (s.rssMb > m.rssMb ? s : m), during[0]!);
  const growth = warm && end ? ((end.rssMb - warm.rssMb) / warm.rssMb) * 100 : NaN;
  const measuredSlices = slices.filter((s) => s.from >= info.warmupSeconds);
  const first = measuredSlices[0];
  const last = measuredSlices.length > 1 ? measuredSlices[measuredSlices.length - 1] : undefined;
  const drift = (pick: (s: Slice) => number) =>
    first && last
      ? {
          from: pick(first),
          to: pick(last),
          percent: ((pick(last) - pick(first)) / pick(first)) * 100,
        }
      : undefined;
  const sum = (pick: (s: SliceStats) => number) => slices.reduce((n, s) => n + pick(s.total), 0);
  return {
    rss: {
      warm,
      end,
      max,
      growthPercent: growth,
      pass: Number.isFinite(growth) && growth < RSS_GROWTH_TARGET_PERCENT,
    },
    p99Drift: {
      first: first?.index,
      last: last?.index,
      total: drift((s) => s.total.p99),
      lanes: Object.fromEntries(
        info.lanes.map((l) => [l.name, drift((s) => s.lanes[l.name]!.p99)]),
      ),
    },
    totals: {
      requests: sum((s) => s.requests),
      ok: sum((s) => s.ok),
      unprocessable: sum((s) => s.unprocessable),
      other4xx: sum((s) => s.other4xx),
      server5xx: sum((s) => s.server5xx),
      otherStatus: sum((s) => s.otherStatus),
      errors: sum((s) => s.errors),
      timeouts: sum((s) => s.timeouts),
    },
  };
}

/** Writes `soak-<date>.md` (and the raw samples as .json); returns the Markdown file. */
function writeSoakReport(
  dir: string,
  info: SoakInfo,
  samples: RssSample[],
  slices: Slice[],
  measured: Summary,
): string {
  fs.mkdirSync(dir, { recursive: true });
  const day = info.started.toISOString().slice(0, 10);
  const result = analyse(info, samples, slices);
  const { rss, p99Drift, totals } = result;
  // A sample taken on a slice boundary (a few ms late) belongs to the slice that ends there.
  const inSlice = (slice: Slice) =>
    samples.filter((s) => s.t - 0.5 > slice.from && s.t - 0.5 <= slice.to);
  const statuses = (s: SliceStats) =>
    Object.entries(s.statusCodes)
      .map(([code, n]) => `${code}: ${n}`)
      .join(', ');
  const lines: string[] = [
    `# Soak ${day}`,
    '',
    `Machine: ${info.machine}. Run ${info.started.toISOString()} – ${info.finished.toISOString()}: ${fixed(info.durationSeconds / 60)} min of mixed load on ${info.lanes.reduce((n, l) => n + l.connections, 0)} connections, slices of ${info.sliceSeconds} s, warm-up ${info.warmupSeconds} s, RSS of the service's process tree sampled every ${info.sampleSeconds} s; autocannon in its own process over loopback.`,
    '',
    `Target: \`timetrack serve\` with \`DATABASE_URL\` and \`NODE_ENV=production\`, on \`${info.database}\`, a copy of the bench database (${info.size.staff} staff, ${info.size.projects} projects, ${info.size.shifts.toLocaleString('en')} shifts)${info.keptCopy ? ', kept after the run' : ', dropped after the run'}. The load wrote ${info.shiftsWritten.toLocaleString('en')} shifts (notes starting \`${info.marker}\`); the database grew from ${fixed(info.databaseMb.before, 0)} MB to ${fixed(info.databaseMb.after, 0)} MB.`,
    '',
    '## Verdict',
    '',
    `- **RSS ${rss.pass ? 'PASS' : 'FAIL'}**: ${fixed(rss.warm?.rssMb, 0)} MB after warm-up (t = ${fixed(rss.warm?.t, 0)} s), ${fixed(rss.end?.rssMb, 0)} MB at the end (t = ${fixed(rss.end?.t, 0)} s): ${signed(rss.growthPercent)} % (target < ${RSS_GROWTH_TARGET_PERCENT} %); max ${fixed(rss.max?.rssMb, 0)} MB (t = ${fixed(rss.max?.t, 0)} s).`,
    `- **5xx ${totals.server5xx === 0 ? 'PASS' : 'FAIL'}**: ${totals.server5xx} server errors (must be 0); ${totals.errors} requests without an answer (${totals.timeouts} timeouts).`,
    `- p99 drift, all lanes, first measured slice → last: ${p99Drift.total ? `${p99Drift.total.from} ms → ${p99Drift.total.to} ms (${signed(p99Drift.total.percent)} %)` : '– (fewer than two slices after warm-up)'}.`,
    `- ${totals.requests.toLocaleString('en')} requests: ${totals.ok.toLocaleString('en')} 2xx, ${totals.unprocessable} 422 (racing punches, expected), ${totals.other4xx} other 4xx, ${totals.otherStatus} other statuses.`,
    `- RSS idle before the load ${fixed(info.idleRssMb, 0)} MB, idle after it ${fixed(info.idleAfterRssMb, 0)} MB.`,
    '',
    '## Mix',
    '',
    '| lane | c | request |',
    '|---|---:|---|',
    ...info.lanes.map((l) => `| ${l.name} | ${l.connections} | ${l.title.replace(/\|/g, '\\|')} |`),
    '',
    '## Slices (all lanes)',
    '',
    'Latency percentiles are over 2xx answers. RSS: the last sample in the slice, and the largest.',
    '',
    '| slice | s | requests | req/s | p50 ms | p99 ms | 2xx | 422 | other 4xx | 5xx | errors | RSS MB | max RSS MB |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...slices.map((s) => {
      const rssIn = inSlice(s);
      return `| ${s.index + 1}${s.from < info.warmupSeconds ? ' (warm-up)' : ''} | ${s.from}–${s.to} | ${s.total.requests} | ${fixed(s.total.requests / (s.to - s.from))} | ${ms(s.total.p50)} | ${ms(s.total.p99)} | ${s.total.ok} | ${s.total.unprocessable} | ${s.total.other4xx} | ${s.total.server5xx} | ${s.total.errors} | ${fixed(rssIn[rssIn.length - 1]?.rssMb, 0)} | ${fixed(Math.max(...rssIn.map((r) => r.rssMb)), 0)} |`;
    }),
    '',
    '## Lanes (after warm-up)',
    '',
    `p99 drift: the lane's p99 in the first measured slice (${p99Drift.first !== undefined ? p99Drift.first + 1 : '–'}) and in the last (${p99Drift.last !== undefined ? p99Drift.last + 1 : '–'}).`,
    '',
    '| lane | c | requests | req/s | p50 ms | p99 ms | p99 first → last | drift | 422 | other 4xx | 5xx | errors |',
    '|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|',
    ...info.lanes.map((l) => {
      const s = measured.lanes[l.name]!;
      const d = p99Drift.lanes[l.name];
      const seconds =
        slices.filter((x) => x.from >= info.warmupSeconds).reduce((n, x) => n + x.to - x.from, 0) ||
        slices[slices.length - 1]!.to - slices[slices.length - 1]!.from;
      return `| ${l.name} | ${l.connections} | ${s.requests} | ${fixed(s.requests / seconds)} | ${ms(s.p50)} | ${ms(s.p99)} | ${d ? `${d.from} → ${d.to}` : '–'} | ${d ? `${signed(d.percent)} %` : '–'} | ${s.unprocessable} | ${s.other4xx} | ${s.server5xx} | ${s.errors} |`;
    }),
    '',
    `Status codes after warm-up: ${statuses(measured.total) || '–'}.`,
    '',
  ];
  const file = path.join(dir, `soak-${day}.md`);
  fs.writeFileSync(file, lines.join('\n'));
  fs.writeFileSync(
    path.join(dir, `soak-${day}.json`),
    `${JSON.stringify({ info, result, measured, slices, samples }, null, 2)}\n`,
  );
  process.stdout.write(`\n${lines.join('\n')}\n`);
  return file;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
