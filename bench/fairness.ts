import 'reflect-metadata';
import { execFileSync, fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { Client } from 'pg';
import { scaledSize, type DatasetManifest, datasetDatabase, datasetTag } from './dataset';
import type { FairnessLane, FairnessResult, FairnessSpec, LaneStats } from './fairness-load';
import {
  datasetIds,
  ensureEmbeddedDataset,
  ensureServerDataset,
  graphqlSpec,
  REPORT_QUERY,
  REPORT_VARIABLES,
  serverVersion,
} from './run';
import { quiesce, ROOT, SERVICE, startTarget } from './targets';

/**
 * `npm run bench:fairness` (issue 20, finding 4): does one account's flood slow another account
 * down? Account B (a second account with 20 projects) sends `GET /api/1/projects.json` on one
 * connection, first alone, then beside each of account A's neighbours (`--neighbours`): the flood
 * (one staff member's punch-ins on 400 connections at once and the owner's large reports on 12, the
 * bench's report scenario r), long-notes PDF summaries (attack findings, item 2: a staff member's
 * three shifts with 10,000-character notes, `report.pdf?group_by=notes`), and XLSX exports of about
 * 10,000 shifts. B's p50 and p99 beside each are set against the figures alone, with the fair
 * share on (the defaults) and off (ACCOUNT_MAX_IN_FLIGHT=0, DB_CONNECTIONS_PER_ACCOUNT=0, an
 * unbounded heavy-work lane: the service as it was), and the service's event-loop delay over B's
 * window (/metrics). Writes `bench/results/fairness-<date>[-<label>].md` and `.json`. The flood
 * writes, so it runs on a copy of the bench database.
 */
const program = new Command('bench:fairness')
  .option('--scale <n>', 'dataset size of account A (1 = 1,000,000 shifts)', '1')
  .option('--duration <s>', 'seconds of B measured in each phase', '20')
  .option('--warmup <s>', 'seconds of flood before B is measured', '5')
  .option('--punchers <n>', "connections of A's staff member punching in", '400')
  .option('--reports <n>', "connections of A's owner asking for reports", '12')
  .option(
    '--neighbours <list>',
    'what A does while B is measured, a phase each: flood (punch-ins and reports), pdf (long-notes PDF summaries), xlsx (workbook exports)',
    'flood',
  )
  .option('--documents <n>', "connections of A's pdf and xlsx neighbours", '4')
  .option('--share <list>', 'the fair share settings measured: on, off', 'on,off')
  .option('--label <name>', 'the report is fairness-<date>-<label>.md')
  .option('--embedded', 'also measure the service on the embedded database')
  .option('--embedded-scale <n>', 'dataset size on the embedded database', '0.1')
  .option(
    '--admin-url <url>',
    'a PostgreSQL server (the databases are created on it)',
    process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  )
  .option('--out <dir>', 'where the report goes', path.join(ROOT, 'bench', 'results'));

const log = (line: string) => process.stdout.write(`${line}\n`);

/** The fair share switched off: the service as it was before finding 4. */
const SHARE_OFF = {
  ACCOUNT_MAX_IN_FLIGHT: '0',
  DB_CONNECTIONS_PER_ACCOUNT: '0',
  HEAVY_WORK_MAX: '200',
  HEAVY_WORK_PER_ACCOUNT: '200',
  HEAVY_WORK_QUEUE_MAX: '100000',
};

const B_LOGIN = 'fairness-b';
const B_PASSWORD = 'fairness-b-password';
const B_PROJECTS = 20;
/** How to read the figures; the same in every report. */
export const NOTES = [
  '## Reading this',
  '',
  "- Every credential is verified once before each phase. With a cold cache the flood's first 400 requests are 400 argon2 verifications at once (BasicAuthenticator verifies each uncached request on its own): seconds of the thread pool's time during which nobody else's password is checked. That is a weakness of its own, left for the authentication work, and not what this measures.",
  "- A and B send from different addresses. From one address every request also updates that address's one rate-limit row, and 400 concurrent upserts of one row queue behind each other, B's included.",
  '- B sends one request at a time, so a phase holds a few dozen to a few hundred answers: p99 is then nearly the slowest answer, and a single stall of the shared machine moves it. p90 is in the .json.',
  "- A's reports often finish outside the measured window (one at a time in the heavy-work lane, each over about 333,000 shifts on a loaded machine): no answer in the table means none arrived while B was measured.",
  "- The event-loop delay is how late the service's event loop ran a 10 ms timer (perf_hooks.monitorEventLoopDelay, as prom-client's `nodejs_eventloop_lag_max_seconds` and `_p99_seconds` give it) over B's window: the load generator reads /metrics just before B starts, which resets the figures, and just after B ends. It is the longest the loop was held by one piece of work, whoever's, plus up to 10 ms.",
  "- A's documents (pdf, xlsx) run one at a time per account in the heavy-work lane (HEAVY_WORK_PER_ACCOUNT=1); A's other connections wait in the lane's queue (with the share off, they all run at once). They are rendered in the render pool's one worker thread (RENDER_THREADS=1), which takes one of the machine's two cores while it works.",
  '',
];

const A_ADDRESS = '198.51.100.10';
const B_ADDRESS = '198.51.100.20';

/** What account A does while B is measured. */
const NEIGHBOURS = ['flood', 'pdf', 'xlsx'] as const;
type Neighbour = (typeof NEIGHBOURS)[number];

/** The long-notes shifts of A's second staff member: after the dataset, apart from the punches. */
const LONG_NOTES = { from: '2026-06-01', to: '2026-07-01', shifts: 3, characters: 10_000 };
/** The XLSX neighbour's window: this many times scenario a's (about 1,000 shifts). */
const XLSX_WINDOWS = 10;

interface Phase {
  readonly database: 'PostgreSQL' | 'embedded';
  readonly share: 'on' | 'off';
  readonly neighbour: 'alone' | Neighbour;
  readonly result: FairnessResult;
  readonly loadAverage: number[];
}

interface Setup {
  readonly database: 'PostgreSQL' | 'embedded';
  readonly env: Record<string, string>;
  readonly manifest: DatasetManifest;
  readonly projectUuids: readonly string[];
}

async function main(): Promise<void> {
  const options = program.parse().opts<{
    scale: string;
    duration: string;
    warmup: string;
    punchers: string;
    reports: string;
    neighbours: string;
    documents: string;
    share: string;
    label?: string;
    embedded?: boolean;
    embeddedScale: string;
    adminUrl: string;
    out: string;
  }>();
  const neighbours = listOption(options.neighbours, NEIGHBOURS, '--neighbours');
  const shares = listOption(options.share, ['on', 'off'] as const, '--share');
  const started = new Date();
  const startLoad = os.loadavg();
  const setups: Setup[] = [];

  const source = datasetDatabase(options.scale);
  const server = await ensureServerDataset(
    options.adminUrl,
    source,
    scaledSize(Number(options.scale)),
  );
  const copy = await copyDatabase(options.adminUrl, source, `${source}_fair`);
  setups.push({
    database: 'PostgreSQL',
    env: { DATABASE_URL: copy.url },
    manifest: server.manifest,
    projectUuids: (await datasetIds(copy.url)).projectUuids,
  });
  if (options.embedded) {
    const embedded = await ensureEmbeddedDataset(
      path.join(ROOT, 'bench', '.data', `embedded-${datasetTag(options.embeddedScale)}`),
      scaledSize(Number(options.embeddedScale)),
    );
    const dataDir = `${embedded.dataDir}-fair`;
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.cpSync(embedded.dataDir, dataDir, { recursive: true });
    setups.push({
      database: 'embedded',
      env: { DATA_DIR: dataDir },
      manifest: embedded.manifest,
      // Read through the API once the service runs (the embedded database has no port of its own).
      projectUuids: [],
    });
  }

  const phases: Phase[] = [];
  try {
    for (const setup of setups) {
      createAccountB(setup.env);
      for (const share of shares) {
        const target = await startTarget(
          `service (${setup.database}, fair share ${share})`,
          SERVICE,
          () => ['serve'],
          // A and B are two tenants with clients of their own: each has its own address (through
          // X-Forwarded-For from a trusted loopback proxy). From one address they would also share
          // that address's rate-limit counter, one row every request of the address updates.
          { ...setup.env, TRUST_PROXY: 'loopback', ...(share === 'off' ? SHARE_OFF : {}) },
        );
        try {
          await fillAccountB(target.url);
          const uuids = setup.projectUuids.length
            ? setup.projectUuids
            : await projectUuidsOver(target.url, setup.manifest);
          if (neighbours.includes('pdf')) await writeLongNotes(target.url, setup.manifest, uuids);
          for (const neighbour of ['alone', ...neighbours] as const) {
            // Every credential verified once first: a cold cache makes the flood's first 400
            // requests 400 argon2 verifications at once (BasicAuthenticator verifies each
            // uncached request on its own), which is not what this measures (see the report).
            await warmCredentials(target.url, setup.manifest);
            await quiesce(target.pid);
            const result = await drive(
              specFor(target.url, setup.manifest, uuids, neighbour, options),
            );
            phases.push({
              database: setup.database,
              share,
              neighbour,
              result,
              loadAverage: os.loadavg(),
            });
            log(line(phases.at(-1)!));
          }
        } finally {
          await target.stop();
        }
      }
    }
  } finally {
    await dropDatabase(options.adminUrl, copy.name);
  }

  const info = {
    started,
    finished: new Date(),
    machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${await serverVersion(copy.url.replace(/\/[^/]+$/, '/postgres'))}`,
    loadAverageAtStart: startLoad,
    options,
    manifest: setups.map((s) => ({
      database: s.database,
      size: s.manifest.size,
      window: s.manifest.window,
    })),
  };
  const file = writeFairnessReport(options.out, info, phases);
  log(`\nreport: ${path.relative(ROOT, file)}`);
}

/** A staff member of A other than the one who punches: the author of the long notes. */
const notesAuthor = (manifest: DatasetManifest) => manifest.staffLogins[1]!;

const basic = (login: string, password: string) =>
  `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

/** The XLSX neighbour's `where`: scenario a's window, XLSX_WINDOWS times as long. */
function xlsxWhere(manifest: DatasetManifest): string {
  const from = Date.parse(manifest.window.from);
  const to = new Date(from + XLSX_WINDOWS * (Date.parse(manifest.window.to) - from));
  return `start > "${manifest.window.from}" && start < "${to.toISOString()}"`;
}

function specFor(
  url: string,
  manifest: DatasetManifest,
  projectUuids: readonly string[],
  neighbour: 'alone' | Neighbour,
  options: {
    duration: string;
    warmup: string;
    punchers: string;
    reports: string;
    documents: string;
  },
): FairnessSpec {
  const staff = basic(manifest.staffLogins[0]!, manifest.password);
  const owner = basic(manifest.ownerLogin, manifest.password);
  const report = graphqlSpec('/graphql', REPORT_QUERY, REPORT_VARIABLES, { authorization: owner });
  const documents = (name: string, authorization: string, path: string): FairnessLane => ({
    name,
    connections: Number(options.documents),
    method: 'GET',
    headers: { authorization, 'x-forwarded-for': A_ADDRESS },
    paths: [path],
  });
  const lanes: Record<Neighbour, FairnessLane[]> = {
    pdf: [
      documents(
        'A long-notes PDFs',
        basic(notesAuthor(manifest), manifest.password),
        `/api/1/report.pdf?from=${LONG_NOTES.from}&to=${LONG_NOTES.to}&group_by=notes`,
      ),
    ],
    xlsx: [
      documents(
        'A XLSX exports',
        owner,
        `/api/1/shifts.xlsx?where=${encodeURIComponent(xlsxWhere(manifest))}`,
      ),
    ],
    flood: [
      {
        name: 'A punch-ins',
        connections: Number(options.punchers),
        method: 'POST',
        headers: {
          authorization: staff,
          'content-type': 'application/json',
          'x-forwarded-for': A_ADDRESS,
        },
        // One staff member, in to one project then the other: each success stops a shift and
        // starts one, under the user's row lock.
        paths: projectUuids.slice(0, 2).map((uuid) => `/api/1/projects/${uuid}/punch_in.json`),
        body: '{}',
      },
      {
        name: 'A reports',
        connections: Number(options.reports),
        method: 'POST',
        headers: { ...report.headers, 'x-forwarded-for': A_ADDRESS },
        paths: [report.path],
        body: report.body,
      },
    ],
  };
  return {
    url,
    flood: neighbour === 'alone' ? [] : lanes[neighbour],
    metricsPath: '/metrics',
    probe: {
      name: 'B project list',
      connections: 1,
      method: 'GET',
      headers: { authorization: basic(B_LOGIN, B_PASSWORD), 'x-forwarded-for': B_ADDRESS },
      paths: ['/api/1/projects.json'],
    },
    warmupSeconds: neighbour === 'alone' ? 0 : Number(options.warmup),
    durationSeconds: Number(options.duration),
  };
}

async function drive(spec: FairnessSpec): Promise<FairnessResult> {
  const worker = fork(path.join(__dirname, 'fairness-load.js'), [], { stdio: 'inherit' });
  return new Promise<FairnessResult>((resolve, reject) => {
    worker.once('message', (message) => resolve(message as FairnessResult));
    worker.once(
      'exit',
      (code) => code !== 0 && reject(new Error(`load generator exited with ${code}`)),
    );
    worker.send(spec);
  });
}

/** One request per credential of the run, so that each is in the verified-credentials cache. */
async function warmCredentials(url: string, manifest: DatasetManifest): Promise<void> {
  for (const [login, password] of [
    [manifest.staffLogins[0]!, manifest.password],
    [notesAuthor(manifest), manifest.password],
    [manifest.ownerLogin, manifest.password],
    [B_LOGIN, B_PASSWORD],
  ] as const) {
    const res = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ query: '{ viewer { staff { login } } }' }),
    });
    if (res.status !== 200) throw new Error(`warming ${login}: ${res.status}`);
  }
}

