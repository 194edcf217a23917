import request from 'supertest';
import { parse } from 'csv-parse/sync';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * The report options a chart needs without post-processing (issue 23, item 3): ranges given as
 * dates, the day weeks start on, zero rows for empty periods, the activity filter and the notes
 * dimension; in GraphQL and in /api/1/report.csv.
 */
let t: TestApp;
let owner: Credentials;
let projectA: string;
let projectB: string;
let design: string;

// One hour at 09:00 UTC on Saturday 7, Sunday 8 and Monday 9 March 2026 on A (Design on Sunday),
// and two hours on Wednesday 11 on B.
const SHIFTS = [
  { day: 7, project: 'A', notes: 'setup' },
  { day: 8, project: 'A', notes: 'setup', activity: true },
  { day: 9, project: 'A', notes: null },
  { day: 11, project: 'B', notes: 'review', hours: 2 },
];

beforeAll(async () => {
  t = await startTestApp();
  owner = await t.newAccount({ timeZone: 'UTC' });
  const company = await t.create(owner, 'createCompany', { name: 'Charts Ltd' });
  projectA = (await t.create(owner, 'createProject', { companyId: company.id, name: 'A' })).id;
  projectB = (await t.create(owner, 'createProject', { companyId: company.id, name: 'B' })).id;
  design = (await t.create(owner, 'createActivity', { projectId: projectA, name: 'Design' })).id;
  for (const shift of SHIFTS) {
    const start = `2026-03-${String(shift.day).padStart(2, '0')}T09:00:00Z`;
    await t.gqlOk(
      owner,
      'mutation($input: CreateShiftInput!) { createShift(input: $input) { shift { id } } }',
      {
        input: {
          projectId: shift.project === 'A' ? projectA : projectB,
          activityId: shift.activity ? design : undefined,
          start,
          stop: new Date(Date.parse(start) + (shift.hours ?? 1) * 3_600_000).toISOString(),
          notes: shift.notes,
        },
      },
    );
  }
});
afterAll(() => t?.close());

const REPORT = `query($input: ReportInput!) { report(input: $input) {
  from to totalCount totals { seconds }
  rows { project { name } notes bucketStart seconds }
} }`;

async function report(input: Record<string, unknown>) {
  return (await t.gqlOk(owner, REPORT, { input })).report;
}

const byBucket = (rows: { bucketStart: string; seconds: number }[]) =>
  rows.map((row) => [row.bucketStart.slice(0, 10), row.seconds / 3600]);

test('from and to as dates start at 00:00 of the report zone, across a clock change', async () => {
  const answer = await report({
    fromDate: '2026-03-01',
    toDate: '2026-04-01',
    timeZone: 'Europe/Berlin',
    groupBy: [],
  });
  // 00:00 in Berlin: UTC+1 before 29 March, UTC+2 after.
  expect(answer.from).toBe('2026-02-28T23:00:00.000Z');
  expect(answer.to).toBe('2026-03-31T22:00:00.000Z');
  expect(answer.totals.seconds).toBe(5 * 3600);
  // The same range as instants gives the same report.
  const instants = await report({ from: answer.from, to: answer.to, groupBy: [] });
  expect(instants.totals).toEqual(answer.totals);
});

