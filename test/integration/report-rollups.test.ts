import { Client } from 'pg';
import request from 'supertest';
import { createApp, type App } from '../../src/http/app';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';
import { createTestDatabaseTarget } from '../support/test-database';

/**
 * Reports read from the time rollups (issue 23, item 4) answer exactly what adding up the shifts
 * answers: the same request to this app (rollups on) and to a second app on the same database
 * with REPORT_ROLLUPS off must give the same JSON, in zones whose midnights fall on the half
 * and quarter hour (India, Nepal, Newfoundland, Chatham) or a day away (Kiritimati), after
 * creates, updates, moves, deletes, punches, repricings and cascades. The rollups themselves must
 * equal their recomputation from the shifts.
 */
let t: TestApp;
let direct: App;
let owner: Credentials;
let staff: Credentials & { id: string };
let other: Credentials & { id: string };
const ids: Record<string, string> = {};

const ZONES = [
  'UTC',
  'Europe/Berlin',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'America/St_Johns',
  'Pacific/Chatham',
  'Pacific/Kiritimati',
];

const REPORT = `query($input: ReportInput!) { report(input: $input, first: 10000) {
  totalCount currency
  totals { seconds billableSeconds amountCents costCents profitCents }
  rows { company { id: nodeId name } project { id: nodeId name } user { id: staffId login } bucketStart level subtotal
         seconds billableSeconds amountCents costCents profitCents } } }`;

/** The same report from both apps, as JSON, asked by the owner or `who`. */
async function bothAnswers(
  input: Record<string, unknown>,
  who: Credentials = owner,
): Promise<[unknown, unknown]> {
  const ask = async (express: App['express']) => {
    const res = await request(express)
      .post('/graphql')
      .auth(who.login, who.password)
      .send({ query: REPORT, variables: { input } });
    expect(res.body.errors).toBeUndefined();
    return res.body.data.report;
  };
  return [await ask(t.app.express), await ask(direct.express)];
}

/** The reports each check compares, in every zone: months, days, weeks and an odd range. */
function reportsIn(timeZone: string): Record<string, unknown>[] {
  return [
    {
      timeZone,
      fromDate: '2025-01-01',
      toDate: '2026-01-01',
      groupBy: ['PROJECT'],
      bucket: 'MONTH',
    },
    { timeZone, fromDate: '2025-03-01', toDate: '2025-05-01', groupBy: ['USER'], bucket: 'DAY' },
    {
      timeZone,
      fromDate: '2024-12-01',
      toDate: '2026-02-01',
      groupBy: [],
      bucket: 'WEEK',
      weekStart: 'SUNDAY',
    },
    {
      timeZone,
      from: '2025-03-15T07:13:00.250Z',
      to: '2025-12-31T22:59:59.999Z',
      groupBy: ['COMPANY', 'PROJECT'],
    },
  ];
}

async function rollupsEqualShifts(): Promise<void> {
  const sql = t.db.orm.em.getConnection();
  for (const [table, key] of [
    ['project_time_rollups', 'project_id'],
    ['user_time_rollups', 'user_id'],
  ]) {
    // Each stopped shift in pieces per UTC day, summed per day and per month, against the rows
    // kept; rows that came back to zero count as absent.
    const differences = await sql.execute(
      `with pieces as (
         select s.${key} as key, d.day, s.billable, s.billable_rate_cents as rate, s.cost_rate_cents as cost_rate,
                extract(epoch from least(s.stop, (d.day + interval '1 day') at time zone 'UTC') - greatest(s.start, d.day at time zone 'UTC')) as seconds
           from shifts s cross join lateral generate_series(date_trunc('day', s.start at time zone 'UTC'), s.stop at time zone 'UTC', interval '1 day') d(day)
          where s.stop is not null and d.day at time zone 'UTC' < s.stop),
       expected as (
         select key, grain, date_trunc(grain, day)::date as period_start, sum(seconds) as seconds,
                coalesce(sum(seconds) filter (where billable), 0) as billable_seconds,
                coalesce(sum(seconds * rate) filter (where billable), 0) as amount, coalesce(sum(seconds * cost_rate), 0) as cost
           from pieces cross join (values ('day'), ('month')) g(grain) group by 1, 2, 3),
       kept as (
         select ${key} as key, grain, period_start, seconds, billable_seconds, amount_cent_seconds as amount, cost_cent_seconds as cost
           from ${table} where seconds <> 0 or billable_seconds <> 0 or amount_cent_seconds <> 0 or cost_cent_seconds <> 0)
       (select * from expected except select * from kept) union all (select * from kept except select * from expected)`,
    );
    expect({ table, differences }).toEqual({ table, differences: [] });
  }
}

