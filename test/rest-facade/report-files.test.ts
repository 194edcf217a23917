/**
 * The report downloads as a person and a spreadsheet read them (issue 34, item 6): the period is
 * the local date it starts (a month bucket in Berlin is `2026-10-01`, not the instant
 * `2026-09-30T22:00:00Z` a pivot by month files under September); the workbook holds a real date
 * cell, durations as `[h]:mm` and money in the account's currency format; a total row (and, with
 * `subtotals`, the subtotal rows) is there and marked, without being asked; `report.json` answers
 * the CSV file's rows in the JSON envelope; amounts are in the currency's minor unit (a yen amount
 * is yen); a staff member's PDF, which shows no amounts, names no currency. Through in-process
 * HTTP, read back with the libraries a reader would use (csv-parse, exceljs, pdf.js).
 */
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import request from 'supertest';
import { pdfText } from '../support/pdf-text';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';
import { binaryBody } from '../support/binary-body';

let t: TestApp;
let owner: Credentials;
let staff: Credentials & { id: string };
let yenOwner: Credentials;

const CREATE_SHIFT =
  'mutation($input: CreateShiftInput!) { createShift(input: $input) { shift { id } } }';

/** September and October 2026 in Berlin, by month. */
const AUTUMN = {
  from: '2026-09-01',
  to: '2026-11-01',
  time_zone: 'Europe/Berlin',
  group_by: 'project',
  bucket: 'month',
};

beforeAll(async () => {
  // PAGE_SIZE_MAX=2: every download is several operations, the total row comes after the last.
  t = await startTestApp({ PAGE_SIZE_MAX: '2', PAGE_SIZE_DEFAULT: '2' });
  owner = await t.newAccount({ currency: 'EUR', timeZone: 'Europe/Berlin' });
  staff = await t.newStaff(owner, {});
  const company = await t.create(owner, 'createCompany', { name: 'Herbst GmbH' });
  const projects = [];
  for (const [name, rate] of [
    ['Audit', 12000],
    ['Beratung', 9000],
  ] as const)
    projects.push(
      await t.create(owner, 'createProject', {
        companyId: company.id,
        name,
        visibility: 'PUBLIC',
        hourlyRateCents: rate,
      }),
    );
  for (const [project, start, hours, userId] of [
    // 15 September, 2 hours.
    [projects[0]!, '2026-09-15T08:00:00Z', 2, undefined],
    // 1 October 00:30 in Berlin, which is still 30 September in UTC: 1.5 hours.
    [projects[0]!, '2026-09-30T22:30:00Z', 1.5, undefined],
    [projects[1]!, '2026-10-05T08:00:00Z', 0.75, undefined],
    // The staff member's own hour.
    [projects[1]!, '2026-10-06T08:00:00Z', 1, staff.id],
  ] as const)
    await t.gqlOk(owner, CREATE_SHIFT, {
      input: {
        projectId: project.id,
        userId,
        start,
        stop: new Date(Date.parse(start) + hours * 3_600_000).toISOString(),
      },
    });

  // A yen account: 3 hours at ¥5,000 an hour is ¥15,000.
  yenOwner = await t.newAccount({ currency: 'JPY', timeZone: 'Asia/Tokyo' });
  const yenCompany = await t.create(yenOwner, 'createCompany', { name: 'Kabushiki' });
  const yenProject = await t.create(yenOwner, 'createProject', {
    companyId: yenCompany.id,
    name: 'Tokyo',
    // The rate as text, as the legacy clients send it: read in yen, not hundredths of a yen.
    hourlyRate: '¥5,000',
  });
  const { node } = await t.gqlOk(
    yenOwner,
    '{ node(id: $id) { ... on Project { hourlyRateCents } } }'.replace(
      '$id',
      JSON.stringify(yenProject.id),
    ),
  );
  expect(node).toEqual({ hourlyRateCents: 5000 });
  await t.gqlOk(yenOwner, CREATE_SHIFT, {
    input: {
      projectId: yenProject.id,
      start: '2026-10-01T00:00:00Z',
      stop: '2026-10-01T03:00:00Z',
    },
  });
});
afterAll(() => t?.close());

async function download(who: Credentials, path: string, query: Record<string, string>) {
  return request(t.app.express)
    .get(`/api/1${path}`)
    .query(query)
    .auth(who.login, who.password)
    .buffer(true)
    .parse(binaryBody);
}

async function csvRows(who: Credentials, query: Record<string, string>) {
  const res = await download(who, '/report.csv', query);
  expect(res.status).toBe(200);
  return parse((res.body as Buffer).toString('utf8'), { columns: true }) as Record<
    string,
    string
  >[];
}

/** The number a spreadsheet stores for a time, which exceljs reads back as a Date. */
function days(value: unknown): number {
  expect(value).toBeInstanceOf(Date);
  return ((value as Date).getTime() - Date.UTC(1899, 11, 30)) / 86_400_000;
}

