import request from 'supertest';
import { proxiedDatabase, type ProxiedDatabase } from '../support/proxied-database';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * PostgreSQL goes away under load and comes back. A TCP proxy between the app and the database
 * (the embedded one, or a database of TEST_DATABASE_URL) plays the network: `cut` is a stopped
 * server (every connection dropped, new ones refused), `blackhole` a partition (nothing answers).
 * While it is gone every request answers 503 / SERVICE_UNAVAILABLE within seconds, never 500 and
 * never a hang; when it returns the same process serves again within 2 s; every write that was
 * answered 2xx is in the database, whole.
 */

jest.setTimeout(120_000);

/**
 * `refused`: a punch the domain refused (PUNCHED_IN, PUNCHED_OUT). After an outage the client
 * cannot know whether a punch answered 503 was committed, so its next punch may meet that.
 */
type Outcome = 'ok' | 'unavailable' | 'refused' | 'error' | 'hang' | 'network';

interface Sample {
  kind: string;
  started: number;
  finished: number;
  status: number;
  outcome: Outcome;
  detail: string;
}

const REQUEST_TIMEOUT_MS = 15_000;

class Load {
  readonly samples: Sample[] = [];
  private running = true;
  private workers: Promise<void>[] = [];
  private sequence = 0;

  constructor(
    private readonly url: string,
    private readonly owner: Credentials,
  ) {}

  next(): number {
    this.sequence += 1;
    return this.sequence;
  }

  start(worker: (load: Load) => Promise<void>, count = 1): void {
    for (let i = 0; i < count; i += 1) {
      this.workers.push(
        (async () => {
          while (this.running) {
            await worker(this);
            await new Promise((r) => setTimeout(r, 5));
          }
        })(),
      );
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.workers);
  }

  private authorization(): string {
    return `Basic ${Buffer.from(`${this.owner.login}:${this.owner.password}`).toString('base64')}`;
  }

  /** One GraphQL request; 503 or every error SERVICE_UNAVAILABLE counts as unavailable. */
  async gql(
    kind: string,
    query: string,
    variables: Record<string, unknown> = {},
  ): Promise<{ outcome: Outcome; data?: any }> {
    return this.request(kind, '/graphql', { query, variables }, 'POST', (status, body) => {
      const errors = (body as { errors?: { extensions?: { code?: string } }[] } | undefined)
        ?.errors;
      if (status === 200 && !errors?.length) return 'ok';
      if (
        status === 503 ||
        (errors?.length && errors.every((e) => e.extensions?.code === 'SERVICE_UNAVAILABLE'))
      )
        return 'unavailable';
      if (
        status === 200 &&
        errors?.length === 1 &&
        ['PUNCHED_IN', 'PUNCHED_OUT'].includes(errors[0]!.extensions?.code ?? '')
      )
        return 'refused';
      return 'error';
    });
  }

  /** One JSON-facade request; the facade maps SERVICE_UNAVAILABLE to 503 itself. */
  async json(
    kind: string,
    path: string,
    method: 'GET' | 'POST',
    body?: unknown,
  ): Promise<{ outcome: Outcome; data?: any }> {
    return this.request(kind, path, body, method, (status, answer) => {
      if (status === 200) return 'ok';
      const code = (answer as { error?: { code?: string } } | undefined)?.error?.code;
      return status === 503 && code === 'SERVICE_UNAVAILABLE' ? 'unavailable' : 'error';
    });
  }

