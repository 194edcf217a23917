import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { SMTPServer } from 'smtp-server';
import { restartDelayMs, workersPrimary } from '../../src/cli/serve-workers';
import { basicAuthorization, GraphQLSocket } from '../support/graphql-ws-session';
import { runCli, stopCli, waitForOutput, type Spawned } from '../support/cli-process';
import {
  createTestDatabaseTarget,
  serverSetups,
  type TestDatabaseTarget,
} from '../support/test-database';

/**
 * `timetrack serve --workers 2` (the built CLI; `npm run build` first): one primary, two worker
 * processes on one port, and everything the workers must agree on living in PostgreSQL. Which
 * worker answered a request is read from its access log line (`pid`, found by the request's
 * X-Request-Id); every request goes on a connection of its own, since the primary hands out
 * connections, not requests, in turn.
 *
 * Two workers need a PostgreSQL server (the embedded database belongs to one process), so the
 * service part runs only when TEST_DATABASE_URL is set. The refusal on the embedded database
 * always runs. Nothing waits on a clock for an assertion: conditions are polled up to a deadline.
 */
const SETUPS = serverSetups();
const maybe = SETUPS.length > 0 ? describe.each(SETUPS) : describe.skip.each([['', () => ({})]]);

const PASSWORD = 'workers-password';
/** Requests one client address may send in the window; the rate-limit test uses it up. */
const PER_ADDRESS = 6;
const EMAILS = 8;

const spawned: Spawned[] = [];
const dataDirs: string[] = [];
const targets: TestDatabaseTarget[] = [];
const smtps: SMTPServer[] = [];

/** Starts the CLI and keeps it for afterAll. */
function run(name: string, args: string[], env: NodeJS.ProcessEnv): Spawned {
  const s = runCli(name, args, env);
  spawned.push(s);
  return s;
}

/**
 * Polls `check` until it answers something other than undefined, up to a deadline: for a state
 * with no event to wait for (rows another process writes); output and messages are awaited.
 */
async function eventually<T>(
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const stop = (s: Spawned) => stopCli(s, 30_000);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

afterAll(async () => {
  // The primary first (its workers drain and go with it), then any worker still about, e.g. one
  // orphaned by a failure; then the database, the SMTP server and the directories.
  const results = await Promise.allSettled(spawned.map(stop));
  for (const pid of knownWorkerPids) if (alive(pid)) process.kill(pid, 'SIGKILL');
  const dropped = await Promise.allSettled(targets.map((target) => target.drop()));
  await Promise.all(
    smtps.map((smtp) => new Promise<void>((resolve) => smtp.close(() => resolve()))),
  );
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  for (const r of [...results, ...dropped]) if (r.status === 'rejected') throw r.reason;
}, 90_000);

// ---------------------------------------------------------------------------------------------

test.each([
  ['WORKERS=2', [], { WORKERS: '2' }, 'WORKERS'],
  ['--workers 2', ['--workers', '2'], {}, '--workers'],
])(
  'on the embedded database %s is refused with exit code 2, before the database is opened',
  async (_name, flags, extra, named) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'timetrack-workers-embedded-'));
    dataDirs.push(dataDir);
    const env: NodeJS.ProcessEnv = { ...process.env, ...extra, DATA_DIR: dataDir, PORT: '0' };
    delete env.DATABASE_URL;
    const s = run('embedded serve', ['serve', ...flags], env);
    expect(await s.exited).toBe(2);
    expect(s.output()).toContain(
      `Invalid configuration:\n  ${named}: must be 1 without DATABASE_URL: the embedded database belongs to one process`,
    );
    expect(s.output()).not.toMatch(/listening/);
    expect(fs.existsSync(path.join(dataDir, 'pgdata'))).toBe(false);
  },
  60_000,
);

test('a worker that keeps dying is restarted later and later, at most every 30 s', () => {
  expect([1, 2, 3, 4, 7, 20].map(restartDelayMs)).toEqual([500, 1000, 2000, 4000, 30_000, 30_000]);
});

test('the primary of several workers starts without the CLI; every other command line goes to the CLI', () => {
  const saved = { ...process.env };
  try {
    process.env.DATABASE_URL = 'postgres://nobody@127.0.0.1:1/none';
    delete process.env.WORKERS;
    expect(workersPrimary(['serve', '--workers', '2'])).toBeInstanceOf(Function);
    expect(workersPrimary(['serve', '--workers=3'])).toBeInstanceOf(Function);
    expect(workersPrimary([])).toBeUndefined();
    process.env.WORKERS = '2';
    expect(workersPrimary([])).toBeInstanceOf(Function);
    expect(workersPrimary(['serve'])).toBeInstanceOf(Function);
    // One worker, a bad count, another command or option, a refused configuration: the CLI's.
    for (const args of [
      ['serve', '--workers', '1'],
      ['serve', '--workers', 'two'],
      ['serve', '--workers'],
      ['serve', '--help'],
      ['migrate'],
    ])
      expect(workersPrimary(args)).toBeUndefined();
    delete process.env.DATABASE_URL;
    expect(workersPrimary(['serve'])).toBeUndefined();
  } finally {
    process.env = saved;
  }
});

