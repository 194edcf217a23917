import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * Issue 20, finding 3: concurrent writes of one user, each with its own Idempotency-Key, deadlocked
 * on PostgreSQL. The key row's foreign key to `users` takes a KEY SHARE lock on the user's row, and
 * the write then asked for the same row FOR UPDATE, which KEY SHARE blocks: two such transactions
 * waited for each other. The user and account locks are now FOR NO KEY UPDATE, which a foreign
 * key's KEY SHARE does not block, so every concurrent write succeeds or gets its documented 4xx.
 *
 * The deadlock needs several connections: it shows on a PostgreSQL server (TEST_DATABASE_URL). The
 * embedded database has one connection and runs the same requests one after the other; the
 * outcomes asserted here are the same on both.
 */
let t: TestApp;
let owner: Credentials & { ownerLegacyId: number; accountId: number };
let projects: string[];
beforeAll(async () => {
  t = await startTestApp();
  owner = await t.newAccount();
  const { createCompany } = await t.gqlOk(
    owner,
    'mutation { createCompany(input: { name: "Locks Co", visibility: PUBLIC }) { company { id } } }',
  );
  projects = [];
  for (const name of ['One', 'Two']) {
    const data = await t.gqlOk(
      owner,
      'mutation($c: ID!, $n: String!) { createProject(input: { companyId: $c, name: $n, visibility: PUBLIC }) { project { id } } }',
      { c: createCompany.company.id, n: name },
    );
    projects.push(data.createProject.project.id);
  }
});
afterAll(() => t?.close());

const punchIn = (who: Credentials, project: string, key: string | undefined) => {
  const req = request(t.app.express)
    .post(`/api/1/projects/${project}/punch_in.json`)
    .auth(who.login, who.password);
  return (key ? req.set('Idempotency-Key', key) : req).send({});
};

const createShift = (who: Credentials, key: string, shift: Record<string, unknown>) =>
  request(t.app.express)
    .post('/api/1/shifts.json')
    .set('Idempotency-Key', key)
    .auth(who.login, who.password)
    .send({ shift: { project_uuid: projects[0], ...shift } });

/** Status → how many answers had it, plus the error codes of the refusals. */
function tally(answers: request.Response[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of answers) {
    const label = a.status === 200 ? '200' : `${a.status} ${a.body?.error?.code ?? a.text}`;
    counts[label] = (counts[label] ?? 0) + 1;
  }
  return counts;
}

async function runningShifts(userId: number): Promise<number> {
  const rows = await t.db.orm.em
    .getConnection()
    .execute('select count(*)::int as n from shifts where stop is null and user_id = ?', [userId]);
  return rows[0].n;
}

test('40 concurrent punch-ins of one user, each with its own key: one 200, 39 × 422 PUNCHED_IN, no 5xx', async () => {
  const staff = await t.newStaff(owner);
  const answers = await Promise.all(
    Array.from({ length: 40 }, () => punchIn(staff, projects[0]!, randomUUID())),
  );
  expect(tally(answers)).toEqual({ '200': 1, '422 PUNCHED_IN': 39 });
  expect(await runningShifts(staff.legacyId)).toBe(1);
});

test('keyed and unkeyed punch-ins of one user across two projects at once: each is a 200 or PUNCHED_IN, one shift runs', async () => {
  const staff = await t.newStaff(owner);
  const answers = await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      punchIn(staff, projects[i % 2]!, i % 4 < 2 ? randomUUID() : undefined),
    ),
  );
  const counts = tally(answers);
  expect(Object.keys(counts).filter((k) => k !== '200' && k !== '422 PUNCHED_IN')).toEqual([]);
  expect(counts['200']).toBeGreaterThanOrEqual(1);
  expect(await runningShifts(staff.legacyId)).toBe(1);
  // Every success is a stored shift of the user.
  const rows = await t.db.orm.em
    .getConnection()
    .execute('select count(*)::int as n from shifts where user_id = ?', [staff.legacyId]);
  expect(rows[0].n).toBe(counts['200']);
});

test('20 concurrent keyed createShift of one user (each its own key and hour): all 20 created', async () => {
  const staff = await t.newStaff(owner);
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) => {
      const start = new Date(Date.UTC(2026, 2, 10, i)).toISOString();
      const stop = new Date(Date.UTC(2026, 2, 10, i, 30)).toISOString();
      return createShift(staff, randomUUID(), { start, stop });
    }),
  );
  expect(tally(answers)).toEqual({ '200': 20 });
  const rows = await t.db.orm.em
    .getConnection()
    .execute('select count(*)::int as n from shifts where user_id = ?', [staff.legacyId]);
  expect(rows[0].n).toBe(20);
});

test("the owner's keyed shifts for a staff member while the staff member punches in with keys: no 5xx, one shift runs", async () => {
  const staff = await t.newStaff(owner);
  const answers = await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      i % 2 === 0
        ? punchIn(staff, projects[0]!, randomUUID())
        : createShift(owner, randomUUID(), {
            user_uuid: staff.id,
            start: new Date(Date.UTC(2026, 2, 11, i)).toISOString(),
            stop: new Date(Date.UTC(2026, 2, 11, i, 30)).toISOString(),
          }),
    ),
  );
  const punches = tally(answers.filter((_, i) => i % 2 === 0));
  const creates = tally(answers.filter((_, i) => i % 2 === 1));
  expect(punches).toEqual({ '200': 1, '422 PUNCHED_IN': 14 });
  expect(creates).toEqual({ '200': 15 });
  expect(await runningShifts(staff.legacyId)).toBe(1);
});

test('keyed punch-ins on an account with a time maximum (the account row is locked too): one 200, the rest PUNCHED_IN', async () => {
  const limited = await t.newAccount({ timeMaxHours: 1000 });
  const { createCompany } = await t.gqlOk(
    limited,
    'mutation { createCompany(input: { name: "Limited Co", visibility: PUBLIC }) { company { id } } }',
  );
  const { createProject } = await t.gqlOk(
    limited,
    'mutation($c: ID!) { createProject(input: { companyId: $c, name: "P", visibility: PUBLIC }) { project { id } } }',
    { c: createCompany.company.id },
  );
  const answers = await Promise.all(
    Array.from({ length: 20 }, () => punchIn(limited, createProject.project.id, randomUUID())),
  );
  expect(tally(answers)).toEqual({ '200': 1, '422 PUNCHED_IN': 19 });
  expect(await runningShifts(limited.ownerLegacyId)).toBe(1);
});

// A PostgreSQL server's sessions (the embedded database ignores the setting: its one connection
// lives and freezes with the one process that holds it).
(process.env.TEST_DATABASE_URL ? test : test.skip)(
  'a session left idle in a transaction (a frozen or vanished process) is ended by the server, so its locks and key claims do not outlive the statement timeout',
  async () => {
    const [row] = await t.db.orm.em
      .getConnection()
      .execute<{ setting: string }[]>(
        `select setting from pg_settings where name = 'idle_in_transaction_session_timeout'`,
      );
    expect(Number(row!.setting)).toBe(t.config.db.statementTimeoutMs);
  },
);