  private async request(
    kind: string,
    path: string,
    body: unknown,
    method: string,
    classify: (status: number, body: unknown) => Outcome,
  ): Promise<{ outcome: Outcome; data?: any }> {
    const started = Date.now();
    let status = 0;
    let outcome: Outcome;
    let detail = '';
    let answer: any;
    try {
      const res = await fetch(`${this.url}${path}`, {
        method,
        headers: {
          authorization: this.authorization(),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      status = res.status;
      const text = await res.text();
      try {
        answer = JSON.parse(text);
      } catch {
        answer = text;
      }
      outcome = classify(status, answer);
      if (outcome !== 'ok') detail = text.slice(0, 300);
    } catch (error) {
      const e = error as Error;
      outcome = e.name === 'TimeoutError' ? 'hang' : 'network';
      detail = `${e.name}: ${e.message}`;
    }
    this.samples.push({ kind, started, finished: Date.now(), status, outcome, detail });
    return { outcome, data: outcome === 'ok' ? (answer?.data ?? answer) : undefined };
  }
}

/** What the load wrote and was told succeeded. */
interface Acknowledged {
  projects: string[];
  companies: string[];
  staff: string[];
  punchIns: string[];
  punchOuts: string[];
}

function startMixedLoad(
  load: Load,
  companyLegacyId: number,
  projectIds: number[],
  ack: Acknowledged,
): void {
  // Projects through GraphQL.
  load.start(async (l) => {
    const name = `outage-project-${l.next()}`;
    const { outcome } = await l.gql(
      'createProject',
      'mutation($input: CreateProjectInput!) { createProject(input: $input) { project { id } } }',
      {
        input: { companyLegacyId, name, visibility: 'PUBLIC' },
      },
    );
    if (outcome === 'ok') ack.projects.push(name);
  });
  // Companies through the JSON facade.
  load.start(async (l) => {
    const name = `outage-company-${l.next()}`;
    const { outcome } = await l.json('createCompany', '/api/1/companies.json', 'POST', {
      company: { name },
    });
    if (outcome === 'ok') ack.companies.push(name);
  });
  // Staff on a paid plan: the user and the owner's confirmation e-mail commit together.
  load.start(async (l) => {
    const login = `outage-staff-${l.next()}`;
    const { outcome } = await l.gql(
      'createStaff',
      'mutation($input: CreateStaffInput!) { createStaff(input: $input) { staff { id } } }',
      {
        input: { login, password: 'staff-password', firstName: 'Sam', lastName: 'Staff' },
      },
    );
    if (outcome === 'ok') ack.staff.push(login);
  });
  // Punching in and out, round the projects: each punch-in also stops the running shift.
  let turn = 0;
  load.start(async (l) => {
    turn += 1;
    const project = projectIds[turn % projectIds.length]!;
    const n = l.next();
    const inNote = `[in-${n}]`;
    const punchedIn = await l.gql(
      'punchIn',
      'mutation($id: Int!, $notes: String) { punchIn(input: { project: { legacyId: $id }, notes: $notes }) { project { running } } }',
      {
        id: project,
        notes: inNote,
      },
    );
    if (punchedIn.outcome !== 'ok') return;
    ack.punchIns.push(inNote);
    const outNote = `[out-${n}]`;
    const punchedOut = await l.gql(
      'punchOut',
      'mutation($id: Int!, $notes: String) { punchOut(input: { project: { legacyId: $id }, notes: $notes }) { project { running } } }',
      {
        id: project,
        notes: outNote,
      },
    );
    if (punchedOut.outcome === 'ok') ack.punchOuts.push(outNote);
  });
  // Reads: GraphQL with totals, and the JSON list.
  load.start(async (l) => {
    await l.gql(
      'listProjects',
      '{ projects(first: 20) { totalCount nodes { name grandTotal running } } }',
    );
  });
  load.start(async (l) => {
    await l.json('listShifts', '/api/1/shifts.json', 'GET');
  });
}

async function waitUntil(
  what: string,
  condition: () => boolean,
  timeoutMs: number,
): Promise<number> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - started;
}

/** Outcomes with their HTTP statuses: `unavailable/503`, `unavailable/200` (GraphQL errors), `ok/200`... */
function summary(samples: Sample[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const s of samples)
    counts[`${s.outcome}/${s.status}`] = (counts[`${s.outcome}/${s.status}`] ?? 0) + 1;
  return counts;
}

/**
 * `cut`: with the default timeouts, a refused connection is a 503 at once. `blackhole`: nothing
 * answers, so only the timeouts end the wait: a query on an open connection after the driver's
 * timer (statement timeout + 5 s), a new connection after the connect timeout, a wait for the
 * pool after the acquire timeout.
 */
const MODES = [
  { mode: 'cut', env: {} },
  {
    mode: 'blackhole',
    env: {
      DB_STATEMENT_TIMEOUT_MS: '1000',
      DB_ACQUIRE_TIMEOUT_MS: '1500',
      DB_CONNECT_TIMEOUT_MS: '500',
    },
  },
] as const;

describe.each(MODES)('the database goes away ($mode) under load', ({ mode, env }) => {
  let t: TestApp;
  let db: ProxiedDatabase;
  let owner: Credentials & { accountId: number };
  const unhandled: unknown[] = [];
  const onUnhandled = (error: unknown) => unhandled.push(error);

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    process.on('uncaughtException', onUnhandled);
    db = await proxiedDatabase();
    t = await startTestApp(env, { target: db.target });
    owner = await t.newAccount({ staffMax: 100_000 });
  });

  afterAll(async () => {
    await db?.proxy.restore();
    // The app drops the database with itself; without an app, it is dropped here.
    if (t) await t.close();
    else await db?.target.drop();
    process.off('unhandledRejection', onUnhandled);
    process.off('uncaughtException', onUnhandled);
  });

  (mode === 'cut' ? test : test.skip)(
    'a connection dropped while idle in the pool is discarded quietly',
    async () => {
      const knex = t.db.orm.em.getConnection().getKnex();
      const pool = (knex.client as { pool: { numFree(): number } }).pool;
      const viewer = '{ viewer { staff { login } } }';
      // A first sign-in passes the sign-in limits, whose named statements get prepared on the connection.
      const early = await t.newStaff(owner);
      expect(await t.gqlOk(early, viewer)).toEqual({ viewer: { staff: { login: early.login } } });
      expect(pool.numFree()).toBeGreaterThan(0);
      await db.proxy.cut();
      // The driver sees the socket end on an idle client: knex's listener takes the 'error'.
      await new Promise((r) => setTimeout(r, 300));
      await db.proxy.restore();
      expect(unhandled).toEqual([]);
      // The dead connection is discarded on its next acquire and a new one replaces it, on which the
      // same statements can be prepared again (PGlite keeps one session for every connection).
      expect((await knex.raw('select 1 as one')).rows).toEqual([{ one: 1 }]);
      const late = await t.newStaff(owner);
      expect(await t.gqlOk(late, viewer)).toEqual({ viewer: { staff: { login: late.login } } });
    },
  );

  (mode === 'blackhole' ? test : test.skip)(
    'a connection whose query the driver gave up on is closed, not reused',
    async () => {
      const knex = t.db.orm.em.getConnection().getKnex();
      await knex.raw('select 1');
      const open = db.proxy.open;
      expect(open).toBeGreaterThan(0);
      await db.proxy.blackhole();
      // statement_timeout cannot be answered through a partition: the driver's timer (statement
      // + 5 s) ends the wait, as its own message says; how long that took is the benchmark's
      // business, not a test's (a busy machine stretches it).
      await expect(knex.raw('select 1')).rejects.toThrow(/Query read timeout/);
      // Closed at once: the next query must not queue behind the abandoned one for another timeout.
      await waitUntil('the abandoned connection to close', () => db.proxy.open === open - 1, 1000);
      await db.proxy.restore();
      expect((await knex.raw('select 1 as one')).rows).toEqual([{ one: 1 }]);
      expect(unhandled).toEqual([]);
    },
  );

  test('answers 503 while it is gone, recovers by itself, and loses no acknowledged write', async () => {
    const company = await t.gqlOk<{ createCompany: { company: { legacyId: number } } }>(
      owner,
      'mutation { createCompany(input: { name: "Outage Inc", visibility: PUBLIC }) { company { legacyId } } }',
    );
    const projectIds: number[] = [];
    for (const name of ['A', 'B', 'C']) {
      const p = await t.gqlOk<{ createProject: { project: { legacyId: number } } }>(
        owner,
        'mutation($input: CreateProjectInput!) { createProject(input: $input) { project { legacyId } } }',
        {
          input: {
            companyLegacyId: company.createCompany.company.legacyId,
            name: `punch-${name}`,
            visibility: 'PUBLIC',
          },
        },
      );
      projectIds.push(p.createProject.project.legacyId);
    }

    // The pool opened before the load: on a busy machine six connections opened at once can
    // outlast blackhole's 500 ms connect timeout while the database is still healthy.
    const warm = t.db.orm.em.getConnection().getKnex();
    const { max } = (warm.client as { pool: { max: number } }).pool;
    await Promise.all(Array.from({ length: max }, () => warm.raw('select pg_sleep(0.05)')));
    const url = await t.listen();
    const load = new Load(url, owner);
    const ack: Acknowledged = {
      projects: [],
      companies: [],
      staff: [],
      punchIns: [],
      punchOuts: [],
    };
    startMixedLoad(load, company.createCompany.company.legacyId, projectIds, ack);
    let cutAt = 0;
    let restoredAt = 0;
    let settledAt = 0;
    // Each phase lasts until what it is for has happened, not for a number of milliseconds: a
    // busy machine stretches every phase, and a fixed one would then prove nothing or fail.
    const kindsOf = (samples: Sample[]) => new Set(samples.map((s) => s.kind)).size;
    try {
      await waitUntil(
        'every kind of request answered before the cut',
        () => kindsOf(load.samples.filter((s) => s.outcome === 'ok')) === 7,
        60_000,
      );
      cutAt = Date.now();
      if (mode === 'cut') await db.proxy.cut();
      else await db.proxy.blackhole();
      // Down until every kind of request has met the outage (the timeouts end each wait); all but
      // punchOut, which is only asked after a punch-in succeeded.
      await waitUntil(
        'every kind of request answered 503',
        () =>
          kindsOf(load.samples.filter((s) => s.started >= cutAt && s.outcome === 'unavailable')) ===
          6,
        90_000,
      );
      restoredAt = Date.now();
      await db.proxy.restore();
      // Back once every kind of request has succeeded again ...
      await waitUntil(
        'every kind of request succeeding after the return',
        () =>
          kindsOf(
            load.samples.filter(
              (s) => s.started >= restoredAt && (s.outcome === 'ok' || s.outcome === 'refused'),
            ),
          ) === 7,
        60_000,
      );
      settledAt = Date.now();
      // ... and each asked once more after that.
      await waitUntil(
        'every kind of request after the return',
        () => kindsOf(load.samples.filter((s) => s.started >= settledAt)) === 7,
        60_000,
      );
    } finally {
      await load.stop();
    }

    const before = load.samples.filter((s) => s.finished < cutAt);
    // Asked and answered while the database was gone: each a 503 that a timeout ended, no hang.
    const during = load.samples.filter((s) => s.started >= cutAt && s.finished < restoredAt);
    const after = load.samples.filter((s) => s.started >= settledAt);
    const slowest = Math.max(
      ...load.samples.filter((s) => s.started >= cutAt).map((s) => s.finished - s.started),
    );
    // How long things took is printed for whoever reads the log; a busy machine moves it, so no
    // test asserts it (bench/ measures speed).
    const firstAfter = (from: number, outcome: Sample['outcome']) =>
      Math.min(
        ...load.samples
          .filter((s) => s.finished >= from && s.outcome === outcome)
          .map((s) => s.finished - from),
      );
    console.log(
      `${mode}: first 503 ${firstAfter(cutAt, 'unavailable')} ms after the cut; first success ${firstAfter(restoredAt, 'ok')} ms after the return; ` +
        `slowest answer after the cut ${slowest} ms; before ${JSON.stringify(summary(before))}, during ${JSON.stringify(summary(during))}, ` +
        `after ${JSON.stringify(summary(after))}; acknowledged ${JSON.stringify(Object.fromEntries(Object.entries(ack).map(([k, v]) => [k, v.length])))}`,
    );
    // Never a 500, a hang or a dropped connection; only successes, 503s and (see Outcome) refused punches.
    expect(
      load.samples.filter(
        (s) => s.outcome !== 'ok' && s.outcome !== 'unavailable' && s.outcome !== 'refused',
      ),
    ).toEqual([]);
    expect(before.length).toBeGreaterThan(0);
    expect(before.filter((s) => s.outcome !== 'ok')).toEqual([]);
    expect(during.length).toBeGreaterThan(0);
    expect(during.filter((s) => s.outcome !== 'unavailable')).toEqual([]);
    expect(after.length).toBeGreaterThan(0);
    expect(after.filter((s) => s.outcome !== 'ok' && s.outcome !== 'refused')).toEqual([]);
    // A punch refused because an earlier one answered 503 yet committed: rare, and only on punches.
    expect(
      load.samples.filter((s) => s.outcome === 'refused' && !s.kind.startsWith('punch')),
    ).toEqual([]);
    expect(new Set(after.map((s) => s.kind)).size).toBe(7);
    expect(unhandled).toEqual([]);

    // Nothing lost, nothing half-written.
    const knex = t.db.orm.em.getConnection().getKnex();
    const names = async (table: string, column: string, prefix: string): Promise<Set<string>> =>
      new Set(
        (
          (await knex(table).where(column, 'like', `${prefix}%`).select(column)) as Record<
            string,
            string
          >[]
        ).map((r) => r[column]!),
      );
    const projects = await names('projects', 'name', 'outage-project-');
    const companies = await names('companies', 'name', 'outage-company-');
    const staff = await names('users', 'login', 'outage-staff-');
    expect(ack.projects.filter((n) => !projects.has(n))).toEqual([]);
    expect(ack.companies.filter((n) => !companies.has(n))).toEqual([]);
    expect(ack.staff.filter((n) => !staff.has(n))).toEqual([]);
    // Every user has the confirmation e-mail that committed with it, and no e-mail lacks its user.
    const mails = (await knex('outbox')
      .where({ account_id: owner.accountId, kind: 'email' })
      .select('payload')) as { payload: { text: string } }[];
    const mailed = mails.map((m) => /\(login "([^"]+)"\)/.exec(m.payload.text)?.[1]).sort();
    const members = (
      (await knex('users')
        .where({ account_id: owner.accountId })
        .whereNot({ type: 'owner' })
        .select('login')) as { login: string }[]
    ).map((u) => u.login);
    expect(mailed).toEqual(members.sort());
    // Every acknowledged punch-in is one shift; every acknowledged punch-out stopped it.
    const shifts = (await knex('shifts')
      .where({ account_id: owner.accountId })
      .select('notes', 'stop', 'project_id')) as {
      notes: string | null;
      stop: Date | null;
      project_id: number;
    }[];
    const withNote = (note: string) => shifts.filter((s) => s.notes?.includes(note));
    expect(ack.punchIns.filter((note) => withNote(note).length !== 1)).toEqual([]);
    expect(
      ack.punchOuts.filter(
        (note) => withNote(note).length !== 1 || withNote(note)[0]!.stop === null,
      ),
    ).toEqual([]);
    expect(shifts.filter((s) => s.stop === null).length).toBeLessThanOrEqual(1);
    // Every project has its company, every shift its project.
    const orphanProjects = await knex('projects as p')
      .leftJoin('companies as c', 'c.id', 'p.company_id')
      .whereNull('c.id')
      .count({ n: '*' });
    const orphanShifts = await knex('shifts as s')
      .leftJoin('projects as p', 'p.id', 's.project_id')
      .whereNull('p.id')
      .count({ n: '*' });
    expect(Number(orphanProjects[0]!.n) + Number(orphanShifts[0]!.n)).toBe(0);
    // The totals the triggers keep match the shifts: no statement half-applied.
    const kept = await knex.raw(
      `select project_id, user_id, stopped_seconds::text as s from project_user_totals where account_id = ? and stopped_seconds <> 0 order by 1, 2`,
      [owner.accountId],
    );
    const recomputed = await knex.raw(
      `select project_id, user_id, sum(extract(epoch from stop - start))::text as s from shifts where account_id = ? and stop is not null group by 1, 2 having sum(extract(epoch from stop - start)) <> 0 order by 1, 2`,
      [owner.accountId],
    );
    const rows = (r: { rows: { project_id: number; user_id: number; s: string }[] }) =>
      r.rows.map((x) => [x.project_id, x.user_id, Number(x.s)]);
    expect(rows(kept)).toEqual(rows(recomputed));
    // The app never crashed: it still answers, and nothing was left unhandled.
    expect(await t.gqlOk(owner, '{ viewer { staff { login } } }')).toEqual({
      viewer: { staff: { login: owner.login } },
    });
    expect(unhandled).toEqual([]);
  });
});