/** Every report of every zone answers the same from rollups as from the shifts. */
async function reportsAgree(extra: Record<string, unknown>[] = []): Promise<void> {
  await rollupsEqualShifts();
  let rows = 0;
  for (const input of [...ZONES.flatMap(reportsIn), ...extra]) {
    const [fromRollups, fromShifts] = await bothAnswers(input);
    expect({ input, report: fromRollups }).toEqual({ input, report: fromShifts });
    rows += (fromShifts as { totalCount: number }).totalCount;
  }
  expect(rows).toBeGreaterThan(0);
}

const shift = async (input: Record<string, unknown>) =>
  (
    await t.gqlOk(
      owner,
      'mutation($input: CreateShiftInput!) { createShift(input: $input) { shift { id } } }',
      { input },
    )
  ).createShift.shift.id as string;

const updateShift = (id: string, patch: Record<string, unknown>) =>
  t.gqlOk(
    owner,
    'mutation($input: UpdateShiftInput!) { updateShift(input: $input) { shift { id } } }',
    { input: { shift: { id }, patch } },
  );

beforeAll(async () => {
  // The database session in a zone with clock changes, not UTC: no statement may depend on the
  // session's zone (an instant minus '1 day' is 23 hours across Berlin's spring change).
  const target = await createTestDatabaseTarget();
  if (target.env.DATABASE_URL) {
    const admin = new Client({ connectionString: target.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`alter database ${admin.database} set timezone = 'Europe/Berlin'`);
    await admin.end();
  }
  t = await startTestApp({}, { target });
  // The embedded database is one session for every connection.
  if (!target.env.DATABASE_URL)
    await t.db.orm.em.getConnection().execute(`set timezone = 'Europe/Berlin'`);
  direct = await createApp({ orm: t.db.orm, config: { ...t.config, reportRollups: false } });
  owner = await t.newAccount();
  staff = await t.newStaff(owner, { hourlyRateCents: 4000, costRateCents: 2500 });
  other = await t.newStaff(owner, { costRateCents: 1800 });
  const company = async (name: string) =>
    (await t.create(owner, 'createCompany', { name, visibility: 'PUBLIC' })).id;
  ids.north = await company('North');
  ids.south = await company('South');
  const project = async (name: string, companyId: string, hourlyRateCents?: number) =>
    (
      await t.create(owner, 'createProject', {
        name,
        companyId,
        visibility: 'PUBLIC',
        ...(hourlyRateCents ? { hourlyRateCents } : {}),
      })
    ).id;
  ids.atlas = await project('Atlas', ids.north, 12_000);
  ids.boreas = await project('Boreas', ids.north);
  ids.cygnus = await project('Cygnus', ids.south, 9_000);
});
afterAll(async () => {
  await direct?.stop();
  await t?.close();
});

test('rollups answer as the shifts do after every kind of write, in every zone', async () => {
  // Creates: across UTC midnight and the zones' midnights (18:30, 18:15, 02:30 and 10:00 UTC),
  // across Berlin's clock changes and a month's end, to the microsecond, a shift of exactly one
  // UTC day, one of three days, one of forty, and one that is not billable.
  const made = {
    midnight: await shift({
      projectId: ids.atlas,
      userId: staff.id,
      start: '2025-03-30T22:10:00Z',
      stop: '2025-03-31T01:20:00.123Z',
    }),
    kolkata: await shift({
      projectId: ids.atlas,
      userId: other.id,
      start: '2025-04-30T18:00:00Z',
      stop: '2025-04-30T19:00:00Z',
    }),
    kathmandu: await shift({
      projectId: ids.boreas,
      userId: staff.id,
      start: '2025-05-31T18:00:00.5Z',
      stop: '2025-05-31T18:40:00Z',
    }),
    stJohns: await shift({
      projectId: ids.cygnus,
      userId: other.id,
      start: '2025-07-01T02:00:00Z',
      stop: '2025-07-01T03:00:00Z',
    }),
    berlinChange: await shift({
      projectId: ids.cygnus,
      userId: staff.id,
      start: '2025-10-25T21:30:00Z',
      stop: '2025-10-26T03:30:00Z',
    }),
    wholeDay: await shift({
      projectId: ids.boreas,
      userId: other.id,
      start: '2025-08-10T00:00:00Z',
      stop: '2025-08-11T00:00:00Z',
    }),
    threeDays: await shift({
      projectId: ids.atlas,
      userId: staff.id,
      start: '2025-08-30T11:11:11Z',
      stop: '2025-09-02T09:00:00Z',
    }),
    forty: await shift({
      projectId: ids.cygnus,
      userId: other.id,
      start: '2025-02-20T06:00:00Z',
      stop: '2025-04-01T13:45:00Z',
    }),
    // 23 h 50 min from just before Berlin's spring change: found by start across it.
    springChange: await shift({
      projectId: ids.cygnus,
      userId: staff.id,
      start: '2025-03-30T00:30:00Z',
      stop: '2025-03-31T00:20:00Z',
    }),
    unbilled: await shift({
      projectId: ids.atlas,
      userId: other.id,
      start: '2025-12-31T10:15:00Z',
      stop: '2025-12-31T11:15:00Z',
      billable: false,
    }),
  };
  await reportsAgree();

  // Updates: new times, a move to another project and company, to another user, not billable.
  await updateShift(made.kolkata, { start: '2025-04-30T18:20:00Z', stop: '2025-05-01T02:00:00Z' });
  await updateShift(made.midnight, { projectId: ids.cygnus });
  await updateShift(made.kathmandu, { userId: other.id });
  await updateShift(made.stJohns, { billable: false });
  await updateShift(made.berlinChange, { notes: 'no change of time' });
  await reportsAgree();

  // A rate set back in time reprices the shifts since; one set for the future changes nothing yet.
  await t.gqlOk(
    owner,
    'mutation($input: SetRateInput!) { setRate(input: $input) { rate { id } } }',
    { input: { project: { id: ids.atlas }, cents: 15_000, effectiveFrom: '2025-06-01T00:00:00Z' } },
  );
  await t.gqlOk(
    owner,
    'mutation($input: SetRateInput!) { setRate(input: $input) { rate { id } } }',
    {
      input: {
        user: { id: other.id },
        kind: 'COST',
        cents: 2_200,
        effectiveFrom: '2025-03-01T00:00:00Z',
      },
    },
  );
  await reportsAgree();

  // Deletes, and a running shift that started in the reports' range (it runs up to each request's
  // instant, long after the range ends, so both answers count the same part of it).
  await t.gqlOk(
    owner,
    'mutation($id: ID!) { deleteShift(input: { shift: { id: $id } }) { deletedShiftId } }',
    {
      id: made.wholeDay,
    },
  );
  await shift({ projectId: ids.boreas, userId: staff.id, start: '2025-12-31T20:00:00Z' });
  await reportsAgree();

  // Punches: in and out now (after the ranges, but in the rollups), then a report over now's year.
  const punch = (who: Credentials, verb: 'punchIn' | 'punchOut') =>
    t.gqlOk(
      who,
      `mutation($id: ID!) { ${verb}(input: { project: { id: $id } }) { project { id } } }`,
      { id: ids.cygnus },
    );
  await punch(other, 'punchIn');
  await punch(other, 'punchOut');
  await reportsAgree();

  // Cascades: a deleted project takes its shifts, a deleted staff member theirs, a deleted company
  // its projects'.
  await t.gqlOk(
    owner,
    'mutation($id: ID!) { deleteProject(input: { project: { id: $id } }) { deletedProjectId } }',
    {
      id: ids.boreas,
    },
  );
  await reportsAgree();
  await t.gqlOk(
    owner,
    'mutation($id: ID!) { deleteStaff(input: { staff: { id: $id } }) { deletedStaffId } }',
    {
      id: other.id,
    },
  );
  await reportsAgree();

  // The options that work on the groups (fill, subtotals, rounding per row) and the filters the
  // rollups serve, on what is left.
  await reportsAgree([
    {
      timeZone: 'Asia/Kathmandu',
      fromDate: '2025-01-01',
      toDate: '2026-01-01',
      groupBy: ['COMPANY', 'PROJECT'],
      bucket: 'MONTH',
      fillEmpty: true,
      subtotals: true,
    },
    {
      timeZone: 'Asia/Kolkata',
      fromDate: '2025-01-01',
      toDate: '2026-01-01',
      groupBy: ['USER'],
      bucket: 'WEEK',
      rounding: { minutes: 15, direction: 'UP', scope: 'ROW' },
    },
    {
      timeZone: 'Europe/Berlin',
      fromDate: '2025-01-01',
      toDate: '2026-01-01',
      groupBy: ['PROJECT'],
      filter: { projectIds: [ids.atlas] },
      bucket: 'YEAR',
    },
    {
      timeZone: 'UTC',
      fromDate: '2025-01-01',
      toDate: '2026-01-01',
      groupBy: ['PROJECT'],
      filter: { companyIds: [ids.south] },
    },
    {
      timeZone: 'UTC',
      fromDate: '2025-01-01',
      toDate: '2026-01-01',
      groupBy: [],
      filter: { userIds: [staff.id] },
      bucket: 'DAY',
    },
    {
      timeZone: 'America/St_Johns',
      fromDate: '2025-01-01',
      toDate: '2027-01-01',
      groupBy: ['USER'],
      bucket: 'MONTH',
    },
  ]);

  await t.gqlOk(
    owner,
    'mutation($id: ID!) { deleteCompany(input: { company: { id: $id } }) { deletedCompanyId } }',
    {
      id: ids.south,
    },
  );
  await reportsAgree();
});

test('a report the rollups answer reads them: a changed rollup row changes its answer', async () => {
  const input = {
    timeZone: 'UTC',
    fromDate: '2025-01-01',
    toDate: '2026-01-01',
    groupBy: ['PROJECT'],
    bucket: 'YEAR',
  };
  const sql = t.db.orm.em.getConnection();
  const [before] = await bothAnswers(input);
  await sql.execute(
    `update project_time_rollups set seconds = seconds + 3600 where project_id in (select id from projects where uuid = ?) and grain = 'month' and period_start = '2025-09-01'`,
    [ids.atlas],
  );
  try {
    const [fromRollups, fromShifts] = (await bothAnswers(input)) as {
      totals: { seconds: number };
    }[];
    expect(fromRollups!.totals.seconds).toBe(fromShifts!.totals.seconds + 3600);
    expect(fromShifts).toEqual(before);
  } finally {
    await sql.execute(
      `update project_time_rollups set seconds = seconds - 3600 where project_id in (select id from projects where uuid = ?) and grain = 'month' and period_start = '2025-09-01'`,
      [ids.atlas],
    );
  }
});

test('a manager and a staff member read the rollups of the time they see, as the shifts answer it', async () => {
  // The first test deleted some of the fixtures; North's Atlas and the staff member remain.
  const manager = await t.newStaff(owner, { type: 'MANAGER', hourlyRateCents: 5000 });
  const someone = await t.newStaff(owner);
  // A project the manager cannot see, with their own time on it (which they see) and another's
  // (which they do not).
  const hidden = (
    await t.create(owner, 'createProject', {
      name: 'Hidden',
      companyId: (await t.create(owner, 'createCompany', { name: 'West', visibility: 'PUBLIC' }))
        .id,
      visibility: 'PRIVATE',
      hourlyRateCents: 7000,
    })
  ).id;
  for (const [projectId, userId, start, stop] of [
    [hidden, manager.id, '2025-03-30T23:30:00Z', '2025-03-31T02:00:00Z'],
    [hidden, someone.id, '2025-06-10T08:00:00Z', '2025-06-10T12:00:00Z'],
    [ids.atlas, someone.id, '2025-08-10T08:00:00Z', '2025-08-11T12:00:00Z'],
    [ids.atlas, manager.id, '2025-06-30T20:00:00Z', '2025-07-01T03:00:00Z'],
    [ids.atlas, staff.id, '2025-12-31T18:00:00Z', '2026-01-01T01:00:00Z'],
  ] as const)
    await shift({ projectId, userId, start, stop });
  const viewers = [manager, staff];
  for (const who of viewers)
    for (const input of ZONES.flatMap(reportsIn)) {
      const [fromRollups, fromShifts] = await bothAnswers(input, who);
      expect({ input, report: fromRollups }).toEqual({ input, report: fromShifts });
    }
  // And they are read from the rollups: the manager's by project, the staff member's by user.
  const read = async (who: Credentials, groupBy: string[]) =>
    (
      await t.recordStatements(() =>
        bothAnswers(
          { timeZone: 'UTC', fromDate: '2025-01-01', toDate: '2026-01-01', groupBy },
          who,
        ),
      )
    ).join('\n');
  expect(await read(manager, ['PROJECT'])).toMatch(/from project_time_rollups r/);
  expect(await read(staff, ['USER'])).toMatch(/from user_time_rollups r/);
});
