import { Client } from 'pg';
import request from 'supertest';
import { mapDatabaseError } from '../../src/db/database-errors';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';
import { lockWaitCount } from '../support/lock-holder';

/**
 * Issue 20, finding 4: one account could starve the others. One staff member's 400 concurrent
 * punch-ins, or one owner's 12 concurrent reports, took every pooled connection while another
 * account's `GET /api/1/projects.json` waited 10-14 s and then failed with 503. Each account now
 * has a fair share: places in flight (then a queue, then 429 with Retry-After), a cap on its
 * database connections, and a lane of its own for heavy work (reports, CSV exports).
 *
 * No timing here: requests are held open by holding the places themselves (the app's
 * FairShareLimiter) or, on PostgreSQL, by a row lock the test holds, and every step waits for a
 * state (a count of waiters), never for the clock.
 */

/** Waits, without a clock, until `condition` holds (each round lets I/O and other tasks run). */
async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setImmediate(resolve));
}

const REPORT = `query($input: ReportInput!) { report(input: $input) { totalCount totals { seconds } } }`;
// Grouped by activity: an aggregate over the shifts, heavy work (a report by project is read from
// the rollups, which needs no turn in the lane).
const REPORT_INPUT = {
  from: '2026-01-01T00:00:00Z',
  to: '2026-02-01T00:00:00Z',
  timeZone: 'UTC',
  groupBy: ['ACTIVITY'],
};