/**
 * Issue 20, item 15: docs/operations.md says that in a partition new requests fail after the
 * connect timeout (3 s), but one measured 10.1 s: requests queued for a pooled connection waited
 * for the pool's acquire timeout (then 10 s by default) behind the connections stuck in the
 * partition. The acquire timeout now defaults to the connect timeout. How long an answer took is
 * the benchmark's business; this checks the timeouts the pool was built with, and that every
 * request of a partition ends in a 503 SERVICE_UNAVAILABLE.
 */
describe('a partition with the default timeouts', () => {
  let t: TestApp;
  let db: ProxiedDatabase;
  let owner: Credentials;

  beforeAll(async () => {
    db = await proxiedDatabase();
    // One account sends more requests at once than the pool has connections: its share of
    // requests in flight (issue 20, finding 4) must not queue them, this is about the pool's wait.
    // The production default wait for a connection (test apps otherwise wait longer, for busy
    // CI machines): this describes the partition a deployment with the defaults sees.
    t = await startTestApp(
      { ACCOUNT_MAX_IN_FLIGHT: '100', DB_ACQUIRE_TIMEOUT_MS: '10000' },
      { target: db.target },
    );
    owner = await t.newAccount();
  });
  afterAll(async () => {
    await db?.proxy.restore();
    if (t) await t.close();
    else await db?.target.drop();
  });

  test('every request of a partition ends in 503: a wait for the pool after the acquire timeout', async () => {
    const knex = t.db.orm.em.getConnection().getKnex();
    const client = knex.client as {
      pool: { acquireTimeoutMillis: number; max: number; numUsed(): number; numFree(): number };
      connectionSettings: { connectionTimeoutMillis: number };
    };
    expect(t.config.db.connectTimeoutMs).toBe(3_000);
    expect(client.connectionSettings.connectionTimeoutMillis).toBe(3_000);
    expect(client.pool.acquireTimeoutMillis).toBe(10_000);

    const projects = () =>
      request(t.app.express).get('/api/1/projects.json').auth(owner.login, owner.password);
    // Signed in (the credentials are cached) and a connection in the pool.
    expect((await projects()).status).toBe(200);
    // Only the connections open now can hold a request in the partition; every other request
    // waits for the pool or for a new connection, and must give up with 503 before it ends.
    const open = client.pool.numUsed() + client.pool.numFree();
    await db.proxy.blackhole();
    // More requests than the pool has connections: some hold one and wait for the driver's timer
    // (DB_STATEMENT_TIMEOUT_MS + 5 s), the rest wait for the pool or for a new connection.
    const pending = Array.from({ length: client.pool.max + 2 }, () => projects().then((r) => r));
    // They all answer before the partition ends (a connection freed by the return would otherwise
    // serve a waiter whose timer is just due).
    const waiting = pending.length - open;
    let answered = 0;
    let wake = () => {};
    for (const p of pending)
      void p.then(() => {
        answered += 1;
        wake();
      });
    while (answered < waiting) await new Promise<void>((r) => (wake = r));
    // Back: the connections stuck in the partition are cut, and their requests end at once.
    await db.proxy.restore();
    for (const res of await Promise.all(pending)) {
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ error: { code: 'SERVICE_UNAVAILABLE', status: 503 } });
    }
    expect((await projects()).status).toBe(200);
  });
});
