import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import request from 'supertest';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';
import { binaryBody } from '../support/binary-body';

/**
 * Every CSV download is also an Excel workbook at the same path ending in `.xlsx` (issue 23,
 * item 5): the same rows and columns, numbers as numbers, across pages (PAGE_SIZE_MAX=2 makes
 * each file several operations), and the same refusals before the first byte.
 */
let t: TestApp;
let owner: Credentials;
let projectId: string;

beforeAll(async () => {
  t = await startTestApp({ PAGE_SIZE_MAX: '2', PAGE_SIZE_DEFAULT: '2' });
  owner = await t.newAccount({ timeZone: 'UTC' });
  const company = await t.create(owner, 'createCompany', { name: 'Sheets Ltd' });
  projectId = (
    await t.create(owner, 'createProject', {
      companyId: company.id,
      name: '=SUM(A1)',
      hourlyRateCents: 6000,
    })
  ).id;
  for (let day = 1; day <= 5; day++) {
    await t.gqlOk(
      owner,
      'mutation($input: CreateShiftInput!) { createShift(input: $input) { shift { id } } }',
      {
        input: {
          projectId,
          start: `2026-04-0${day}T09:00:00Z`,
          stop: `2026-04-0${day}T${10 + day}:00:00Z`,
          notes: day === 3 ? '@cmd' : `day ${day}`,
        },
      },
    );
  }
});
afterAll(() => t?.close());

async function download(path: string, query: Record<string, string>) {
  return request(t.app.express)
    .get(`/api/1${path}`)
    .query(query)
    .auth(owner.login, owner.password)
    .buffer(true)
    .parse(binaryBody);
}

/** The rows of the workbook's one sheet, the header first, as the cells hold them. */
async function sheetRows(file: Buffer): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(file as unknown as ArrayBuffer);
  expect(workbook.worksheets).toHaveLength(1);
  const rows: unknown[][] = [];
  workbook.worksheets[0]!.eachRow({ includeEmpty: true }, (row) => {
    rows.push((row.values as unknown[]).slice(1));
  });
  return rows;
}

/** A duration as a workbook stores it (days, `[h]:mm`), which exceljs reads back as a Date. */
const duration = (seconds: number) => new Date(Date.UTC(1899, 11, 30) + seconds * 1000);

/**
 * The report workbook's columns that a person reads differently from the CSV file (issue 34,
 * item 6): the period a date cell, durations as time, money in dollars (the account's USD): the
 * CSV header, the workbook's, and the cell a CSV field becomes.
 */
const REPORT_SHEET_FORMS: Readonly<Record<string, readonly [string, (text: string) => unknown]>> = {
  bucket_start: ['bucket_start', (text) => new Date(`${text}T00:00:00Z`)],
  seconds: ['hours', (text) => duration(Number(text))],
  billable_seconds: ['billable_hours', (text) => duration(Number(text))],
  amount_cents: ['amount', (text) => Number(text) / 100],
  cost_cents: ['cost', (text) => Number(text) / 100],
  profit_cents: ['profit', (text) => Number(text) / 100],
};

test.each([
  ['/report.xlsx', { from: '2026-04-01', to: '2026-04-06', group_by: 'project', bucket: 'day' }],
  ['/shifts.xlsx', {}],
  [`/projects/PROJECT/shifts.xlsx`, { order: 'start desc' }],
])('%s holds the rows of the CSV download, numbers as numbers', async (path, query) => {
  const at = path.replace('PROJECT', projectId);
  const xlsx = await download(at, query);
  expect(xlsx.status).toBe(200);
  expect(xlsx.headers['content-type']).toBe(
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  );
  expect(xlsx.headers['content-disposition']).toMatch(/\.xlsx$/);
  const csv = await download(at.replace(/\.xlsx$/, '.csv'), query);
  const csvRows = parse((csv.body as Buffer).toString('utf8')) as string[][];

  const rows = await sheetRows(xlsx.body as Buffer);
  expect(rows.length).toBe(csvRows.length);
  expect(rows.length).toBeGreaterThan(3); // several pages of two
  const forms = path === '/report.xlsx' ? REPORT_SHEET_FORMS : {};
  expect(rows[0]).toEqual(csvRows[0]!.map((header) => forms[header]?.[0] ?? header));
  rows.slice(1).forEach((row, i) => {
    const csvRow = csvRows[i + 1]!;
    expect(row.length).toBeLessThanOrEqual(csvRow.length);
    csvRow.forEach((text, j) => {
      const cell = row[j];
      const form = forms[csvRows[0]![j]!];
      if (form && text !== '') expect(cell).toEqual(form[1](text));
      else if (typeof cell === 'number') expect(String(cell)).toBe(text);
      // Text is the value itself: the CSV's formula guard (a leading ') is not needed in a
      // workbook, whose cells are typed.
      else expect(cell ?? '').toBe(text.replace(/^'(?=[=+\-@\t\r])/, ''));
    });
  });
});

test('the report workbook keeps names that look like formulas as text', async () => {
  const rows = await sheetRows(
    (await download('/report.xlsx', { from: '2026-04-01', to: '2026-04-06', group_by: 'project' }))
      .body as Buffer,
  );
  expect(rows[1]!.slice(0, 4)).toEqual([
    'detail',
    projectId,
    '=SUM(A1)',
    duration(5 * 3600 + 15 * 3600),
  ]);
});

test('a refusal before the first byte is the JSON error envelope, as for CSV', async () => {
  const res = await request(t.app.express)
    .get('/api/1/report.xlsx')
    .query({ to: '2026-04-06' })
    .auth(owner.login, owner.password);
  expect(res.status).toBe(400);
  expect(res.body.error).toMatchObject({ code: 'BAD_REQUEST', parameter: 'from' });
});