async function sheetOf(who: Credentials, query: Record<string, string>) {
  const res = await download(who, '/report.xlsx', query);
  expect(res.status).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(res.body as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  const header = (sheet.getRow(1).values as unknown[]).slice(1) as string[];
  /** The cell of a row (1 is the header) under a header. */
  const cell = (row: number, name: string) => {
    const column = header.indexOf(name);
    expect({ name, column }).not.toEqual({ name, column: -1 });
    return sheet.getRow(row).getCell(column + 1);
  };
  return { sheet, header, cell, rows: sheet.rowCount };
}

test('report.csv: the bucket is the local date the period starts, and a marked total row ends the file', async () => {
  const rows = await csvRows(owner, AUTUMN);
  expect(rows.map((r) => [r.row_type, r.project_name, r.bucket_start, r.seconds])).toEqual([
    ['detail', 'Audit', '2026-09-01', String(2 * 3600)],
    // October's first half hour in Berlin is in October, though it is 30 September in UTC.
    ['detail', 'Audit', '2026-10-01', String(1.5 * 3600)],
    ['detail', 'Beratung', '2026-10-01', String(1.75 * 3600)],
    ['total', '', '', String(5.25 * 3600)],
  ]);
  const total = rows.at(-1)!;
  // 3.5 h at 120.00 + 1.75 h at 90.00, in cents of EUR.
  expect(total).toMatchObject({ amount_cents: '57750', currency: 'EUR', project_uuid: '' });

  // Grouped by nothing, the one row of everything is the total: it is not written twice.
  const whole = await csvRows(owner, { from: AUTUMN.from, to: AUTUMN.to });
  expect(whole.map((r) => [r.row_type, r.seconds])).toEqual([['total', String(5.25 * 3600)]]);
});

test('report.csv with subtotals: the subtotal rows and the total are marked', async () => {
  const rows = await csvRows(owner, { ...AUTUMN, subtotals: 'true' });
  expect(rows.map((r) => [r.row_type, r.level, r.project_name, r.bucket_start, r.seconds])).toEqual(
    [
      ['detail', '2', 'Audit', '2026-09-01', String(2 * 3600)],
      ['detail', '2', 'Audit', '2026-10-01', String(1.5 * 3600)],
      ['subtotal', '1', 'Audit', '', String(3.5 * 3600)],
      ['detail', '2', 'Beratung', '2026-10-01', String(1.75 * 3600)],
      ['subtotal', '1', 'Beratung', '', String(1.75 * 3600)],
      ['total', '0', '', '', String(5.25 * 3600)],
    ],
  );
});

test('report.xlsx: a date cell, durations as [h]:mm, money in the currency, the total row marked', async () => {
  const { header, cell, rows } = await sheetOf(owner, AUTUMN);
  expect(header).toEqual([
    'row_type',
    'project_uuid',
    'project_name',
    'bucket_start',
    'hours',
    'billable_hours',
    'amount',
    'cost',
    'profit',
    'currency',
  ]);
  expect(rows).toBe(5);
  // Row 3: Audit in October (Berlin).
  const period = cell(3, 'bucket_start');
  expect(period.type).toBe(ExcelJS.ValueType.Date);
  expect(period.value).toEqual(new Date(Date.UTC(2026, 9, 1)));
  expect(period.numFmt).toBe('yyyy-mm-dd');
  // A duration is a number of days, as spreadsheets count time; exceljs reads a number with a
  // time format back as the Date that many days after its epoch.
  const hours = cell(3, 'hours');
  expect(hours.numFmt).toBe('[h]:mm');
  expect(days(hours.value)).toBeCloseTo(1.5 / 24, 12);
  const amount = cell(3, 'amount');
  expect(amount.type).toBe(ExcelJS.ValueType.Number);
  expect(amount.value).toBe(180); // 1.5 h at 120.00, in euros
  expect(amount.numFmt).toBe('"€"#,##0.00');
  expect(cell(3, 'profit').numFmt).toBe('"€"#,##0.00');
  // The total, marked, its hours past a day shown as hours ([h], not a time of day).
  expect(cell(5, 'row_type').value).toBe('total');
  expect(days(cell(5, 'hours').value)).toBeCloseTo(5.25 / 24, 12);
  expect(cell(5, 'amount').value).toBe(577.5);
  expect(cell(5, 'bucket_start').value).toBeNull();

  const subtotals = await sheetOf(owner, { ...AUTUMN, subtotals: 'true' });
  const types = [];
  for (let row = 2; row <= subtotals.rows; row++) types.push(subtotals.cell(row, 'row_type').value);
  expect(types).toEqual(['detail', 'detail', 'subtotal', 'detail', 'subtotal', 'total']);
});

test('report.json answers the rows of report.csv in the JSON envelope, the same numbers', async () => {
  for (const query of [AUTUMN, { ...AUTUMN, subtotals: 'true', group_by: 'project,user' }]) {
    const res = await request(t.app.express)
      .get('/api/1/report.json')
      .query(query)
      .auth(owner.login, owner.password);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-disposition']).toBeUndefined();
    const csv = await csvRows(owner, query);
    expect(Object.keys(res.body)).toEqual(['response', 'count']);
    expect(res.body.count).toBe(csv.length);
    expect(res.body.response).toHaveLength(csv.length);
    (res.body.response as Record<string, unknown>[]).forEach((row, i) => {
      expect(Object.keys(row)).toEqual(Object.keys(csv[i]!));
      for (const [column, value] of Object.entries(row)) {
        // Figures are JSON numbers, equal to the CSV's; an empty field is null.
        if (/seconds|cents|^level$/.test(column) && value !== null)
          expect(typeof value).toBe('number');
        expect({ column, value: value === null ? '' : String(value) }).toEqual({
          column,
          value: csv[i]![column],
        });
      }
    });
    expect(res.body.response.at(-1)).toMatchObject({ row_type: 'total', seconds: 5.25 * 3600 });
  }

  // The same refusals as the files, before the first byte.
  const refused = await request(t.app.express)
    .get('/api/1/report.json')
    .query({ ...AUTUMN, bucket: 'fortnight' })
    .auth(owner.login, owner.password);
  expect(refused.status).toBe(400);
  expect(refused.body.error).toMatchObject({ code: 'BAD_REQUEST', parameter: 'bucket' });
  const zone = await request(t.app.express)
    .get('/api/1/report.json')
    .query({ ...AUTUMN, time_zone: 'Mars/Olympus' })
    .auth(owner.login, owner.password);
  expect(zone.status).toBe(422);
  expect(zone.body.error.field_errors).toEqual([
    { field: 'time_zone', message: 'is not a valid IANA time zone' },
  ]);
});

test('money hidden from a staff member stays hidden in report.json, the total row included', async () => {
  const res = await request(t.app.express)
    .get('/api/1/report.json')
    .query(AUTUMN)
    .auth(staff.login, staff.password);
  expect(res.status).toBe(200);
  expect(res.body.response.map((r: Record<string, unknown>) => r.row_type)).toEqual([
    'detail',
    'total',
  ]);
  for (const row of res.body.response)
    expect(row).toMatchObject({
      seconds: 3600,
      amount_cents: null,
      cost_cents: null,
      profit_cents: null,
    });
  expect(JSON.stringify(res.body)).not.toMatch(/9000|"amount_cents":\d/);
});

test('an unknown path under /api/1 is a 404 that names the path as it was sent', async () => {
  for (const path of ['/api/1/reports.json', '/api/1/nothing', '/api/1/report.txt']) {
    const res = await request(t.app.express).get(path).auth(owner.login, owner.password);
    expect({ path, status: res.status }).toEqual({ path, status: 404 });
    expect(res.body.error.message).toBe(`No such resource: GET ${path}`);
  }
});

test('a yen amount is yen: the CSV, the workbook and the PDF of a JPY account', async () => {
  const query = { from: '2026-10-01', to: '2026-11-01', group_by: 'project' };
  // The summary first: it divided every amount by 100.
  const pdf = await download(yenOwner, '/report.pdf', query);
  expect(pdf.status).toBe(200);
  const [text] = await pdfText(pdf.body as Buffer);
  expect(text).toContain('amounts in JPY');
  expect(text).toContain('¥15,000');
  expect(text).toContain('Total: 3:00 hours, ¥15,000');
  expect(text).not.toContain('¥150');

  const [row] = await csvRows(yenOwner, query);
  expect(row).toMatchObject({ amount_cents: '15000', currency: 'JPY' });

  const { cell } = await sheetOf(yenOwner, query);
  expect(cell(2, 'amount').value).toBe(15000);
  expect(cell(2, 'amount').numFmt).toBe('"¥"#,##0');
});

test("a staff member's PDF shows no amounts and names no currency; the owner's does", async () => {
  const query = {
    from: AUTUMN.from,
    to: AUTUMN.to,
    group_by: 'project',
    time_zone: 'Europe/Berlin',
  };
  const [mine] = await pdfText((await download(staff, '/report.pdf', query)).body as Buffer);
  expect(mine).toContain('Times in Europe/Berlin');
  expect(mine).toContain('Beratung');
  expect(mine).toContain('Total: 1:00 hours');
  expect(mine).not.toMatch(/EUR|€|Amount|amounts/);

  const [owners] = await pdfText((await download(owner, '/report.pdf', query)).body as Buffer);
  expect(owners).toContain('Times in Europe/Berlin; amounts in EUR');
  expect(owners).toContain('Amount');
  expect(owners).toContain('Total: 5:15 hours, €577.50');
});