/** Account B, through the CLI (the only way to make an account), before the service starts. */
function createAccountB(env: Record<string, string>): void {
  try {
    execFileSync(
      process.execPath,
      [
        SERVICE,
        'account',
        'create',
        '--login',
        B_LOGIN,
        '--password',
        B_PASSWORD,
        '--email',
        'fairness-b@example.com',
      ],
      { env: { ...process.env, ...env, LOG_LEVEL: 'warn' }, stdio: 'pipe' },
    );
  } catch (error) {
    // Kept from an earlier run on the same embedded copy.
    if (!/already taken|exists/i.test(String((error as { stderr?: Buffer }).stderr))) throw error;
  }
}

/** B's projects: a company, 20 projects with two activities each, a running shift. */
async function fillAccountB(url: string): Promise<void> {
  const auth = `Basic ${Buffer.from(`${B_LOGIN}:${B_PASSWORD}`).toString('base64')}`;
  const gql = async (query: string, variables: object = {}) => {
    const res = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    // A fixture of known shape: the fields each caller reads.
    const body = (await res.json()) as {
      data?: Record<string, FixtureAnswer>;
      errors?: unknown[];
    };
    if (body.errors || !body.data) throw new Error(`account B: ${JSON.stringify(body.errors)}`);
    return body.data;
  };
  const existing = await gql('{ projects(first: 100) { totalCount } }');
  if (existing.projects!.totalCount >= B_PROJECTS) return;
  const { createCompany } = await gql(
    'mutation { createCompany(input: { name: "B Co", visibility: PUBLIC }) { company { id } } }',
  );
  const ids: string[] = [];
  for (let i = 0; i < B_PROJECTS; i++) {
    const { createProject } = await gql(
      'mutation($c: ID!, $n: String!) { createProject(input: { companyId: $c, name: $n, visibility: PUBLIC }) { project { id } } }',
      { c: createCompany!.company.id, n: `B project ${i}` },
    );
    ids.push(createProject!.project.id);
    for (const name of ['Design', 'Build'])
      await gql(
        'mutation($p: ID!, $n: String!) { createActivity(input: { projectId: $p, name: $n }) { activity { id } } }',
        { p: createProject!.project.id, n: name },
      );
  }
  await gql('mutation($p: ID!) { punchIn(input: { project: { id: $p } }) { shift { id } } }', {
    p: ids[0],
  });
}

