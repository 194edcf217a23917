/**
 * GET /api/1/report.csv: the rows of the GraphQL `report` query as CSV. The report's arithmetic is
 * tested in test/integration/reports.test.ts; here the file must hold exactly the query's rows,
 * across pages (PAGE_SIZE_MAX=2 makes every export several operations), with a column pair per
 * grouping, and refuse bad parameters before the first byte.
 */
import { parse } from 'csv-parse/sync';
import { DateTime } from 'luxon';
import request from 'supertest';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

let t: TestApp;
let owner: Credentials;
let staff: Credentials & { id: string };

const FROM = '2026-03-01T00:00:00+01:00';
const TO = '2026-04-01T00:00:00+02:00';

beforeAll(async () => {
  t = await startTestApp({ PAGE_SIZE_MAX: '2', PAGE_SIZE_DEFAULT: '2' });
  owner = await t.newAccount({ timeZone: 'Europe/Berlin' });
  staff = await t.newStaff(owner, { hourlyRateCents: 3000 });
  const company = await t.gqlOk<{ createCompany: { company: { id: string } } }>(
    owner,
    'mutation { createCompany(input: { name: "Report Ltd", visibility: PUBLIC }) { company { id } } }',
  );
  const projects: string[] = [];
  for (const [name, rate] of [
    ['Rated', 12000],
    ['Unrated', null],
  ] as const) {
    const made = await t.gqlOk<{ createProject: { project: { id: string } } }>(
      owner,
      'mutation($input: CreateProjectInput!) { createProject(input: $input) { project { id } } }',
      {
        input: {
          companyId: company.createCompany.company.id,
          name,
          visibility: 'PUBLIC',
          ...(rate ? { hourlyRateCents: rate } : {}),
        },
      },
    );
    projects.push(made.createProject.project.id);
  }
  // Ten shifts over four days, two users, both projects, tags and billable mixed.
  for (let i = 0; i < 10; i++) {
    const start = new Date(Date.UTC(2026, 2, 2 + (i % 4), 8 + i)).toISOString();
    await t.gqlOk(
      owner,
      'mutation($input: CreateShiftInput!) { createShift(input: $input) { shift { id } } }',
      {
        input: {
          projectId: projects[i % 2],
          userId: i % 3 === 0 ? staff.id : undefined,
          start,
          stop: new Date(Date.parse(start) + (30 + 15 * i) * 60_000).toISOString(),
          billable: i % 4 !== 3,
          tagList: i % 2 === 0 ? ['dev'] : ['ops', 'dev'],
        },
      },
    );
  }
});
afterAll(() => t?.close());

const REPORT = `query($input: ReportInput!) { report(input: $input, first: 1000) { totalCount rows {
  company { id: nodeId name } project { id: nodeId name } activity { id: nodeId name } user { id: staffId login } tag billable bucketStart seconds billableSeconds amountCents costCents profitCents }
  totals { seconds billableSeconds amountCents costCents profitCents } } }`;

/** The file's last row: the report's totals, marked (issue 34, item 6). */
const totalRow = (
  totals: Record<string, number>,
  keys: Record<string, string>,
): Record<string, string> => ({
  row_type: 'total',
  ...keys,
  seconds: String(totals.seconds),
  billable_seconds: String(totals.billableSeconds),
  amount_cents: String(totals.amountCents),
  cost_cents: String(totals.costCents),
  profit_cents: String(totals.profitCents),
  currency: 'USD',
});

async function csv(who: Credentials, query: Record<string, string>) {
  const res = await request(t.app.express)
    .get('/api/1/report.csv')
    .query(query)
    .auth(who.login, who.password);
  return {
    res,
    rows:
      res.status === 200 ? (parse(res.text, { columns: true }) as Record<string, string>[]) : [],
  };
}

test('the file holds the query rows, a column pair per grouping, across pages', async () => {
  const { res, rows } = await csv(owner, {
    from: FROM,
    to: TO,
    time_zone: 'Europe/Berlin',
    group_by: 'project,user',
    bucket: 'day',
  });
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
  expect(res.text.split('\n')[0]).toBe(
    'row_type,project_uuid,project_name,user_uuid,user_login,bucket_start,seconds,billable_seconds,amount_cents,cost_cents,profit_cents,currency',
  );

  const query = await t.gqlOk<{ report: { totalCount: number; rows: any[]; totals: any } }>(
    owner,
    REPORT,
    {
      input: {
        from: FROM,
        to: TO,
        timeZone: 'Europe/Berlin',
        groupBy: ['PROJECT', 'USER'],
        bucket: 'DAY',
      },
    },
  );
  expect(query.report.totalCount).toBeGreaterThan(4);
  expect(rows).toEqual([
    ...query.report.rows.map((r) => ({
      row_type: 'detail',
      project_uuid: r.project.id,
      project_name: r.project.name,
      user_uuid: r.user.id,
      user_login: r.user.login,
      // The local date the day starts in the report's zone (issue 34, item 6), not the instant.
      bucket_start: DateTime.fromISO(r.bucketStart, { zone: 'Europe/Berlin' }).toISODate(),
      seconds: String(r.seconds),
      billable_seconds: String(r.billableSeconds),
      amount_cents: String(r.amountCents),
      cost_cents: String(r.costCents),
      profit_cents: String(r.profitCents),
      currency: 'USD',
    })),
    totalRow(query.report.totals, {
      project_uuid: '',
      project_name: '',
      user_uuid: '',
      user_login: '',
      bucket_start: '',
    }),
  ]);
});

