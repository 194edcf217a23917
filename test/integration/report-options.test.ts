import fs from 'node:fs';
import path from 'node:path';
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
let projectC: string;

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
  // Project C (60.00 an hour) in April: 10 minutes (tags x, y) and 20 minutes (x) on the 1st,
  // 7 minutes (no tags) on the 2nd.
  projectC = (
    await t.create(owner, 'createProject', {
      companyId: company.id,
      name: 'C',
      hourlyRateCents: 6000,
    })
  ).id;
  for (const [start, minutes, tagList] of [
    ['2026-04-01T09:00:00Z', 10, ['x', 'y']],
    ['2026-04-01T10:00:00Z', 20, ['x']],
    ['2026-04-02T09:00:00Z', 7, []],
  ] as const) {
    await t.gqlOk(
      owner,
      'mutation($input: CreateShiftInput!) { createShift(input: $input) { shift { id } } }',
      {
        input: {
          projectId: projectC,
          start,
          stop: new Date(Date.parse(start) + minutes * 60_000).toISOString(),
          tagList,
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
  // The period is the local date it starts (issue 34, item 6: the instant was text a spreadsheet
  // files under the wrong month east of UTC).
  expect(parse(weeks.text, { columns: true })).toEqual([
    {
      row_type: 'detail',
      notes: 'review',
      bucket_start: '2026-03-01',
      seconds: '0',
      billable_seconds: '0',
      amount_cents: '0',
      cost_cents: '0',
      profit_cents: '0',
      currency: 'USD',
    },
    {
      row_type: 'detail',
      notes: 'review',
      bucket_start: '2026-03-08',
      seconds: '7200',
      billable_seconds: '7200',
      amount_cents: '0',
      cost_cents: '0',
      profit_cents: '0',
      currency: 'USD',
    },
    {
      row_type: 'detail',
      notes: 'setup',
      bucket_start: '2026-03-01',
      seconds: '3600',
      billable_seconds: '3600',
      amount_cents: '0',
      cost_cents: '0',
      profit_cents: '0',
      currency: 'USD',
    },
    {
      row_type: 'detail',
      notes: 'setup',
      bucket_start: '2026-03-08',
      seconds: '3600',
      billable_seconds: '3600',
      amount_cents: '0',
      cost_cents: '0',
      profit_cents: '0',
      currency: 'USD',
    },
    {
      row_type: 'detail',
      notes: '',
      bucket_start: '2026-03-01',
      seconds: '0',
      billable_seconds: '0',
      amount_cents: '0',
      cost_cents: '0',
      profit_cents: '0',
      currency: 'USD',
    },
    {
      row_type: 'detail',
      notes: '',
      bucket_start: '2026-03-08',
      seconds: '3600',
      billable_seconds: '3600',
      amount_cents: '0',
      cost_cents: '0',
      profit_cents: '0',
      currency: 'USD',
    },
    // The report's total ends the file (issue 34, item 6).
    {
      row_type: 'total',
      notes: '',
      bucket_start: '',
      seconds: '18000',
      billable_seconds: '18000',
      amount_cents: '0',
      cost_cents: '0',
      profit_cents: '0',
      currency: 'USD',
    },
  ]);

  const onDesign = await csv({ from: '2026-03-01', to: '2026-04-01', activity_uuids: design });
  expect(parse(onDesign.text, { columns: true })).toEqual([
    {
      // Grouped by nothing: the one row is the whole report.
      row_type: 'total',
      seconds: '3600',
      billable_seconds: '3600',
      amount_cents: '0',
      cost_cents: '0',
      profit_cents: '0',
      currency: 'USD',
    },
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

/** Project C's two days in April. */
const april = () => ({
  fromDate: '2026-04-01',
  toDate: '2026-04-03',
  filter: { projectIds: [projectC] },
});
const MONEY = `query($input: ReportInput!) { report(input: $input) {
  totals { seconds amountCents } rows { bucketStart seconds billableSeconds amountCents }
} }`;

test('rounding per entry rounds each shift before summing, and the amounts follow', async () => {
  const totals = async (direction: string) =>
    (
      await t.gqlOk(owner, MONEY, {
        input: {
          ...april(),
          groupBy: [],
          rounding: { minutes: 15, direction, scope: 'ENTRY' },
        },
      })
    ).report.totals;
  // 10, 20 and 7 minutes to quarter hours.
  expect(await totals('UP')).toEqual({ seconds: 3600, amountCents: 6000 });
  expect(await totals('NEAREST')).toEqual({ seconds: 1800, amountCents: 3000 });
  expect(await totals('DOWN')).toEqual({ seconds: 900, amountCents: 1500 });
});

test('rounding per row rounds each row and the totals as one row', async () => {
  const { report: answer } = await t.gqlOk(owner, MONEY, {
    input: {
      ...april(),
      groupBy: [],
      bucket: 'DAY',
      rounding: { minutes: 15, direction: 'UP', scope: 'ROW' },
    },
  });
  // 30 minutes on the 1st, 7 on the 2nd; 37 in all.
  expect(answer.rows).toEqual([
    {
      bucketStart: '2026-04-01T00:00:00.000Z',
      seconds: 1800,
      billableSeconds: 1800,
      amountCents: 3000,
    },
    {
      bucketStart: '2026-04-02T00:00:00.000Z',
      seconds: 900,
      billableSeconds: 900,
      amountCents: 1500,
    },
  ]);
  expect(answer.totals).toEqual({ seconds: 2700, amountCents: 4500 });

  const refused = await t.gql(owner, MONEY, {
    input: { ...april(), groupBy: [], rounding: { minutes: 0 } },
  });
  expect(refused.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
  expect(refused.errors?.[0]?.extensions?.fieldErrors).toEqual([
    { field: 'rounding.minutes', message: 'must be between 1 and 1440' },
  ]);
});

const SUBTOTALS = `query($input: ReportInput!) { report(input: $input) {
  totalCount rows { level subtotal project { name } notes tag bucketStart seconds }
} }`;

test('subtotals follow each group of rows, down to the whole report', async () => {
  const { report: byDay } = await t.gqlOk(owner, SUBTOTALS, {
    input: {
      fromDate: '2026-03-07',
      toDate: '2026-03-12',
      groupBy: ['PROJECT'],
      bucket: 'DAY',
      subtotals: true,
    },
  });
  const line = (r: any) => [
    r.level,
    r.subtotal,
    r.project?.name ?? null,
    r.bucketStart?.slice(0, 10) ?? null,
    r.seconds / 3600,
  ];
  expect(byDay.rows.map(line)).toEqual([
    [2, false, 'A', '2026-03-07', 1],
    [2, false, 'A', '2026-03-08', 1],
    [2, false, 'A', '2026-03-09', 1],
    [1, true, 'A', null, 3],
    [2, false, 'B', '2026-03-11', 2],
    [1, true, 'B', null, 2],
    [0, true, null, null, 5],
  ]);
  expect(byDay.totalCount).toBe(7);

  const { report: byNotes } = await t.gqlOk(owner, SUBTOTALS, {
    input: {
      fromDate: '2026-03-01',
      toDate: '2026-04-01',
      groupBy: ['PROJECT', 'NOTES'],
      subtotals: true,
    },
  });
  expect(
    byNotes.rows.map((r: any) => [r.level, r.project?.name ?? null, r.notes, r.seconds / 3600]),
  ).toEqual([
    [2, 'A', 'setup', 2],
    [2, 'A', null, 1],
    [1, 'A', null, 3],
    [2, 'B', 'review', 2],
    [1, 'B', null, 2],
    [0, null, null, 5],
  ]);
});

test('a subtotal above TAG counts each shift once', async () => {
  const { report: answer } = await t.gqlOk(owner, SUBTOTALS, {
    input: { ...april(), groupBy: ['TAG'], subtotals: true },
  });
  expect(answer.rows.map((r: any) => [r.level, r.tag, r.seconds / 60])).toEqual([
    [1, 'x', 30],
    [1, 'y', 10],
    [1, null, 7],
    [0, null, 37],
  ]);
});

test('report.csv takes subtotals (with a level column) and round_minutes, round_direction, round_scope', async () => {
  const res = await request(t.app.express)
    .get('/api/1/report.csv')
    .auth(owner.login, owner.password)
    .query({
      from: '2026-04-01',
      to: '2026-04-03',
      project_uuids: projectC,
      group_by: 'tag',
      subtotals: 'true',
      round_minutes: '15',
      round_direction: 'up',
      round_scope: 'row',
    });
  expect(res.status).toBe(200);
  expect(parse(res.text, { columns: true }).map((r: any) => [r.level, r.tag, r.seconds])).toEqual([
    ['1', 'x', '1800'],
    ['1', 'y', '900'],
    ['1', '', '900'],
    ['0', '', '2700'],
  ]);

  for (const [query, parameter] of [
    [{ round_minutes: 'ten' }, 'round_minutes'],
    [{ round_minutes: '15', round_scope: 'week' }, 'round_scope'],
    [{ round_direction: 'up' }, 'round_direction'],
    [{ subtotals: 'maybe' }, 'subtotals'],
  ] as const) {
    const refused = await request(t.app.express)
      .get('/api/1/report.csv')
      .auth(owner.login, owner.password)
      .query({ from: '2026-04-01', to: '2026-04-03', ...query });
    expect({ parameter, status: refused.status, error: refused.body.error?.parameter }).toEqual({
      parameter,
      status: 400,
      error: parameter,
    });
  }
});

test('the dashboard queries of docs/reports.md run as written', async () => {
  const doc = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'reports.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Dashboard queries'), doc.indexOf('## As CSV'));
  const queries = [...section.matchAll(/```graphql\n([\s\S]*?)```/g)].map((m) => m[1]!);
  expect(queries).toHaveLength(5);
  for (const query of queries) {
    const res = await t.gql(owner, query);
    expect({ query, errors: res.errors }).toEqual({ query, errors: undefined });
  }
});