/**
 * The long notes of A's second staff member (once per database copy): LONG_NOTES.shifts shifts of
 * an hour, each with LONG_NOTES.characters letters without a space (one word no line can break).
 */
async function writeLongNotes(
  url: string,
  manifest: DatasetManifest,
  projectUuids: readonly string[],
): Promise<void> {
  const gql = async (query: string, variables: object) => {
    const res = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: {
        authorization: basic(notesAuthor(manifest), manifest.password),
        'content-type': 'application/json',
      },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.json()) as { data?: { report?: { totalCount: number } } };
    if (res.status !== 200 || !body.data) throw new Error(`long notes: ${JSON.stringify(body)}`);
    return body.data;
  };
  const written = await gql(
    'query($input: ReportInput!) { report(input: $input) { totalCount } }',
    { input: { fromDate: LONG_NOTES.from, toDate: LONG_NOTES.to, groupBy: ['NOTES'] } },
  );
  for (let i = written.report!.totalCount; i < LONG_NOTES.shifts; i++) {
    let notes = '';
    for (let x = i + 1; notes.length < LONG_NOTES.characters;) {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      notes += String.fromCharCode(97 + (x % 26));
    }
    const start = new Date(Date.parse(`${LONG_NOTES.from}T08:00:00Z`) + i * 86_400_000);
    await gql(
      'mutation($input: CreateShiftInput!) { createShift(input: $input) { shift { id } } }',
      {
        input: {
          projectId: projectUuids[0],
          start: start.toISOString(),
          stop: new Date(start.getTime() + 3_600_000).toISOString(),
          notes,
        },
      },
    );
  }
}