test('a range needs from or fromDate and to or toDate, one of each', async () => {
  const fieldsOf = async (input: Record<string, unknown>) => {
    const res = await t.gql(owner, REPORT, { input: { groupBy: [], ...input } });
    expect(res.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    return (res.errors![0]!.extensions!.fieldErrors as { field: string; message: string }[]).map(
      (e) => `${e.field}: ${e.message}`,
    );
  };
  expect(
    await fieldsOf({ from: '2026-03-01T00:00:00Z', fromDate: '2026-03-01', toDate: '2026-04-01' }),
  ).toEqual(['from: give from or fromDate, not both']);
  expect(await fieldsOf({ fromDate: '2026-03-01' })).toEqual(['to: is required']);
  // A date GraphQL's LocalDate cannot read is refused before the report runs.
  const impossible = await t.gql(owner, REPORT, {
    input: { groupBy: [], fromDate: '2026-02-30', toDate: '2026-04-01' },
  });
  expect(impossible.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  expect(impossible.errors?.[0]?.message).toMatch(/fromDate/);
  expect(await fieldsOf({ fromDate: '2026-04-01', toDate: '2026-03-01' })).toEqual([
    'to: must be after from',
  ]);
});

test('weekStart moves the first day of WEEK buckets', async () => {
  const weeks = async (weekStart?: string) =>
    byBucket(
      (
        await report({
          fromDate: '2026-02-28',
          toDate: '2026-03-14',
          groupBy: [],
          bucket: 'WEEK',
          ...(weekStart ? { weekStart } : {}),
        })
      ).rows,
    );
  // Sat 7, Sun 8, Mon 9 (one hour each) and Wed 11 (two hours).
  expect(await weeks()).toEqual([
    ['2026-03-02', 2],
    ['2026-03-09', 3],
  ]);
  expect(await weeks('MONDAY')).toEqual(await weeks());
  expect(await weeks('SUNDAY')).toEqual([
    ['2026-03-01', 1],
    ['2026-03-08', 4],
  ]);
  expect(await weeks('SATURDAY')).toEqual([['2026-03-07', 5]]);
});

test('fillEmpty gives every group a row of zeros in each period of the range without time', async () => {
  const answer = await report({
    fromDate: '2026-03-07',
    toDate: '2026-03-12',
    groupBy: ['PROJECT'],
    bucket: 'DAY',
    fillEmpty: true,
  });
  expect(answer.totalCount).toBe(10);
  expect(answer.rows.map((r: any) => [r.project.name, ...byBucket([r])[0]!])).toEqual([
    ['A', '2026-03-07', 1],
    ['A', '2026-03-08', 1],
    ['A', '2026-03-09', 1],
    ['A', '2026-03-10', 0],
    ['A', '2026-03-11', 0],
    ['B', '2026-03-07', 0],
    ['B', '2026-03-08', 0],
    ['B', '2026-03-09', 0],
    ['B', '2026-03-10', 0],
    ['B', '2026-03-11', 2],
  ]);
  expect(answer.totals.seconds).toBe(5 * 3600);

  // Grouped by nothing, the report itself fills; with no time at all, every period is zero.
  const quiet = await report({
    fromDate: '2026-05-01',
    toDate: '2026-05-04',
    groupBy: [],
    bucket: 'DAY',
    fillEmpty: true,
  });
  expect(byBucket(quiet.rows)).toEqual([
    ['2026-05-01', 0],
    ['2026-05-02', 0],
    ['2026-05-03', 0],
  ]);
  // Without fillEmpty, no rows.
  const plain = await report({
    fromDate: '2026-05-01',
    toDate: '2026-05-04',
    groupBy: [],
    bucket: 'DAY',
  });
  expect(plain.rows).toEqual([]);
});

test('the activity filter and the notes dimension', async () => {
  const onDesign = await report({
    fromDate: '2026-03-01',
    toDate: '2026-04-01',
    groupBy: [],
    filter: { activityIds: [design] },
  });
  expect(onDesign.totals.seconds).toBe(3600);

  const notes = await report({ fromDate: '2026-03-01', toDate: '2026-04-01', groupBy: ['NOTES'] });
  expect(notes.rows.map((r: any) => [r.notes, r.seconds / 3600])).toEqual([
    ['review', 2],
    ['setup', 2],
    [null, 1],
  ]);
});

test('report.csv takes dates, week_start, fill_empty, activity_uuids and group_by=notes', async () => {
  const csv = async (query: Record<string, string>) => {
    const res = await request(t.app.express)
      .get('/api/1/report.csv')
      .auth(owner.login, owner.password)
      .query(query);
    return res;
  };
  // Two weeks from Sunday 1 March.
  const weeks = await csv({
    from: '2026-03-01',
    to: '2026-03-15',
    bucket: 'week',
    week_start: 'sunday',
    group_by: 'notes',
    fill_empty: 'true',
  });
  expect(weeks.status).toBe(200);
  expect(parse(weeks.text, { columns: true })).toEqual([
    {
      notes: 'review',
      bucket_start: '2026-03-01T00:00:00Z',
      seconds: '0',
      billable_seconds: '0',
      amount_cents: '0',
    },
    {
      notes: 'review',
      bucket_start: '2026-03-08T00:00:00Z',
      seconds: '7200',
      billable_seconds: '7200',
      amount_cents: '0',
    },
    {
      notes: 'setup',
      bucket_start: '2026-03-01T00:00:00Z',
      seconds: '3600',
      billable_seconds: '3600',
      amount_cents: '0',
    },
    {
      notes: 'setup',
      bucket_start: '2026-03-08T00:00:00Z',
      seconds: '3600',
      billable_seconds: '3600',
      amount_cents: '0',
    },
    {
      notes: '',
      bucket_start: '2026-03-01T00:00:00Z',
      seconds: '0',
      billable_seconds: '0',
      amount_cents: '0',
    },
    {
      notes: '',
      bucket_start: '2026-03-08T00:00:00Z',
      seconds: '3600',
      billable_seconds: '3600',
      amount_cents: '0',
    },
  ]);

  const onDesign = await csv({ from: '2026-03-01', to: '2026-04-01', activity_uuids: design });
  expect(parse(onDesign.text, { columns: true })).toEqual([
    { seconds: '3600', billable_seconds: '3600', amount_cents: '0' },
  ]);

  const badStart = await csv({ from: '2026-03-01', to: '2026-04-01', week_start: 'friday' });
  expect(badStart.status).toBe(400);
  expect(badStart.body.error).toMatchObject({ code: 'BAD_REQUEST', parameter: 'week_start' });
  const badFill = await csv({ from: '2026-03-01', to: '2026-04-01', fill_empty: 'yes' });
  expect(badFill.body.error).toMatchObject({ code: 'BAD_REQUEST', parameter: 'fill_empty' });
  const impossible = await csv({ from: '2026-02-30', to: '2026-04-01' });
  expect(impossible.status).toBe(422);
  expect(impossible.body.error.field_errors.map((e: { field: string }) => e.field)).toEqual([
    'from',
  ]);
});
