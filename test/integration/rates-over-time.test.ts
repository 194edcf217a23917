import { Client } from 'pg';
import { CurrentRateClock } from '../../src/modules/rates';
import { withLockHolder } from '../support/lock-holder';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * Rates as of when the work was done (issue 23, item 1): a shift is priced by the rates in force
 * at its start, so changing a rate leaves past amounts as they were; backdated entries reprice
 * the shifts since; users have cost rates, and reports give cost and profit in the account's
 * currency; only those who read money see any of it.
 */
let t: TestApp;
let owner: Credentials & { accountId: number };
let staff: Credentials & { id: string; legacyId: number };
let projectId: string;

beforeAll(async () => {
  t = await startTestApp();
  owner = await t.newAccount();
  staff = await t.newStaff(owner, { hourlyRateCents: 5000, costRateCents: 3000 });
  const company = await t.create(owner, 'createCompany', {
    name: 'Rates Ltd',
    visibility: 'PUBLIC',
  });
  projectId = (
    await t.create(owner, 'createProject', {
      companyId: company.id,
      name: 'Priced',
      visibility: 'PUBLIC',
      hourlyRateCents: 10000,
    })
  ).id;
  // One hour of the staff member's on 1, 10 and 20 January 2026.
  for (const day of ['01', '10', '20']) {
    await t.gqlOk(
      owner,
      'mutation($input: CreateShiftInput!) { createShift(input: $input) { shift { id } } }',
      {
        input: {
          projectId,
          userId: staff.id,
          start: `2026-01-${day}T09:00:00Z`,
          stop: `2026-01-${day}T10:00:00Z`,
        },
      },
    );
  }
});
afterAll(() => t?.close());