/** A comma-separated option's words, each one of `allowed`. */
function listOption<T extends string>(text: string, allowed: readonly T[], name: string): T[] {
  const words = text.split(',').map((word) => word.trim());
  const wrong = words.find((word) => !(allowed as readonly string[]).includes(word));
  if (wrong !== undefined) throw new Error(`${name}: ${wrong}? use ${allowed.join(', ')}`);
  return words as T[];
}

/** What the fixture's operations answer: a list's count, or a payload's new object. */
interface FixtureAnswer {
  readonly totalCount: number;
  readonly company: { readonly id: string };
  readonly project: { readonly id: string };
}

/** A's project uuids through the API (the embedded copy has no SQL port of its own). */
async function projectUuidsOver(url: string, manifest: DatasetManifest): Promise<string[]> {
  const auth = `Basic ${Buffer.from(`${manifest.ownerLogin}:${manifest.password}`).toString('base64')}`;
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      query: '{ projects(first: 2, order: [{ field: LEGACY_ID }]) { nodes { id } } }',
    }),
  });
  const body = (await res.json()) as { data: { projects: { nodes: { id: string }[] } } };
  return body.data.projects.nodes.map((n) => n.id);
}

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
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(`create database ${name} template ${source}`);
        return { name, url };
      } catch (error) {
        // Someone (a bench run, autovacuum) is connected to the source: a copy needs it alone.
        if (attempt >= 5 || !/being accessed by other users/.test(String(error))) throw error;
        await new Promise((r) => setTimeout(r, 3000));
      }
    }
  } finally {
    await admin.end();
  }
}

