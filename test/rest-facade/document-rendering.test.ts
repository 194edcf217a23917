import ExcelJS from 'exceljs';
import request from 'supertest';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';
import { binaryBody } from '../support/binary-body';

/**
 * Documents are rendered off the event loop (attack findings, item 2). A staff member's three
 * shifts with 10,000-character notes made `GET /api/1/report.pdf?group_by=notes` lay out each note
 * over pages on the event loop: 12 s during which every account's requests waited. Now the PDF
 * and the XLSX workbook are written in the render pool's worker threads, and a PDF cell is one
 * line, cut with an ellipsis.
 *
 * What proves it without a clock: the document libraries are poisoned on this (the main) thread,
 * so a PDF or workbook made here would fail the download, yet both arrive whole; the render pool's
 * counter in /metrics says a worker rendered them. The notes' layout is bounded: the summary of
 * three notes is one page (it was seven), and the workbook keeps each note whole.
 */
jest.mock('pdfkit', () =>
  jest.fn(() => {
    throw new Error('pdfkit ran on the main thread');
  }),
);
jest.mock('exceljs', () => {
  const actual = jest.requireActual<typeof ExcelJS>('exceljs');
  return {
    ...actual,
    stream: {
      ...actual.stream,
      xlsx: {
        ...actual.stream.xlsx,
        WorkbookWriter: jest.fn(() => {
          throw new Error("exceljs' writer ran on the main thread");
        }),
      },
    },
  };
});

let t: TestApp;
let staff: Credentials;
const notes: string[] = [];
const MARCH = { from: '2026-03-01', to: '2026-04-01', group_by: 'notes' };

/** 10,000 letters without a space: one word that pdfkit's line wrapper cannot break. */
function longNote(seed: number): string {
  let text = '';
  for (let x = seed; text.length < 10_000;) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    text += String.fromCharCode(97 + (x % 26));
  }
  return text;
}

beforeAll(async () => {
  t = await startTestApp();
  const owner = await t.newAccount({ timeZone: 'UTC' });
  staff = await t.newStaff(owner, {});
  const company = await t.create(owner, 'createCompany', {
    name: 'Notes Ltd',
    visibility: 'PUBLIC',
  });
  const project = await t.create(owner, 'createProject', {
    companyId: company.id,
    name: 'Long notes',
    visibility: 'PUBLIC',
  });
  for (let day = 2; day <= 4; day++) {
    notes.push(longNote(day));
    await t.gqlOk(
      staff,
      'mutation($input: CreateShiftInput!) { createShift(input: $input) { shift { id } } }',
      {
        input: {
          projectId: project.id,
          start: `2026-03-0${day}T08:00:00Z`,
          stop: `2026-03-0${day}T09:00:00Z`,
          notes: notes.at(-1),
        },
      },
    );
  }
});
afterAll(() => t?.close());

async function download(path: string, query: Record<string, string>) {
  return request(t.app.express)
    .get(path)
    .query(query)
    .auth(staff.login, staff.password)
    .buffer(true)
    .parse(binaryBody);
}

async function metrics(): Promise<string> {
  const res = await request(t.app.express).get('/metrics');
  expect(res.status).toBe(200);
  return res.text;
}

/** The value of one sample of the Prometheus text (0 when absent). */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

test('the long-notes summary is rendered in a worker, one page, each note cut to its cell', async () => {
  const before = sample(await metrics(), 'render_jobs_total{format="pdf",outcome="rendered"}');
  const res = await download('/api/1/report.pdf', MARCH);
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  const pdf = (res.body as Buffer).toString('latin1');
  expect(pdf.startsWith('%PDF-')).toBe(true);
  expect(pdf.trimEnd().endsWith('%%EOF')).toBe(true);
  // pdfkit writes each page as an object of its own (`/Type /Page`; the tree is `/Type /Pages`).
  expect(pdf.match(/\/Type \/Page\b(?!s)/g)).toHaveLength(1);
  const after = sample(await metrics(), 'render_jobs_total{format="pdf",outcome="rendered"}');
  expect(after).toBe(before + 1);
});

test('the workbook keeps every note whole, and is written in a worker', async () => {
  const before = sample(await metrics(), 'render_jobs_total{format="xlsx",outcome="rendered"}');
  const res = await download('/api/1/report.xlsx', MARCH);
  expect(res.status).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(res.body as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  workbook.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  // The row type first, then the notes; the last row is the total (issue 34, item 6).
  expect(rows[0]!.slice(0, 2)).toEqual(['row_type', 'notes']);
  expect(rows.slice(1, -1).map((row) => row[1])).toEqual([...notes].sort());
  expect(rows.at(-1)![0]).toBe('total');
  const after = sample(await metrics(), 'render_jobs_total{format="xlsx",outcome="rendered"}');
  expect(after).toBe(before + 1);
});

test("/metrics carries the event loop's delay and the render pool's state", async () => {
  const text = await metrics();
  for (const series of [
    'nodejs_eventloop_lag_max_seconds',
    'nodejs_eventloop_lag_p99_seconds',
    'render_threads',
    'render_jobs_running',
    'render_jobs_queued',
  ])
    expect(text).toMatch(new RegExp(`^${series} [0-9.e+-]+$`, 'm'));
  expect(sample(text, 'render_threads')).toBeGreaterThanOrEqual(1);
});

test('a document the pool cannot render is a 503 with the JSON error, not a 500 and no stack', async () => {
  // The pool is closed as on shutdown: what reaches it now fails as a render failure does.
  await t.app.renderPool.close();
  const res = await request(t.app.express)
    .get('/api/1/report.pdf')
    .query(MARCH)
    .auth(staff.login, staff.password);
  expect(res.status).toBe(503);
  expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
  expect(res.body.error.message).toMatch(/try again shortly/);
  expect(JSON.stringify(res.body)).not.toMatch(/\bat |\.ts\b|\.mts\b|\.js\b/);
  expect(sample(await metrics(), 'render_threads')).toBe(0);
});
