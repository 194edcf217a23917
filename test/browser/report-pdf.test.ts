import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import request from 'supertest';
import { describeInBrowser, launchChromium } from '../support/headless-chromium';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';
import { binaryBody } from '../support/binary-body';

/**
 * GET /api/1/report.pdf: a summary of a report for a client (issue 23, item 5). The file is
 * rendered as a picture in Chromium by pdf.js, as a person would see it: the picture is kept in
 * test-artifacts/ and must show ink, and the text pdf.js reads off the rendered page must hold
 * the heading, each row's names, hours and amount, and the totals.
 */
const ARTIFACTS = path.resolve(__dirname, '../../test-artifacts');
const PDFJS = path.dirname(require.resolve('pdfjs-dist/package.json'));
// An origin of the test's own, answered by request interception: nothing leaves the machine.
const ORIGIN = 'http://pdf.test';

let t: TestApp;
let owner: Credentials;
let staff: Credentials;

beforeAll(async () => {
  t = await startTestApp();
  owner = await t.newAccount({ currency: 'EUR', timeZone: 'Europe/Berlin' });
  staff = await t.newStaff(owner, {});
  const company = await t.create(owner, 'createCompany', {
    name: 'Client AG',
    visibility: 'PUBLIC',
  });
  for (const [name, rate, hours] of [
    ['Website relaunch', 12000, 2.5],
    ['Support', 8000, 1],
    // Names in the scripts of the clients' own languages: Polish, Greek, Cyrillic.
    ['Łódź – Ωmega – Проект', 6000, 0.5],
  ] as const) {
    const project = await t.create(owner, 'createProject', {
      companyId: company.id,
      name,
      visibility: 'PUBLIC',
      hourlyRateCents: rate,
    });
    await t.gqlOk(
      owner,
      'mutation($input: CreateShiftInput!) { createShift(input: $input) { shift { id } } }',
      {
        input: {
          projectId: project.id,
          start: '2026-03-02T08:00:00Z',
          stop: new Date(Date.parse('2026-03-02T08:00:00Z') + hours * 3_600_000).toISOString(),
        },
      },
    );
  }
});
afterAll(() => t?.close());

async function pdf(who: Credentials, query: Record<string, string>) {
  return request(t.app.express)
    .get('/api/1/report.pdf')
    .query(query)
    .auth(who.login, who.password)
    .buffer(true)
    .parse(binaryBody);
}

const MARCH = { from: '2026-03-01', to: '2026-04-01', group_by: 'company,project' };

test('the summary is a PDF attachment; bad parameters are refused before the first byte', async () => {
  const res = await pdf(owner, MARCH);
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  expect(res.headers['content-disposition']).toMatch(/report\.pdf/);
  expect((res.body as Buffer).subarray(0, 5).toString()).toBe('%PDF-');
  const refused = await request(t.app.express)
    .get('/api/1/report.pdf')
    .query({ ...MARCH, group_by: 'planet' })
    .auth(owner.login, owner.password);
  expect(refused.status).toBe(400);
  expect(refused.body.error.parameter).toBe('group_by');
});

describeInBrowser('the report summary rendered')('the report summary rendered', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** Renders page 1 with pdf.js; answers the text it reads and the share of inked pixels. */
  async function render(file: Buffer, picture: string) {
    const page = await browser.newPage();
    const files: Record<string, [string, Buffer]> = {
      '/pdf.mjs': ['text/javascript', readFileSync(path.join(PDFJS, 'build/pdf.min.mjs'))],
      '/pdf.worker.mjs': [
        'text/javascript',
        readFileSync(path.join(PDFJS, 'build/pdf.worker.min.mjs')),
      ],
      '/report.pdf': ['application/pdf', file],
      '/': [
        'text/html',
        Buffer.from(`<!doctype html><canvas id="page"></canvas><script type="module">
          import * as pdfjs from '/pdf.mjs';
          pdfjs.GlobalWorkerOptions.workerSrc = '/pdf.worker.mjs';
          const doc = await pdfjs.getDocument({ url: '/report.pdf' }).promise;
          const first = await doc.getPage(1);
          const viewport = first.getViewport({ scale: 1.5 });
          const canvas = document.getElementById('page');
          canvas.width = viewport.width;
          canvas.height = viewport.height;
          await first.render({ canvas, viewport }).promise;
          const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
          let inked = 0;
          for (let i = 0; i < pixels.length; i += 4) if (pixels[i] < 128 && pixels[i + 3] > 0) inked++;
          const text = (await first.getTextContent()).items.map((item) => item.str).join(' ');
          window.rendered = { pages: doc.numPages, text, inked: inked / (pixels.length / 4) };
        </script>`),
      ],
    };
    await page.route(`${ORIGIN}/**`, (route) => {
      const found = files[new URL(route.request().url()).pathname];
      return found
        ? route.fulfill({ status: 200, contentType: found[0], body: found[1] })
        : route.fulfill({ status: 404 });
    });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => problems.push(message.text()));
    await page.goto(`${ORIGIN}/`);
    await page
      .waitForFunction(() => (globalThis as { rendered?: unknown }).rendered !== undefined, null, {
        timeout: 15_000,
      })
      .catch((error: Error) => {
        throw new Error(`${error.message}; the page said: ${problems.join(' | ')}`);
      });
    const rendered = await page.evaluate(
      () =>
        (globalThis as unknown as { rendered: { pages: number; text: string; inked: number } })
          .rendered,
    );
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.locator('#page').screenshot({ path: path.join(ARTIFACTS, picture) });
    await page.close();
    return rendered;
  }

  test("the owner's summary shows the heading, the rows with hours and amounts, and the totals", async () => {
    const rendered = await render((await pdf(owner, MARCH)).body as Buffer, 'report-summary.png');
    expect(rendered.pages).toBe(1);
    // Text on the page, and ink: the table is drawn, not a blank page.
    expect(rendered.inked).toBeGreaterThan(0.002);
    const text = rendered.text.replace(/\s+/g, ' ');
    for (const expected of [
      'Time report',
      '2026-03-01 to 2026-04-01',
      'Times in Europe/Berlin; amounts in EUR',
      'Company',
      'Project',
      'Hours',
      'Amount',
      'Client AG',
      'Website relaunch',
      '2:30',
      '€300.00',
      'Support',
      '1:00',
      '€80.00',
      'Łódź – Ωmega – Проект',
      '0:30',
      '€30.00',
      'Total: 4:00 hours, €410.00',
    ])
      expect(text).toContain(expected);
  });

  test("a staff member's summary shows their hours and no amounts", async () => {
    const rendered = await render(
      (await pdf(staff, MARCH)).body as Buffer,
      'report-summary-staff.png',
    );
    const text = rendered.text.replace(/\s+/g, ' ');
    expect(text).toContain('Total: 0:00 hours');
    expect(text).not.toContain('€');
  });
});