async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
  } finally {
    await admin.end();
  }
}

const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '–');
const statuses = (s: LaneStats) =>
  Object.entries(s.statusCodes)
    .sort()
    .map(([code, n]) => `${code}: ${n}`)
    .join(', ');

/** The event-loop delay over B's window: max / p99, in ms. */
const delay = (r: FairnessResult) =>
  r.eventLoop ? `${ms(r.eventLoop.max)} / ${ms(r.eventLoop.p99)}` : '–';

function line(p: Phase): string {
  const b = p.result.probe;
  return `${p.database.padEnd(10)} share ${p.share.padEnd(3)} ${p.neighbour.padEnd(5)}  B p50 ${ms(b.p50)} ms  p99 ${ms(b.p99)} ms  (${statuses(b)})  loop delay max / p99 ${delay(p.result)} ms${Object.entries(
    p.result.flood,
  )
    .map(([name, s]) => `  | ${name}: ${statuses(s)}, 2xx p50 ${ms(s.p50)} ms`)
    .join('')}`;
}

/** The goal of attack findings, item 2: B's p99 beside a neighbour within this many times its p99 alone. */
const P99_GOAL = 2;

/** What each neighbour does, for the report. */
function neighbourText(
  neighbour: Neighbour,
  o: Record<string, string>,
  window: DatasetManifest['window'],
): string {
  switch (neighbour) {
    case 'flood':
      return `one staff member's \`POST /api/1/projects/:uuid/punch_in.json\` (two projects in turn) on ${o.punchers} connections, and the owner's GraphQL \`report\` (one year grouped by project and month, the bench's scenario r) on ${o.reports} connections`;
    case 'pdf':
      return `another staff member's \`GET /api/1/report.pdf?from=${LONG_NOTES.from}&to=${LONG_NOTES.to}&group_by=notes\` on ${o.documents} connections: a summary of ${LONG_NOTES.shifts} shifts of theirs whose notes are ${LONG_NOTES.characters.toLocaleString('en')} letters without a space (the attack of findings item 2)`;
    case 'xlsx':
      return `the owner's \`GET /api/1/shifts.xlsx?where=…\` on ${o.documents} connections: scenario a's window ${XLSX_WINDOWS} times as long, about ${(XLSX_WINDOWS * window.shifts).toLocaleString('en')} shifts in ${XLSX_WINDOWS} pages`;
  }
}