const JANUARY = { from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00Z' };
const REPORT = `query($input: ReportInput!) { report(input: $input) {
  currency totals { seconds amountCents costCents profitCents }
  rows { bucketStart amountCents costCents profitCents }
} }`;

async function byDay(who: Credentials = owner) {
  const { report } = await t.gqlOk(who, REPORT, {
    input: { ...JANUARY, groupBy: [], bucket: 'DAY', timeZone: 'UTC' },
  });
  return report;
}

const amounts = (report: { rows: { amountCents: number }[] }) =>
  report.rows.map((row) => row.amountCents);

async function setRate(input: Record<string, unknown>, who: Credentials = owner) {
  return t.gql(
    who,
    'mutation($input: SetRateInput!) { setRate(input: $input) { rate { id kind cents effectiveFrom } } }',
    { input },
  );
}

test('changing the current rate leaves the past priced as it was', async () => {
  expect(amounts(await byDay())).toEqual([10000, 10000, 10000]);
  await t.gqlOk(
    owner,
    'mutation($id: ID!) { updateProject(input: { project: { id: $id }, patch: { hourlyRateCents: 20000 } }) { project { hourlyRateCents } } }',
    { id: projectId },
  );
  // January 2026 is before the change, whenever the test runs.
  expect(amounts(await byDay())).toEqual([10000, 10000, 10000]);
  const { project } = await t.gqlOk(
    owner,
    'query($id: ID!) { project(id: $id) { hourlyRateCents rates { cents effectiveFrom } } }',
    { id: projectId },
  );
  expect(project.hourlyRateCents).toBe(20000);
  expect(project.rates).toEqual([
    { cents: 10000, effectiveFrom: null },
    { cents: 20000, effectiveFrom: expect.any(String) },
  ]);
  // Work done after the change bills the new rate.
  const { report } = await t.gqlOk(owner, REPORT, {
    input: { from: '2099-01-01T00:00:00Z', to: '2099-01-02T00:00:00Z', groupBy: [] },
  });
  expect(report.totals.amountCents).toBe(0);
  await t.gqlOk(
    owner,
    'mutation($input: CreateShiftInput!) { createShift(input: $input) { shift { id } } }',
    {
      input: {
        projectId,
        userId: staff.id,
        start: '2099-01-01T09:00:00Z',
        stop: '2099-01-01T09:30:00Z',
      },
    },
  );
  const later = await t.gqlOk(owner, REPORT, {
    input: { from: '2099-01-01T00:00:00Z', to: '2099-01-02T00:00:00Z', groupBy: [] },
  });
  expect(later.report.totals.amountCents).toBe(10000);
});

test('a user’s rates are in their histories since they were created, and a write that leaves a rate as the history gives it records nothing', async () => {
  const member = await t.newStaff(owner, { hourlyRateCents: 5000, costRateCents: 3000 });
  const history = async () =>
    (
      await t.gqlOk(
        owner,
        'query($id: ID!) { staffMember(id: $id) { rates { kind cents effectiveFrom } } }',
        {
          id: member.id,
        },
      )
    ).staffMember.rates;
  const created = [
    { kind: 'BILLABLE', cents: 5000, effectiveFrom: null },
    { kind: 'COST', cents: 3000, effectiveFrom: null },
  ];
  expect(await history()).toEqual(created);
  const update = (patch: Record<string, unknown>) =>
    t.gqlOk(
      owner,
      'mutation($id: ID!, $patch: StaffInput!) { updateStaff(input: { staff: { id: $id }, patch: $patch }) { staff { id } } }',
      { id: member.id, patch },
    );
  await update({ firstName: 'Renamed' });
  await update({ hourlyRateCents: 5000, costRateCents: 3000 });
  expect(await history()).toEqual(created);
  await update({ costRateCents: 3500 });
  expect(await history()).toEqual([
    ...created,
    { kind: 'COST', cents: 3500, effectiveFrom: expect.any(String) },
  ]);
});

test('a backdated rate reprices the shifts since, and removing it restores them', async () => {
  const set = await setRate({
    project: { id: projectId },
    cents: 30000,
    effectiveFrom: '2026-01-10T00:00:00Z',
  });
  expect(set.errors).toBeUndefined();
  expect(amounts(await byDay())).toEqual([10000, 30000, 30000]);

  // No rate from the 15th: the project's shifts bill at their user's rate (50.00).
  await setRate({ project: { id: projectId }, cents: null, effectiveFrom: '2026-01-15T00:00:00Z' });
  expect(amounts(await byDay())).toEqual([10000, 30000, 5000]);

  await t.gqlOk(owner, 'mutation($id: Int!) { deleteRate(input: { id: $id }) { deletedRateId } }', {
    id: set.data!.setRate.rate.id,
  });
  expect(amounts(await byDay())).toEqual([10000, 10000, 5000]);
});

test('repricing is no change of the shifts: sync and the project totals stay as they were', async () => {
  const READ = `query($id: ID!) { project(id: $id) { grandTotal shifts(first: 10) { nodes { updatedAt } } } }`;
  const before = await t.gqlOk(owner, READ, { id: projectId });
  await setRate({
    project: { id: projectId },
    cents: 12345,
    effectiveFrom: '2025-06-01T00:00:00Z',
  });
  const after = await t.gqlOk(owner, READ, { id: projectId });
  expect(after).toEqual(before);
  expect(amounts(await byDay())[0]).toBe(12345);
});

test('cost rates give costs and profit; the report names its currency', async () => {
  const report = await byDay();
  expect(report.currency).toBe('USD');
  // Each hour costs the user's 30.00.
  expect(report.rows.map((r: any) => r.costCents)).toEqual([3000, 3000, 3000]);
  expect(report.rows.map((r: any) => r.profitCents)).toEqual(
    report.rows.map((r: any) => r.amountCents - 3000),
  );

  // A raise from the 10th costs more from then on.
  const raised = await setRate({
    user: { id: staff.id },
    kind: 'COST',
    cents: 4000,
    effectiveFrom: '2026-01-10T00:00:00Z',
  });
  expect(raised.errors).toBeUndefined();
  expect((await byDay()).rows.map((r: any) => r.costCents)).toEqual([3000, 4000, 4000]);

  const { node: user } = await t.gqlOk(
    owner,
    'query($id: ID!) { node(id: $id) { ... on Staff { costRateCents rates { kind cents effectiveFrom } } } }',
    { id: staff.id },
  );
  // The current cost rate is the one in force now: the raise's.
  expect(user).toEqual({
    costRateCents: 4000,
    rates: [
      { kind: 'BILLABLE', cents: 5000, effectiveFrom: null },
      { kind: 'COST', cents: 3000, effectiveFrom: null },
      { kind: 'COST', cents: 4000, effectiveFrom: '2026-01-10T00:00:00.000Z' },
    ],
  });
});

test('the account currency is the owner’s to set, from ISO 4217', async () => {
  const refused = await t.gql(
    owner,
    'mutation { updateAccount(input: { currency: "XYZ" }) { account { currency } } }',
  );
  expect(refused.errors?.[0]?.extensions?.fieldErrors).toEqual([
    { field: 'currency', message: 'is not an ISO 4217 currency code' },
  ]);
  const set = await t.gqlOk(
    owner,
    'mutation { updateAccount(input: { currency: "eur" }) { account { currency } } }',
  );
  expect(set.updateAccount.account.currency).toBe('EUR');
  expect((await byDay()).currency).toBe('EUR');
});

test('a staff member sees no money: no amounts, costs, rates or histories, and sets none', async () => {
  const report = await byDay(staff);
  expect(report.totals).toMatchObject({ amountCents: null, costCents: null, profitCents: null });
  const { node: self } = await t.gqlOk(
    staff,
    'query($id: ID!) { node(id: $id) { ... on Staff { costRateCents rates { cents } } } }',
    { id: staff.id },
  );
  expect(self).toEqual({ costRateCents: null, rates: [] });
  const denied = await setRate(
    { user: { id: staff.id }, cents: 99999, effectiveFrom: '2026-01-01T00:00:00Z' },
    staff,
  );
  expect(denied.errors?.[0]?.extensions?.code).toBe('UPDATE_DENIED');
});

test('bad rate entries are refused with the field named', async () => {
  const both = await setRate({
    project: { id: projectId },
    user: { id: staff.id },
    cents: 1,
    effectiveFrom: '2026-01-01T00:00:00Z',
  });
  expect(both.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
  const projectCost = await setRate({
    project: { id: projectId },
    kind: 'COST',
    cents: 1,
    effectiveFrom: '2026-01-01T00:00:00Z',
  });
  expect(projectCost.errors?.[0]?.extensions?.fieldErrors).toEqual([
    { field: 'kind', message: 'a project has no cost rate; users do' },
  ]);
  const negative = await setRate({
    project: { id: projectId },
    cents: -1,
    effectiveFrom: '2026-01-01T00:00:00Z',
  });
  expect(negative.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
});

/** A project of its own (in a company of its own) for one test. */
async function newProject(name: string, hourlyRateCents?: number) {
  const company = await t.create(owner, 'createCompany', { name: `${name} Ltd` });
  return t.create(owner, 'createProject', {
    companyId: company.id,
    name,
    visibility: 'PUBLIC',
    ...(hourlyRateCents ? { hourlyRateCents } : {}),
  });
}

/** A session of its own (PostgreSQL) to hold rows in a transaction (test/support/lock-holder.ts). */
function withHolder(
  work: (holder: Client, lockWaiters: (n: number) => Promise<void>) => Promise<void>,
): Promise<void> {
  return withLockHolder((t.config.database as { url: string }).url, work);
}

// Two writers at once need two connections: a PostgreSQL server.
(process.env.TEST_DATABASE_URL ? test : test.skip)(
  'rate writes of one project at once leave its current rate the one in force',
  async () => {
    const project = await newProject('Raced');
    const setRate = (cents: number, effectiveFrom: string) =>
      t.gqlOk(owner, 'mutation($input: SetRateInput!) { setRate(input: $input) { rate { id } } }', {
        input: { project: { id: project.id }, cents, effectiveFrom },
      });
    await withHolder(async (holder, lockWaiters) => {
      // The project's row held as a write of its rate column holds it; the newer entry's writer
      // queues first, the older one's second.
      await holder.query('begin');
      await holder.query(
        'select id from projects where account_id = $1 and id = $2 for no key update',
        [owner.accountId, project.legacyId],
      );
      const newer = setRate(9000, '2021-01-01T00:00:00Z');
      await lockWaiters(1);
      const older = setRate(7000, '2020-01-01T00:00:00Z');
      await lockWaiters(2);
      await holder.query('rollback');
      await Promise.all([newer, older]);
    });
    const { project: read } = await t.gqlOk(
      owner,
      'query($id: ID!) { project(id: $id) { hourlyRateCents } }',
      { id: project.id },
    );
    expect(read.hourlyRateCents).toBe(9000);
  },
);

test('an entry set for later becomes the current rate once it is in force', async () => {
  const project = await newProject('Later', 5000);
  await t.gqlOk(
    owner,
    'mutation($input: SetRateInput!) { setRate(input: $input) { rate { id } } }',
    { input: { project: { id: project.id }, cents: 6500, effectiveFrom: '2099-01-01T00:00:00Z' } },
  );
  const current = async () =>
    (
      await t.gqlOk(owner, 'query($id: ID!) { project(id: $id) { hourlyRateCents } }', {
        id: project.id,
      })
    ).project.hourlyRateCents;
  expect(await current()).toBe(5000);

  // The year comes (the entry is moved to a second ago, rather than the clock to 2099): the
  // clock's next round makes it the current rate, and a round after that has nothing to do.
  await t.db.orm.em.getConnection().execute(
    `update rates set effective_from = now() - interval '1 second'
        where account_id = ? and project_id = ? and cents = 6500`,
    [owner.accountId, project.legacyId],
  );
  const clock = new CurrentRateClock(t.db.orm);
  expect(await clock.catchUp()).toBeGreaterThanOrEqual(1);
  expect(await current()).toBe(6500);
  expect(await clock.catchUp()).toBe(0);
});

(process.env.TEST_DATABASE_URL ? test : test.skip)(
  'the clock never writes back a rate a concurrent write replaced',
  async () => {
    const project = await newProject('Clocked', 5000);
    const sql = t.db.orm.em.getConnection();
    // An entry of 6500 has just come into force; the column still says 5000.
    await sql.execute(
      `insert into rates (account_id, project_id, kind, cents, effective_from)
       values (?, ?, 'billable', 6500, now() - interval '1 second')`,
      [owner.accountId, project.legacyId],
    );
    await withHolder(async (writer, lockWaiters) => {
      // A rate write in progress, as RateService.set makes it: the project's row, a new entry of
      // 7000 from now, the column.
      await writer.query('begin');
      await writer.query(
        'select id from projects where account_id = $1 and id = $2 for no key update',
        [owner.accountId, project.legacyId],
      );
      await writer.query(
        `insert into rates (account_id, project_id, kind, cents, effective_from)
         values ($1, $2, 'billable', 7000, now())`,
        [owner.accountId, project.legacyId],
      );
      await writer.query(
        'update projects set hourly_rate_cents = 7000 where account_id = $1 and id = $2',
        [owner.accountId, project.legacyId],
      );
      const round = new CurrentRateClock(t.db.orm).catchUp();
      await lockWaiters(1);
      await writer.query('commit');
      await round;
    });
    const [row] = await sql.execute<{ cents: number; entries: string }[]>(
      `select p.hourly_rate_cents as cents, (select string_agg(cents::text, ',' order by effective_from) from rates where account_id = p.account_id and project_id = p.id) as entries
         from projects p where p.account_id = ? and p.id = ?`,
      [owner.accountId, project.legacyId],
    );
    expect(row).toEqual({ cents: 7000, entries: '5000,6500,7000' });
  },
);