describe('places in flight and the heavy-work lane (both databases)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      ACCOUNT_MAX_IN_FLIGHT: '3',
      ACCOUNT_QUEUE_MAX: '2',
      HEAVY_WORK_MAX: '2',
      HEAVY_WORK_PER_ACCOUNT: '1',
      HEAVY_WORK_QUEUE_MAX: '1',
    });
  });
  afterAll(() => t?.close());

  const projects = (who: Credentials) =>
    request(t.app.express).get('/api/1/projects.json').auth(who.login, who.password);
  const report = (who: Credentials) =>
    request(t.app.express)
      .post('/graphql')
      .auth(who.login, who.password)
      .send({ query: REPORT, variables: { input: REPORT_INPUT } });

  test('past its places in flight and its queue an account gets 429 with Retry-After on every interface; another account is served; the queued are served when places free up', async () => {
    const [busy, other] = [await t.newAccount(), await t.newAccount()];
    // Three requests of `busy` in flight, held open by the test.
    const holder = new AbortController();
    for (let i = 0; i < 3; i++) await t.app.fairShare.admit(busy.accountId, holder.signal);

    // The next two wait their turn.
    const queued = [projects(busy), projects(busy)].map((r) => r.then((res) => res));
    await until(() => t.app.fairShare.waitingOf(busy.accountId) === 2);

    // Past the queue: 429 at once, on each interface, with Retry-After.
    const json = await projects(busy);
    expect(json.status).toBe(429);
    expect(json.headers['retry-after']).toBe('1');
    expect(json.body.error).toMatchObject({ code: 'TOO_MANY_REQUESTS', status: 429 });
    expect(json.body.error.message).toMatch(/Too many requests of this account at once/);
    const graphql = await request(t.app.express)
      .post('/graphql')
      .auth(busy.login, busy.password)
      .send({ query: '{ viewer { staff { login } } }' });
    expect(graphql.status).toBe(429);
    expect(graphql.headers['retry-after']).toBe('1');
    expect(graphql.body.errors[0].extensions.code).toBe('TOO_MANY_REQUESTS');
    const xml = await request(t.app.express).get('/projects.xml').auth(busy.login, busy.password);
    expect(xml.status).toBe(429);
    expect(xml.headers['retry-after']).toBe('1');

    // Another account is served meanwhile.
    expect((await projects(other)).status).toBe(200);

    // The places free up: the queued requests are served.
    holder.abort();
    expect((await Promise.all(queued)).map((r) => r.status)).toEqual([200, 200]);
    await until(() => t.app.fairShare.inFlightOf(busy.accountId) === 0);
  });

  test('reports and CSV exports of an account run one at a time; past the lane they get 429, plain requests and other accounts go on', async () => {
    const [busy, other, third] = [await t.newAccount(), await t.newAccount(), await t.newAccount()];
    // A report of `busy` is running, held open by the test.
    let finish!: () => void;
    const running = t.app.fairShare.heavyWork(busy.accountId)(
      () => new Promise<void>((resolve) => (finish = resolve)),
    );

    // The next one waits for it.
    const queued = report(busy).then((res) => res);
    await until(() => t.app.fairShare.heavyWaitingOf(busy.accountId) === 1);

    // Past the account's queue: 429 with Retry-After, for GraphQL and both CSV downloads.
    const refused = await report(busy);
    expect(refused.status).toBe(200);
    expect(refused.body.errors[0].extensions).toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      retryAfterSeconds: 5,
    });
    const reportCsv = await request(t.app.express)
      .get('/api/1/report.csv')
      .query({ from: REPORT_INPUT.from, to: REPORT_INPUT.to, group_by: 'activity' })
      .auth(busy.login, busy.password);
    expect(reportCsv.status).toBe(429);
    expect(reportCsv.headers['retry-after']).toBe('5');
    expect(reportCsv.body.error).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    const shiftsCsv = await request(t.app.express)
      .get('/api/1/shifts.csv')
      .auth(busy.login, busy.password);
    expect(shiftsCsv.status).toBe(429);

    // A plain request of the same account is not heavy work, nor is a report the rollups
    // answer; another account's report has its own place (two in the process, one taken).
    expect((await projects(busy)).status).toBe(200);
    const fromRollups = await request(t.app.express)
      .post('/graphql')
      .auth(busy.login, busy.password)
      .send({ query: REPORT, variables: { input: { ...REPORT_INPUT, groupBy: ['PROJECT'] } } });
    expect(fromRollups.body.errors).toBeUndefined();
    expect(t.app.fairShare.heavyWaitingOf(busy.accountId)).toBe(1);
    const answer = await report(other);
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data.report.totalCount).toBe(0);

    // With both places of the process taken, a third account's report waits (it is not refused).
    let finishOther!: () => void;
    const otherRunning = t.app.fairShare.heavyWork(other.accountId)(
      () => new Promise<void>((resolve) => (finishOther = resolve)),
    );
    await until(() => finishOther !== undefined);
    const waiting = report(third).then((res) => res);
    await until(() => t.app.fairShare.heavyWaitingInProcess() === 1);
    finishOther();
    await otherRunning;
    expect((await waiting).body.errors).toBeUndefined();

    // The held report ends: the queued one runs.
    finish();
    await running;
    const served = await queued;
    expect(served.body.errors).toBeUndefined();
    expect(served.body.data.report.totalCount).toBe(0);
  });
});

/**
 * On a PostgreSQL server, the starvation itself: requests of one account held inside their
 * transactions by a row lock the test holds, each keeping a pooled connection, as a flood does.
 * Before the fix they took every connection, and another account's request failed with 503 once
 * the pool's acquire timeout passed. The embedded database has one connection, which the test
 * cannot hold without stopping everything, so these run with TEST_DATABASE_URL only.
 */
const onServer = process.env.TEST_DATABASE_URL ? describe : describe.skip;