test('filters and the tag and billable groupings', async () => {
  const { rows } = await csv(owner, {
    from: FROM,
    to: TO,
    group_by: 'tag,billable',
    tags: 'ops',
    billable: 'true',
  });
  const query = await t.gqlOk<{ report: { rows: any[]; totals: any } }>(owner, REPORT, {
    input: {
      from: FROM,
      to: TO,
      groupBy: ['TAG', 'BILLABLE'],
      filter: { tags: ['ops'], billable: true },
    },
  });
  expect(rows).toEqual([
    ...query.report.rows.map((r) => ({
      row_type: 'detail',
      tag: r.tag,
      billable: String(r.billable),
      seconds: String(r.seconds),
      billable_seconds: String(r.billableSeconds),
      amount_cents: String(r.amountCents),
      cost_cents: String(r.costCents),
      profit_cents: String(r.profitCents),
      currency: 'USD',
    })),
    totalRow(query.report.totals, { tag: '', billable: '' }),
  ]);
  expect(rows.map((r) => r.tag)).toEqual(['ops', '']);
});

test('a staff member exports only their own time', async () => {
  const { rows } = await csv(staff, { from: FROM, to: TO, group_by: 'user' });
  // Their row, then the total of what they see.
  expect(rows.map((r) => [r.row_type, r.user_uuid])).toEqual([
    ['detail', staff.id],
    ['total', ''],
  ]);
  expect(rows[1]!.seconds).toBe(rows[0]!.seconds);
});

test('bad parameters are refused before the first byte with the JSON error envelope', async () => {
  const missing = await csv(owner, { to: TO });
  expect(missing.res.status).toBe(400);
  expect(missing.res.body.error.parameter).toBe('from');

  const group = await csv(owner, { from: FROM, to: TO, group_by: 'project,planet' });
  expect(group.res.status).toBe(400);
  expect(group.res.body.error).toMatchObject({ code: 'BAD_REQUEST', parameter: 'group_by' });
  expect(group.res.body.error.message).toMatch(/planet/);

  expect(
    (await csv(owner, { from: FROM, to: TO, bucket: 'fortnight' })).res.body.error.parameter,
  ).toBe('bucket');
  expect(
    (await csv(owner, { from: FROM, to: TO, billable: 'maybe' })).res.body.error.parameter,
  ).toBe('billable');

  const backwards = await csv(owner, { from: TO, to: FROM });
  expect(backwards.res.status).toBe(422);
  expect(backwards.res.body.error.code).toBe('VALIDATION_FAILED');

  // The query's refusals name the parameters the client sent, not the query's fields.
  const zone = await csv(owner, { from: FROM, to: TO, time_zone: 'Mars/Olympus' });
  expect(zone.res.status).toBe(422);
  expect(zone.res.body.error.field_errors).toEqual([
    { field: 'time_zone', message: 'is not a valid IANA time zone' },
  ]);
  for (const [parameter, value] of [
    ['round_minutes', '0'],
    ['project_uuids', 'not-a-uuid'],
    ['tags', 'x'.repeat(65)],
  ] as const) {
    const refused = await csv(owner, { from: FROM, to: TO, [parameter]: value });
    expect(refused.res.status).toBe(422);
    expect(refused.res.body.error.field_errors.map((fe: { field: string }) => fe.field)).toEqual([
      parameter,
    ]);
    expect(refused.res.body.error.message).toContain(parameter);
  }

  // A value GraphQL cannot read is the facade's usual invalid record.
  const notADate = await csv(owner, { from: 'yesterday', to: TO });
  expect(notADate.res.status).toBe(422);
  expect(notADate.res.body.error.message).toMatch(/from/);

  const anonymous = await request(t.app.express)
    .get('/api/1/report.csv')
    .query({ from: FROM, to: TO });
  expect(anonymous.status).toBe(401);
});
