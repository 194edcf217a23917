import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Client } from 'pg';
import request from 'supertest';
import { GraphQLSocket, basicAuthorization } from '../support/graphql-ws-session';
import { onDatabaseOf, replayedAll } from '../../bench/postgres-clients';
import {
  behindPooler,
  createTestDatabaseTarget,
  type TestDatabaseTarget,
} from '../support/test-database';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * The service behind PgBouncer in transaction mode with a streaming replica (issue 24), against
 * what `.ci/replica-and-pooler` starts beside the CI machine's PostgreSQL: a Debian cluster made by
 * pg_basebackup that only this file uses, since it pauses and stops it (TEST_PRIVATE_REPLICA_URL,
 * TEST_PRIVATE_REPLICA_CLUSTER for pg_ctlcluster), and PgBouncer (TEST_POOLER_URL). The app's
 * queries go through the pooler, its LISTEN connection straight to the primary
 * (DATABASE_SESSION_URL), its reports to the replica.
 *
 * Nothing waits on a clock for an assertion: the replica's replay is awaited by asking it, and the
 * app's replica check is run on demand (`refresh`) instead of waiting for its timer.
 */
const REPLICA = process.env.TEST_PRIVATE_REPLICA_URL;
const POOLER = process.env.TEST_POOLER_URL;
const CLUSTER = process.env.TEST_PRIVATE_REPLICA_CLUSTER;
const configured = Boolean(process.env.TEST_DATABASE_URL && REPLICA && POOLER && CLUSTER);
const maybe = configured ? describe : describe.skip;

test('CI runs these tests on PostgreSQL (.ci/run starts the replica and the pooler)', () => {
  if (process.env.CI === 'true' && process.env.TEST_DATABASE_URL) expect(configured).toBe(true);
});

const REPORT = `query($from: DateTimeISO!) {
  report(input: { from: $from, to: "2026-04-01T00:00:00Z", groupBy: [PROJECT] }) {
    totals { seconds }
  }
}`;
const CREATE_SHIFT = `mutation($input: CreateShiftInput!) {
  createShift(input: $input) { shift { id notes } }
}`;