onServer('one account cannot take every database connection (PostgreSQL)', () => {
  const FLOOD = 6;

  async function floodWhileLocked(
    t: TestApp,
  ): Promise<{ flood: request.Response[]; other: request.Response }> {
    const owner = await t.newAccount();
    const staff = await t.newStaff(owner);
    const { createCompany } = await t.gqlOk(
      owner,
      'mutation { createCompany(input: { name: "Flood Co", visibility: PUBLIC }) { company { id } } }',
    );
    const { createProject } = await t.gqlOk(
      owner,
      'mutation($c: ID!) { createProject(input: { companyId: $c, name: "Flood", visibility: PUBLIC }) { project { id } } }',
      { c: createCompany.company.id },
    );
    const other = await t.newAccount();
    const url = (t.config.database as { url: string }).url;
    const locker = new Client({ connectionString: url });
    const watcher = new Client({ connectionString: url });
    await Promise.all([locker.connect(), watcher.connect()]);
    try {
      // Every punch-in of the staff member stops at the lock on the user's row, in its transaction.
      await locker.query('begin');
      await locker.query('select id from users where account_id = $1 and id = $2 for update', [
        owner.accountId,
        staff.legacyId,
      ]);
      const flood = Array.from({ length: FLOOD }, () =>
        request(t.app.express)
          .post(`/api/1/projects/${createProject.project.id}/punch_in.json`)
          .auth(staff.login, staff.password)
          .send({})
          .then((res) => res),
      );
      // Until every request of the flood is parked: at the lock, waiting for a connection (in the
      // pool's queue, or for the account's share of it), or in the account's own queue.
      const pool = (t.db.orm.em.getConnection().getKnex().client as any).pool;
      await until(async () => {
        const parked =
          (await lockWaitCount(watcher)) +
          pool.numPendingAcquires() +
          (t.db.lanes?.waiting() ?? 0) +
          (t.app.fairShare?.waitingOf(owner.accountId) ?? 0);
        return parked === FLOOD;
      });
      const answer = await request(t.app.express)
        .get('/api/1/projects.json')
        .auth(other.login, other.password);
      await locker.query('rollback');
      return { flood: await Promise.all(flood), other: answer };
    } finally {
      await locker.query('rollback').catch(() => undefined);
      await Promise.all([locker.end(), watcher.end()]);
    }
  }

  const outcomes = (answers: request.Response[]) =>
    answers.map((a) => (a.status === 200 ? '200' : `${a.status} ${a.body?.error?.code}`)).sort();

  test('places in flight: the flood waits in its own queue, holding no connection; another account is served', async () => {
    const t = await startTestApp({
      DB_POOL_MAX: '4',
      DB_ACQUIRE_TIMEOUT_MS: '2000',
      ACCOUNT_MAX_IN_FLIGHT: '2',
      DB_CONNECTIONS_PER_ACCOUNT: '0',
    });
    try {
      const { flood, other } = await floodWhileLocked(t);
      expect(other.status).toBe(200);
      expect(outcomes(flood)).toEqual(['200', ...Array(FLOOD - 1).fill('422 PUNCHED_IN')]);
    } finally {
      await t.close();
    }
  });

  test('connections per account: the flood waits for its own connections; another account is served', async () => {
    const t = await startTestApp({
      DB_POOL_MAX: '4',
      DB_ACQUIRE_TIMEOUT_MS: '10000',
      ACCOUNT_MAX_IN_FLIGHT: '0',
      DB_CONNECTIONS_PER_ACCOUNT: '2',
    });
    try {
      const { flood, other } = await floodWhileLocked(t);
      expect(other.status).toBe(200);
      expect(outcomes(flood)).toEqual(['200', ...Array(FLOOD - 1).fill('422 PUNCHED_IN')]);
    } finally {
      await t.close();
    }
  });
});

describe('closing the database', () => {
  test('a query waiting for a connection fails at once with 503 when the database closes, not when its wait would end', async () => {
    const t = await startTestApp({ DB_POOL_MAX: '1' });
    let release = () => {};
    let holding = () => {};
    const held = new Promise<void>((resolve) => (holding = resolve));
    // The transaction's callback runs once BEGIN has taken the pool's one connection.
    const holder = t.db.orm.em.fork().transactional(
      () =>
        new Promise<void>((resolve) => {
          release = resolve;
          holding();
        }),
    );
    try {
      await held;
      const waiting = t.db.orm.em
        .getConnection()
        .execute('select 1')
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      await until(() => t.db.lanes.waiting() >= 1);
      // The database closes while the transaction still holds its connection: the waiting query
      // fails now (the test's 120 s acquire wait and the holder both still ahead of it).
      const closing = t.db.close();
      const error = await waiting;
      expect(String(error)).toContain('the pool is closed');
      expect(mapDatabaseError(error)?.code).toBe('SERVICE_UNAVAILABLE');
      release();
      await holder;
      await closing;
    } finally {
      release();
      await t.close();
    }
  });
});