// ---------------------------------------------------------------------------------------------
// The service: one primary with two workers, shared by the tests below in order.

let primary: Spawned;
let url: string;
let port: number;
let pool: Client;
let owner: { login: string; password: string };
let project: string;
const workerPids: number[] = [];
const knownWorkerPids = new Set<number>();
const mails: { messageId: string }[] = [];
/** Woken on each mail received. */
const mailArrivals: (() => void)[] = [];
let requests = 0;

interface Answer {
  status: number;
  body: any;
  /** The pid of the worker that answered, from its access line. */
  pid: number;
}

/** One request on a new connection (Connection: close), from an address of its own unless given. */
function send(
  method: 'GET' | 'POST',
  pathname: string,
  options: { body?: unknown; headers?: Record<string, string>; from?: string } = {},
): Promise<Omit<Answer, 'pid'> & { requestId: string }> {
  const n = ++requests;
  const requestId = `workers-${process.pid}-${n}`;
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: pathname,
        agent: false,
        headers: {
          connection: 'close',
          'x-request-id': requestId,
          // TRUST_PROXY=loopback: the address the rate limits count; each request its own, so
          // only the rate-limit test meets PER_ADDRESS.
          'x-forwarded-for': options.from ?? `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
          authorization: basicAuthorization(owner),
          ...(body === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
          ...options.headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => {
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON: kept as text
          }
          resolve({ status: res.statusCode ?? 0, body: parsed, requestId });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The worker that answered: the pid of the access line with this request id (awaited as printed). */
async function answeredBy(requestId: string): Promise<number> {
  const id = requestId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // One line with both the request id and the message, in any order; the pid's digits end at a
  // delimiter, so a line still arriving in pieces never yields half a pid.
  const line = new RegExp(
    `^(?=.*"reqId":"${id}")(?=.*"msg":"request completed").*?"pid":(\\d+)[,}]`,
    'm',
  );
  return Number((await waitForOutput(line, primary))[1]);
}

async function request(
  method: 'GET' | 'POST',
  pathname: string,
  options: { body?: unknown; headers?: Record<string, string>; from?: string } = {},
): Promise<Answer> {
  const { requestId, ...answer } = await send(method, pathname, options);
  return { ...answer, pid: await answeredBy(requestId) };
}

async function gql(
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<Answer> {
  return request('POST', '/graphql', { body: { query, variables }, headers });
}

async function gqlOk(query: string, variables: Record<string, unknown> = {}): Promise<any> {
  const res = await gql(query, variables);
  if (res.status !== 200 || res.body?.errors)
    throw new Error(`GraphQL failed (${res.status}): ${JSON.stringify(res.body)}`);
  return res.body.data;
}

let shifts = 0;
/** A new shift of the owner, an hour after the previous one (shifts of a user may not overlap). */
function shiftInput(notes: string): Record<string, unknown> {
  const start = Date.UTC(2026, 2, 1) + shifts++ * 3_600_000;
  return {
    projectId: project,
    start: new Date(start).toISOString(),
    stop: new Date(start + 1_800_000).toISOString(),
    notes,
  };
}
const CREATE_SHIFT =
  'mutation($input: CreateShiftInput!) { createShift(input: $input) { shift { id notes } } }';

/** Sends requests on new connections until each worker has answered one that `accept`s. */
async function fromEveryWorker(
  attempt: (i: number) => Promise<{ pid: number } | undefined>,
  pids: readonly number[] = workerPids,
): Promise<Map<number, number>> {
  const seen = new Map<number, number>();
  for (let i = 0; i < 20 && seen.size < pids.length; i++) {
    const got = await attempt(i);
    if (got) seen.set(got.pid, (seen.get(got.pid) ?? 0) + 1);
  }
  return seen;
}

maybe('serve --workers 2 %s', (_setup, databaseEnv) => {
  beforeAll(async () => {
    // The tests of the set-up before left their processes and mails behind.
    workerPids.length = 0;
    mails.length = 0;
    const smtp = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      authOptional: true,
      logger: false,
      onData: (stream, _session, callback) => {
        let raw = '';
        stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
        stream.on('end', () => {
          mails.push({ messageId: /^Message-ID: *(.+)$/im.exec(raw)?.[1]?.trim() ?? '' });
          for (const wake of mailArrivals.splice(0)) wake();
          callback();
        });
      },
    });
    smtps.push(smtp);
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const smtpPort = (smtp.server.address() as AddressInfo).port;

    // A fresh database: the primary migrates it before any worker starts.
    const target = await createTestDatabaseTarget();
    targets.push(target);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'timetrack-workers-'));
    dataDirs.push(dataDir);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...databaseEnv(target.env.DATABASE_URL!),
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      PASSWORD_HASH_MEMORY_KIB: '1024',
      RATE_LIMIT_PER_ADDRESS: String(PER_ADDRESS),
      RATE_LIMIT_WINDOW_S: '3600',
      TRUST_PROXY: 'loopback',
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      OUTBOX_POLL_MS: '100',
    };
    delete env.WORKERS;
    primary = run('serve --workers 2', ['serve', '--workers', '2'], env);
    const announced = await waitForOutput(
      /timetrack listening on (http:\/\/\S+) with 2 workers/,
      primary,
    );
    url = announced[1]!;
    port = Number(new URL(url).port);
    for (const m of primary.output().matchAll(/worker (\d+): timetrack listening on (\S+)/g)) {
      expect(m[2]).toBe(url);
      workerPids.push(Number(m[1]));
    }
    expect(workerPids).toHaveLength(2);
    for (const pid of workerPids) knownWorkerPids.add(pid);
    expect(workerPids).not.toContain(primary.child.pid);

    // The account (a paid plan, so creating staff queues e-mails), made while the service runs.
    owner = { login: `owner_${path.basename(dataDir).replace(/\W/g, '_')}`, password: PASSWORD };
    const create = run(
      'account create',
      [
        ...['account', 'create', '--login', owner.login, '--password', PASSWORD],
        ...['--email', 'owner@example.com', '--staff-max', '50'],
      ],
      env,
    );
    const created = await create.exited;
    expect({ code: created, output: created === 0 ? '' : create.output() }).toEqual({
      code: 0,
      output: '',
    });

    pool = new Client({ connectionString: target.env.DATABASE_URL });
    await pool.connect();

    const { createCompany } = await gqlOk(
      'mutation { createCompany(input: { name: "Workers Co", visibility: PUBLIC }) { company { id } } }',
    );
    project = (
      await gqlOk(
        'mutation($c: ID!) { createProject(input: { companyId: $c, name: "Cluster", visibility: PUBLIC }) { project { id } } }',
        { c: createCompany.company.id },
      )
    ).createProject.project.id;
  }, 120_000);

  afterAll(async () => {
    await pool?.end();
  });

  test('the primary migrated the fresh database and announced one URL; both workers answer requests', async () => {
    const migrations = await pool.query<{ n: number }>(
      'select count(*)::int as n from mikro_orm_migrations',
    );
    expect(migrations.rows[0]!.n).toBeGreaterThan(0);
    expect(primary.output().match(/with 2 workers/g)).toHaveLength(1);

    const answered = await fromEveryWorker(async () => {
      const res = await gql('{ viewer { staff { login } } }');
      expect(res.status).toBe(200);
      expect(res.body.data.viewer.staff.login).toBe(owner.login);
      return res;
    });
    expect([...answered.keys()].sort()).toEqual([...workerPids].sort());
  });

  test('an Idempotency-Key sent on two connections at once, to both workers, writes one shift', async () => {
    let pair: Answer[] | undefined;
    for (let attempt = 0; attempt < 5 && !pair; attempt++) {
      const notes = `idempotent-${attempt}`;
      const input = shiftInput(notes);
      const key = `workers-key-${process.pid}-${attempt}`;
      const answers = await Promise.all(
        [0, 1].map(() => gql(CREATE_SHIFT, { input }, { 'Idempotency-Key': key })),
      );
      for (const a of answers) expect(a).toMatchObject({ status: 200, body: { data: {} } });
      expect(answers[0]!.body.data.createShift.shift.id).toBe(
        answers[1]!.body.data.createShift.shift.id,
      );
      const stored = await pool.query('select id from shifts where notes = $1', [notes]);
      expect(stored.rows).toHaveLength(1);
      // The primary hands connections out in turn; if both went to one worker, once more.
      if (answers[0]!.pid !== answers[1]!.pid) pair = answers;
    }
    expect(pair).toBeDefined();
  });

  test('the rate limit of a client address is one count across both workers', async () => {
    const from = '203.0.113.77';
    const answers: Answer[] = [];
    for (let i = 0; i < PER_ADDRESS + 2; i++)
      answers.push(await request('GET', '/api/1/projects.json', { from }));
    const admitted = answers.filter((a) => a.status === 200);
    expect(answers.map((a) => a.status)).toEqual([
      ...Array<number>(PER_ADDRESS).fill(200),
      429,
      429,
    ]);
    // The admitted ones were served by both workers, which together admitted exactly the limit.
    expect(new Set(admitted.map((a) => a.pid))).toEqual(new Set(workerPids));
  });

  test('a subscription on one worker hears shifts created through either worker (LISTEN/NOTIFY)', async () => {
    const socket = new GraphQLSocket(url, basicAuthorization(owner));
    try {
      await socket.connected();
      const live = socket.subscribe(
        'subscription { shiftEvents { kind shift: snapshot { id: shiftId notes } } }',
        (data) => data.shiftEvents as { kind: string; shift: { id: string; notes: string } },
      );
      let primes = 0;
      await live.primed(() => gqlOk(CREATE_SHIFT, { input: shiftInput(`prime-${primes++}`) }));
      // The socket sits on one of the two workers; a shift created on each worker is heard, so
      // at least one arrived from the other process.
      const heard = await fromEveryWorker(async (i) => {
        const notes = `live-${i}`;
        const res = await gql(CREATE_SHIFT, { input: shiftInput(notes) });
        expect(res).toMatchObject({ status: 200, body: { data: { createShift: {} } } });
        const event = await live.heard((e) => e.shift.notes === notes);
        expect(event).toMatchObject({
          kind: 'SHIFT_CREATED',
          shift: { id: res.body.data.createShift.shift.id },
        });
        return res;
      });
      expect([...heard.keys()].sort()).toEqual([...workerPids].sort());
      expect(live.errors).toEqual([]);
    } finally {
      await socket.dispose();
    }
  });

  test('e-mails queued through both workers are each sent once, though each worker runs a sender', async () => {
    const pids = new Set<number>();
    for (let i = 0; i < EMAILS; i++) {
      const res = await gql(
        'mutation($input: CreateStaffInput!) { createStaff(input: $input) { staff { id } } }',
        {
          input: {
            login: `mailed_${i}_${owner.login}`,
            password: PASSWORD,
            firstName: 'Mailed',
            lastName: String(i),
          },
        },
      );
      expect(res).toMatchObject({ status: 200, body: { data: { createStaff: {} } } });
      pids.add(res.pid);
    }
    expect(pids).toEqual(new Set(workerPids));
    const sent = await eventually('every e-mail sent', async () => {
      const rows = await pool.query<{ uuid: string; sent_at: Date | null }>(
        "select uuid, sent_at from outbox where kind = 'email'",
      );
      return rows.rows.length === EMAILS && rows.rows.every((r) => r.sent_at)
        ? rows.rows
        : undefined;
    });
    while (mails.length < EMAILS) await new Promise<void>((resolve) => mailArrivals.push(resolve));
    expect(mails.map((m) => m.messageId).sort()).toEqual(
      sent.map((r) => `<${r.uuid}@timetrack.outbox>`).sort(),
    );
    // Once every process has stopped (the last test), no second copy can be on its way; that
    // test counts again.
  });

  test('a killed worker is replaced and the service answers throughout', async () => {
    const victim = workerPids[0]!;
    process.kill(victim, 'SIGKILL');
    await waitForOutput(
      new RegExp(
        `worker ${victim} exited unexpectedly with signal SIGKILL; starting another in \\d+ ms`,
      ),
      primary,
    );
    // Meanwhile the service answers (the other worker, or already the replacement).
    const during = await gql('{ viewer { staff { login } } }');
    expect(during.status).toBe(200);
    expect(during.pid).not.toBe(victim);

    // The announcement of a worker whose pid is none of those known so far.
    const started = await waitForOutput(
      new RegExp(
        `worker (?!(?:${[...knownWorkerPids].join('|')})\\b)(\\d+): timetrack listening on (\\S+)`,
      ),
      primary,
    );
    const replacement = Number(started[1]);
    knownWorkerPids.add(replacement);
    // On the same port: the primary holds the socket, also with PORT=0.
    expect(started[2]).toBe(url);
    expect(alive(victim)).toBe(false);
    workerPids.splice(0, 1, replacement);
    const answered = await fromEveryWorker(async () => {
      const res = await gql('{ viewer { staff { login } } }');
      expect(res.status).toBe(200);
      return res;
    });
    expect([...answered.keys()].sort()).toEqual([...workerPids].sort());
  });

  test('SIGTERM to the primary stops every worker cleanly, and the primary exits 0', async () => {
    primary.child.kill('SIGTERM');
    expect(await primary.exited).toBe(0);
    const output = primary.output();
    expect(output).toMatch(/SIGTERM received: stopping 2 worker\(s\)/);
    for (const pid of workerPids) expect(output).toContain(`worker ${pid}: stopped cleanly`);
    expect(output).toMatch(/stopped cleanly: every worker has exited\n$/);
    expect(output).not.toMatch(/unexpected error/);
    for (const pid of knownWorkerPids) expect(alive(pid)).toBe(false);
    // Still one copy of each e-mail, now that no sender is left.
    expect(mails).toHaveLength(EMAILS);
  });
});