async function connect(url: string): Promise<Client> {
  const client = new Client({ connectionString: url });
  // The replica's connection ends when the test stops it; its queries' own failures are enough.
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

maybe('behind PgBouncer with a streaming replica', () => {
  let target: TestDatabaseTarget;
  /** The test database on the primary, straight (not through the pooler). */
  let direct: string;
  let t: TestApp;
  let primary: Client;
  let replica: Client;
  let owner: Credentials;
  let writer: Credentials;
  let project: string;
  let shifts = 0;

  const replicaReads = () => t.db.replicas!.statuses()[0]!.reads;

  /** Waits until the replica has replayed everything written so far, then lets the app check it. */
  async function replicaCaughtUp(): Promise<void> {
    await replayedAll(primary, replica);
    await t.db.replicas!.refresh();
  }

  async function addShift(who: Credentials, hours = 1): Promise<void> {
    const start = Date.UTC(2026, 2, 1) + shifts++ * 2 * 3_600_000;
    await t.gqlOk(who, CREATE_SHIFT, {
      input: {
        projectId: project,
        start: new Date(start).toISOString(),
        stop: new Date(start + hours * 3_600_000).toISOString(),
        notes: `shift ${shifts}`,
      },
    });
  }

  async function reportSeconds(who: Credentials): Promise<number> {
    const data = await t.gqlOk(who, REPORT, { from: '2026-03-01T00:00:00Z' });
    return data.report.totals.seconds;
  }

  beforeAll(async () => {
    target = await createTestDatabaseTarget();
    direct = target.env.DATABASE_URL!;
    t = await startTestApp(
      {
        ...behindPooler(direct, POOLER!, REPLICA),
        // The paused-replay test holds the replica back for as long as a busy machine needs.
        REPLICA_MAX_LAG_MS: '600000',
      },
      { target },
    );
    primary = await connect(direct);
    replica = await connect(onDatabaseOf(REPLICA!, direct));
    owner = await t.newAccount();
    writer = await t.newStaff(owner, { type: 'MANAGER' });
    const company = await t.create(owner, 'createCompany', {
      name: 'Replicas Co',
      visibility: 'PUBLIC',
    });
    project = (
      await t.create(owner, 'createProject', {
        companyId: company.id,
        name: 'Replicated',
        visibility: 'PUBLIC',
      })
    ).id;
  }, 120_000);

  afterAll(async () => {
    await replica?.query('select pg_wal_replay_resume()').catch(() => undefined);
    await replica?.end();
    await primary?.end();
    await t?.close();
  });

  test('queries go through the pooler; the LISTEN connection goes straight to the primary', async () => {
    const listening = await primary.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity
        where datname = current_database() and query like 'LISTEN %' and state = 'idle'`,
    );
    expect(listening.rows[0]!.n).toBe(1);
    // PgBouncer's admin console: the test database's pool has served the app's queries.
    const admin = await connect(Object.assign(new URL(POOLER!), { pathname: '/pgbouncer' }).href);
    try {
      const database = new URL(direct).pathname.slice(1);
      const stats = await admin.query<{ database: string; total_query_count: string }>(
        'SHOW STATS',
      );
      const ours = stats.rows.find((row) => row.database === database);
      expect(Number(ours?.total_query_count)).toBeGreaterThan(10);
    } finally {
      await admin.end();
    }
  });

  test('a report is read from the replica, with the same answer as the primary', async () => {
    await addShift(owner, 2);
    await replicaCaughtUp();
    const before = replicaReads();
    expect(await reportSeconds(owner)).toBe(2 * 3600);
    expect(replicaReads()).toBe(before + 1);
    // A short list stays on the primary.
    await t.gqlOk(owner, '{ projects(first: 10) { nodes { id } } }');
    expect(replicaReads()).toBe(before + 1);
    const metrics = await request(t.app.express).get('/metrics');
    expect(metrics.text).toMatch(/^db_replica_reads_total\{replica="[^"]+"\} [1-9]/m);
    expect(metrics.text).toMatch(/^db_replica_streaming\{replica="[^"]+"\} 1$/m);
    expect(metrics.text).toMatch(/^db_replica_lag_seconds\{replica="[^"]+"\} [\d.e-]+$/m);
  });

  test('a caller who wrote never reads without their write; others may read the replica meanwhile', async () => {
    await replicaCaughtUp();
    const expected = await reportSeconds(owner);
    // The replica stops replaying: it is still streaming (within REPLICA_MAX_LAG_MS), but what is
    // written from now on is not on it.
    await replica.query('select pg_wal_replay_pause()');
    try {
      const before = replicaReads();
      let written = 0;
      for (let i = 0; i < 10; i++) {
        await addShift(writer);
        written += 3600;
        expect(await reportSeconds(writer)).toBe(expected + written);
      }
      // Every one of the writer's reads came from the primary...
      expect(replicaReads()).toBe(before);
      // ...while the owner, who has written nothing since the pause, reads the replica, which
      // does not have the writer's shifts yet.
      await t.db.replicas!.refresh();
      expect(await reportSeconds(owner)).toBe(expected);
      expect(replicaReads()).toBe(before + 1);
    } finally {
      await replica.query('select pg_wal_replay_resume()');
    }
    await replicaCaughtUp();
    const before = replicaReads();
    expect(await reportSeconds(writer)).toBe(await reportSeconds(owner));
    expect(replicaReads()).toBe(before + 2);
  });

  test('a replica further behind than REPLICA_MAX_LAG_MS is skipped until it catches up', async () => {
    const strict = await startTestApp(
      { ...behindPooler(direct, POOLER!, REPLICA), REPLICA_MAX_LAG_MS: '1' },
      { target: { ...target, drop: async () => {} } },
    );
    const replicas = strict.db.replicas!;
    try {
      // Other test files write to the same primary all the time, so with a 1 ms limit the replica
      // may be streaming or lagging now; after the pause and this test's write, only lagging.
      await replicaCaughtUp();
      const expected = await reportSeconds(owner);
      await replica.query('select pg_wal_replay_pause()');
      try {
        await addShift(writer);
        // Checks until one finds the replica lagging: the first samples the primary past the
        // replica, a later one finds that sample older than the 1 ms limit (a check's round trips
        // take that long). Polled, as lag is measured against the clock; the deadline ends a hang.
        const deadline = Date.now() + 30_000;
        do await replicas.refresh();
        while (replicas.statuses()[0]?.state !== 'lagging' && Date.now() < deadline);
        expect(replicas.statuses()[0]).toMatchObject({ state: 'lagging' });
        expect(replicas.statuses()[0]!.lagMs).toBeGreaterThan(1);
        const ready = await request(strict.app.express).get('/readyz');
        expect(ready.status).toBe(200);
        expect(ready.body.replicas[0].state).toBe('lagging');
        // The owner has written nothing since the pause, yet reads the primary, with the new shift.
        const before = replicas.statuses()[0]!.reads;
        const data = await strict.gqlOk(owner, REPORT, { from: '2026-03-01T00:00:00Z' });
        expect(data.report.totals.seconds).toBe(expected + 3600);
        expect(replicas.statuses()[0]!.reads).toBe(before);
      } finally {
        await replica.query('select pg_wal_replay_resume()');
      }
    } finally {
      await strict.close();
    }
  });

  test('a replica stopped mid-run: every read falls back to the primary, never a 5xx', async () => {
    await replicaCaughtUp();
    const expected = await reportSeconds(owner);
    let stopping = true;
    const answers: number[] = [];
    const answered: (() => void)[] = [];
    const reader = async () => {
      while (stopping) {
        const res = await t.gql(owner, REPORT, { from: '2026-03-01T00:00:00Z' });
        expect(res.errors).toBeUndefined();
        expect(res.status).toBe(200);
        answers.push(res.data!.report.totals.seconds);
        for (const wake of answered.splice(0)) wake();
      }
    };
    const readers = [reader(), reader(), reader()];
    try {
      await promisify(execFile)('pg_ctlcluster', [...CLUSTER!.split(' '), 'stop', '-m', 'fast']);
      // A few reads after the stop too, then the readers finish.
      const after = answers.length + 9;
      while (answers.length < after) await new Promise<void>((resolve) => answered.push(resolve));
    } finally {
      stopping = false;
      await Promise.allSettled(readers);
    }
    await Promise.all(readers);
    expect(new Set(answers)).toEqual(new Set([expected]));
    await t.db.replicas!.refresh();
    const ready = await request(t.app.express).get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.replicas).toEqual([
      { name: expect.stringContaining(':'), state: 'down', lagMs: null },
    ]);
    expect((await request(t.app.express).get('/metrics')).text).toMatch(
      /^db_replica_streaming\{replica="[^"]+"\} 0$/m,
    );

    // Started again, it streams and takes reads once more.
    await promisify(execFile)('pg_ctlcluster', [...CLUSTER!.split(' '), 'start']);
    await replica.end().catch(() => undefined);
    replica = await connect(onDatabaseOf(REPLICA!, direct));
    await replicaCaughtUp();
    const before = replicaReads();
    expect(await reportSeconds(owner)).toBe(expected);
    expect(replicaReads()).toBe(before + 1);
  }, 120_000);

  test('live events: a subscription hears a shift written through the pooler (LISTEN on the direct URL)', async () => {
    // A second app on the same database: its write's NOTIFY reaches the first app's LISTEN.
    const other = await startTestApp(behindPooler(direct, POOLER!), {
      target: { ...target, drop: async () => {} },
    });
    const socket = new GraphQLSocket(await t.listen(), basicAuthorization(owner));
    try {
      await socket.connected();
      const live = socket.subscribe(
        'subscription { shiftEvents { kind shift: snapshot { notes } } }',
        (data) => data.shiftEvents as { kind: string; shift: { notes: string } },
      );
      let primes = 0;
      await live.primed(() =>
        other.gqlOk(owner, CREATE_SHIFT, {
          input: {
            projectId: project,
            start: new Date(Date.UTC(2026, 5, 1) + primes * 3_600_000).toISOString(),
            stop: new Date(Date.UTC(2026, 5, 1) + primes * 3_600_000 + 60_000).toISOString(),
            notes: `from the other app ${primes++}`,
          },
        }),
      );
      expect(live.received[0]).toMatchObject({
        kind: 'SHIFT_CREATED',
        shift: { notes: expect.stringMatching(/^from the other app/) },
      });
      expect(live.errors).toEqual([]);
    } finally {
      await socket.dispose();
      await other.close();
    }
  });
});