function writeFairnessReport(
  dir: string,
  info: {
    started: Date;
    finished: Date;
    machine: string;
    loadAverageAtStart: number[];
    options: Record<string, unknown>;
    manifest: {
      database: string;
      size: ReturnType<typeof scaledSize>;
      window: DatasetManifest['window'];
    }[];
  },
  phases: Phase[],
): string {
  fs.mkdirSync(dir, { recursive: true });
  const day = info.started.toISOString().slice(0, 10);
  const o = info.options as Record<string, string>;
  const neighbours = listOption(o.neighbours!, NEIGHBOURS, '--neighbours');
  const find = (database: string, share: string, neighbour: string) =>
    phases.find((p) => p.database === database && p.share === share && p.neighbour === neighbour);
  const rows: string[] = [];
  for (const database of [...new Set(phases.map((p) => p.database))]) {
    for (const share of ['on', 'off']) {
      const alone = find(database, share, 'alone')?.result;
      for (const neighbour of neighbours) {
        const beside = find(database, share, neighbour)?.result;
        if (!alone || !beside) continue;
        const ratio = beside.probe.p99 / alone.probe.p99;
        rows.push(
          `| ${database} | ${share} | ${neighbour} | ${ms(alone.probe.p50)} | ${ms(alone.probe.p99)} | ${ms(beside.probe.p50)} | ${ms(beside.probe.p99)} | ${ratio.toFixed(1)}× | ${ratio <= P99_GOAL ? 'met' : 'not met'} | ${delay(alone)} | ${delay(beside)} | ${alone.probe.requests} / ${beside.probe.requests} | ${statuses(beside.probe)} |`,
        );
      }
    }
  }
  const floodRows = phases
    .filter((p) => p.neighbour !== 'alone')
    .flatMap((p) =>
      Object.entries(p.result.flood).map(
        ([name, s]) =>
          `| ${p.database} | ${p.share} | ${name} | ${s.requests} | ${statuses(s)} | ${ms(s.p50)} | ${ms(s.p99)} |`,
      ),
    );
  const lines = [
    `# Fairness ${day}${o.label ? ` (${o.label})` : ''}`,
    '',
    `Machine: ${info.machine}. Run ${info.started.toISOString()} – ${info.finished.toISOString()}. Load average (1, 5, 15 min) at the start: ${info.loadAverageAtStart.map((n) => n.toFixed(1)).join(', ')}; at the end of each phase: ${phases.map((p) => p.loadAverage[0]!.toFixed(1)).join(', ')}. The machine is shared: other processes' CPU counts against every figure here.`,
    '',
    `Account A: ${info.manifest.map((m) => `${m.database}: ${m.size.shifts.toLocaleString('en')} shifts, ${m.size.projects} projects, ${m.size.staff} staff`).join('; ')}. Account B: ${B_PROJECTS} projects with 2 activities each and one running shift.`,
    '',
    `B sends \`GET /api/1/projects.json\` on one connection for ${o.duration} s, alone, then beside each of A's neighbours in turn (measured after ${o.warmup} s of it): ${neighbours.map((n) => `**${n}**: ${neighbourText(n, o, info.manifest[0]!.window)}`).join('; ')}. A and B send from client addresses of their own (\`X-Forwarded-For\` through \`TRUST_PROXY=loopback\`), as two tenants' clients would. "Fair share on" is the defaults; "off" is \`${Object.entries(
      SHARE_OFF,
    )
      .map(([k, v]) => `${k}=${v}`)
      .join(
        ' ',
      )}\`, the service as it was. Latencies are of 2xx answers, in ms, exact percentiles of every answer; autocannon in its own process over loopback. The goal: B's p99 beside a neighbour at most ${P99_GOAL}× its p99 alone.`,
    '',
    '## B: another account beside A',
    '',
    '| database | fair share | neighbour | alone p50 | alone p99 | beside p50 | beside p99 | p99 beside/alone | ≤ 2× | loop delay alone max / p99 | loop delay beside max / p99 | requests alone / beside | B statuses beside |',
    '|---|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---|',
    ...rows,
    '',
    '## A: the neighbour, while B was measured',
    '',
    '| database | fair share | lane | answers | statuses | 2xx p50 | 2xx p99 |',
    '|---|---|---|---:|---|---:|---:|',
    ...floodRows,
    '',
    ...NOTES,
  ];
  const name = `fairness-${day}${o.label ? `-${o.label}` : ''}`;
  const file = path.join(dir, `${name}.md`);
  fs.writeFileSync(file, lines.join('\n'));
  fs.writeFileSync(
    path.join(dir, `${name}.json`),
    `${JSON.stringify({ info, phases }, null, 2)}\n`,
  );
  return file;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
