import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { AxeBuilder } from '@axe-core/playwright';
import { DateTime } from 'luxon';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { closedNetwork, describeInBrowser, launchChromium } from '../support/headless-chromium';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * The web app at `/` in headless Chromium, as its people use it, on the public interfaces only:
 * an owner signs in through the approval page (OAuth 2.0 code flow with PKCE) and sets up a
 * company, a project with a rate and a staff member; the staff member punches in, watches the
 * timer tick and sees it stop when the JSON API punches out, then edits the shift in the week; a
 * manager's dashboard shows the `report` query's totals, and its CSV download opens. Every page
 * passes axe-core without a serious or critical violation.
 *
 * The screenshots of docs/images/ are these tests' (UPDATE_SCREENSHOTS=1 writes them there; every
 * run writes them to test-artifacts/).
 */

const ARTIFACTS = path.resolve(__dirname, '../../test-artifacts');
const DOC_IMAGES = path.resolve(__dirname, '../../docs/images');
const STAFF_ZONE = 'Europe/Berlin';

let t: TestApp;
let base: string;
let owner: Credentials;
let browser: Browser;
const contexts: BrowserContext[] = [];
const outsideRequests: string[] = [];
const pageErrors: string[] = [];

async function newPage(viewport = { width: 1280, height: 900 }): Promise<Page> {
  // The browser's language and zone fixed: the app formats money and days in the reader's.
  const context = await browser.newContext({
    viewport,
    acceptDownloads: true,
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  contexts.push(context);
  // Works on a closed network: anything not from the service is refused and noted.
  await closedNetwork(context, base, outsideRequests);
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return page;
}

/**
 * Through the approval page, as a person does: Sign in, then login, password and Allow. `checked`:
 * axe-core checks the app's sign-in screen and the service's approval page on the way.
 */
async function signIn(page: Page, who: Credentials, checked = false): Promise<void> {
  await page.goto(`${base}/`);
  if (checked) await expectAccessible(page, 'sign-in screen');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/oauth\/authorize\?/);
  if (checked) await expectAccessible(page, 'approval page');
  await page.getByLabel('Login').fill(who.login);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Allow' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

async function expectAccessible(page: Page, what: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const grave = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${what}: ${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
  expect(grave).toEqual([]);
}

async function screenshot(page: Page, name: string): Promise<void> {
  const image = await page.screenshot({ fullPage: true });
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(path.join(ARTIFACTS, name), image);
  if (process.env.UPDATE_SCREENSHOTS === '1') writeFileSync(path.join(DOC_IMAGES, name), image);
}

/** Who a bearer token signs in as on /graphql, or the status when it does not. */
async function bearerLogin(token: string): Promise<string | number> {
  const res = await request(t.app.express)
    .post('/graphql')
    .set('authorization', `Bearer ${token}`)
    .send({ query: '{ viewer { staff { login } } }' });
  return res.status === 200 ? res.body.data.viewer.staff.login : res.status;
}

function sessionToken(page: Page): Promise<string> {
  return page.evaluate("JSON.parse(sessionStorage.getItem('timetrack.session')).accessToken");
}

beforeAll(async () => {
  t = await startTestApp();
  base = await t.listen();
  // Fixed logins (each test file has a database of its own) keep the screenshots readable.
  owner = await t.newAccount({ login: 'olivia', firstName: 'Olivia', lastName: 'Owner' });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('GET / (the web app page)', () => {
  test('is the app: its files from the service, no inline script or style, nothing cached but its hashed files', async () => {
    const res = await request(t.app.express).get('/').set('accept', 'text/html');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    const csp = res.headers['content-security-policy'];
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("style-src 'self';");
    expect(csp).toContain("connect-src 'self'");
    expect(res.text).not.toMatch(/https?:/);
    expect(res.text).not.toMatch(/<script>|<style>|style="/);
    const files = [...res.text.matchAll(/(?:src|href)="(\/app\/assets\/[^"]+)"/g)].map(
      (m) => m[1]!,
    );
    expect(files.length).toBeGreaterThanOrEqual(2);
    for (const file of files) {
      const asset = await request(t.app.express).get(file);
      expect(asset.status).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(asset.headers['x-content-type-options']).toBe('nosniff');
    }
    expect((await request(t.app.express).get('/app/assets/missing-0000.js')).status).toBe(404);
  });

  test('its first load is at most 200 KB of gzipped JavaScript, without the chart library', async () => {
    const page = await request(t.app.express).get('/');
    const scripts = [...page.text.matchAll(/<script[^>]* src="(\/app\/assets\/[^"]+\.js)"/g)].map(
      (m) => m[1]!,
    );
    expect(scripts).toHaveLength(1);
    const entry = (await request(t.app.express).get(scripts[0]!)).text;
    expect(gzipSync(entry, { level: 9 }).length).toBeLessThanOrEqual(200 * 1024);
    // uPlot's own class names: its code comes with the dashboard's chunk only.
    expect(entry).not.toContain('u-over');
  });
});

describeInBrowser('web app browser test')('the web app in headless Chromium', () => {
  let staff: Credentials & { id: string };
  let projectId: string;
  let companyId: string;

  beforeAll(async () => {
    browser = await launchChromium();
  }, 180_000);
  // Each test's own: a script error or a request outside the service fails the test that made it.
  afterEach(() => {
    expect(outsideRequests.splice(0)).toEqual([]);
    expect(pageErrors.splice(0)).toEqual([]);
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
  });

  test('an owner signs in, creates a company, a project with a rate and limit, and a staff member; signing out revokes the token', async () => {
    const page = await newPage();
    await signIn(page, owner, true);
    await expectAccessible(page, 'timer (no projects)');

    await page.getByRole('link', { name: 'Projects & staff' }).click();
    await page.getByRole('heading', { name: 'Projects, companies and staff' }).waitFor();
    const companies = page.getByRole('region', { name: 'Companies', exact: true });
    await companies.getByLabel('Name', { exact: true }).fill('Acme Corporation');
    await companies.getByLabel('City').fill('Lyon');
    await companies.getByRole('button', { name: 'Create company' }).click();
    await companies.getByRole('status').getByText('Acme Corporation created.').waitFor();

    const projects = page.getByRole('region', { name: 'Projects', exact: true });
    await projects.getByLabel('Name', { exact: true }).fill('Website');
    await projects.getByLabel('Company').selectOption({ label: 'Acme Corporation' });
    await projects.getByLabel('Time limit').fill('10h');
    await projects.getByLabel('Hourly rate').fill('$85');
    await projects.getByRole('button', { name: 'Create project' }).click();
    await projects.getByRole('status').getByText('Website created.').waitFor();

    const people = page.getByRole('region', { name: 'Staff', exact: true });
    await people.getByLabel('Login', { exact: true }).fill('sam');
    await people.getByLabel('Password').fill('sam-password');
    await people.getByLabel('First name').fill('Sam');
    await people.getByLabel('Last name').fill('Staff');
    await people.getByLabel('Time zone').fill(STAFF_ZONE);
    await people.getByRole('button', { name: 'Add person' }).click();
    await people.getByRole('status').getByText('Sam Staff created.').waitFor();

    // A project's limit is edited, and a rate set from a date on (its history listed).
    await projects.getByRole('button', { name: 'Edit: Website' }).click();
    const editing = projects.getByRole('form', { name: 'Edit Website' });
    await editing.getByLabel('Time limit').fill('12h');
    await editing.getByRole('button', { name: 'Save' }).click();
    await projects.getByRole('status').getByText('Website saved.').waitFor();
    await projects.getByRole('button', { name: 'Rates: Website' }).click();
    const rates = projects.getByRole('region', { name: 'Rate history of Website' });
    await rates.getByLabel('Effective from').fill('2099-01-01');
    await rates.getByLabel(/^Rate \(cents/).fill('9000');
    await rates.getByRole('button', { name: 'Set rate' }).click();
    await rates.getByRole('cell', { name: '$90.00' }).waitFor();

    // An API refusal is shown where it belongs: a second "sam" is refused on its field.
    await people.getByLabel('Login', { exact: true }).fill('sam');
    await people.getByLabel('Password').fill('sam-password');
    await people.getByRole('button', { name: 'Add person' }).click();
    await people.getByRole('alert').getByText(/login/i).first().waitFor();
    await expectAccessible(page, 'projects and staff');

    const stored = await t.gqlOk(
      owner,
      '{ projects(first: 5) { nodes { id name timeLimit hourlyRateCents company { id name } rates { cents effectiveFrom } } } staff(first: 5, filter: { login: { eq: "sam" } }) { nodes { id timeZone type } } }',
    );
    expect(stored.projects.nodes).toEqual([
      {
        id: expect.any(String),
        name: 'Website',
        timeLimit: 12 * 3600,
        hourlyRateCents: 8_500,
        company: { id: expect.any(String), name: 'Acme Corporation' },
        rates: expect.arrayContaining([
          { cents: 9_000, effectiveFrom: new Date(Date.UTC(2099, 0, 1)).toISOString() },
        ]),
      },
    ]);
    expect(stored.staff.nodes).toEqual([
      { id: expect.any(String), timeZone: STAFF_ZONE, type: 'STAFF' },
    ]);
    projectId = stored.projects.nodes[0].id;
    companyId = stored.projects.nodes[0].company.id;
    staff = { login: 'sam', password: 'sam-password', id: stored.staff.nodes[0].id };

    // Signing out revokes the token the tab held.
    const token = await sessionToken(page);
    expect(await bearerLogin(token)).toBe('olivia');
    await Promise.all([
      page.waitForResponse(`${base}/oauth/revoke`),
      page.getByRole('button', { name: 'Sign out' }).click(),
    ]);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await bearerLogin(token)).toBe(401);
    expect(await page.evaluate("sessionStorage.getItem('timetrack.session')")).toBeNull();
  });

  test('a staff member punches in, the timer ticks, and it stops when the JSON API punches out', async () => {
    const page = await newPage();
    await page.clock.install();
    await signIn(page, staff);
    await page.getByRole('heading', { name: 'Timer' }).waitFor();
    await page
      .getByLabel('Project', { exact: true })
      .selectOption({ label: 'Acme Corporation – Website' });
    await page.getByLabel('Notes').fill('Home page');
    // The key, from outside the form: Alt+Shift+S punches in to the chosen project.
    await page.getByRole('heading', { name: 'Timer' }).click();
    await page.keyboard.press('Alt+Shift+KeyS');
    await page.getByRole('status').getByText('Punched in to Website.').waitFor();

    // The clock is the page's own (Playwright's): the running shift shows the time from its
    // start, read from the API, to the page's instant, second by second.
    const { shifts } = await t.gqlOk(
      staff,
      '{ shifts(first: 1, filter: { stop: { isNull: true } }) { nodes { start } } }',
    );
    const started = Date.parse(shifts.nodes[0].start);
    const paused = started + 600_000 + 2_000;
    await page.clock.pauseAt(paused);
    const elapsed = page.getByTestId('elapsed');
    await elapsed.getByText(clock(paused - started), { exact: true }).waitFor();
    await page.clock.runFor(5_000);
    await elapsed.getByText(clock(paused + 5_000 - started), { exact: true }).waitFor();
    // A screenshot waits for animation frames, which a paused clock holds back.
    await page.clock.resume();
    await screenshot(page, 'web-timer.png');
    await expectAccessible(page, 'timer (running)');

    // Elsewhere (an old client on the JSON API): the running shift stops, the page follows live.
    const out = await request(t.app.express)
      .post(`/api/1/projects/${projectId}/punch_out.json`)
      .auth(staff.login, staff.password);
    expect(out.status).toBe(200);
    await page.getByRole('status').getByText('Website changed elsewhere.').waitFor();
    await page.getByRole('button', { name: 'Punch in', exact: true }).waitFor();
    expect(await elapsed.count()).toBe(0);
    await page.close();
  });

  test('the staff member edits the shift in the week view: times in their zone, stored as instants', async () => {
    const page = await newPage();
    await signIn(page, staff);
    // The week that holds the punched shift, by the page's address (not the clock's week).
    const punched = await t.gqlOk(staff, '{ shifts(first: 1) { nodes { start } } }');
    const monday = DateTime.fromISO(punched.shifts.nodes[0].start, { zone: STAFF_ZONE })
      .startOf('week')
      .toISODate();
    await page.goto(`${base}/#/week?week=${monday}`);
    await page.getByRole('heading', { name: 'Week', exact: true }).waitFor();
    const shifts = page.getByRole('table', { name: 'Shifts' });
    await shifts.getByRole('button', { name: /^Edit:/ }).click();
    const editor = page.getByRole('form', { name: 'Edit shift' });
    const date = await editor.getByLabel('Date').inputValue();
    await editor.getByLabel('Start', { exact: true }).fill('09:00');
    await editor.getByLabel('Stop', { exact: true }).fill('11:30');
    await editor.getByLabel('Notes').fill('Home page, reviewed');
    await editor.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText('Shift saved.').waitFor();
    await page
      .getByRole('table', { name: 'Hours by project and day' })
      .getByText('2:30')
      .first()
      .waitFor();

    const { shifts: stored } = await t.gqlOk(
      staff,
      '{ shifts(first: 5) { nodes { start stop notes timeZone } } }',
    );
    const local = (time: string) =>
      DateTime.fromISO(`${date}T${time}`, { zone: STAFF_ZONE }).toMillis();
    expect(stored.nodes).toHaveLength(1);
    expect(Date.parse(stored.nodes[0].start)).toBe(local('09:00'));
    expect(Date.parse(stored.nodes[0].stop)).toBe(local('11:30'));
    expect(stored.nodes[0]).toMatchObject({ notes: 'Home page, reviewed', timeZone: STAFF_ZONE });

    // A shift the API refuses (notes over 10,000 characters) shows the refusal on its field.
    await page.getByRole('button', { name: 'Add shift' }).click();
    const adding = page.getByRole('form', { name: 'New shift' });
    await adding.getByLabel('Date').fill(date);
    await adding.getByLabel('Notes').fill('x'.repeat(10_001));
    await adding.getByRole('button', { name: 'Save' }).click();
    await adding.getByRole('alert').getByText('notes', { exact: true }).waitFor();
    await adding.getByRole('button', { name: 'Cancel' }).click();
    expect((await t.gqlOk(staff, '{ shifts(first: 5) { totalCount } }')).shifts.totalCount).toBe(1);

    await screenshot(page, 'web-week.png');
    await expectAccessible(page, 'week');

    // A shift added on the next day, then deleted (after the browser's confirmation).
    await page.getByRole('button', { name: 'Add shift' }).click();
    const another = page.getByRole('form', { name: 'New shift' });
    await another.getByLabel('Date').fill(date);
    await another.getByLabel('Start', { exact: true }).fill('13:00');
    await another.getByLabel('Stop', { exact: true }).fill('14:00');
    await another.getByRole('button', { name: 'Save' }).click();
    await shifts.getByRole('button', { name: /^Delete: .* 13:00–14:00$/ }).waitFor();
    expect((await t.gqlOk(staff, '{ shifts(first: 5) { totalCount } }')).shifts.totalCount).toBe(2);
    page.once('dialog', (dialog) => void dialog.accept());
    await shifts.getByRole('button', { name: /^Delete: .* 13:00–14:00$/ }).click();
    await page.getByRole('status').getByText('Shift deleted.').waitFor();
    expect((await t.gqlOk(staff, '{ shifts(first: 5) { totalCount } }')).shifts.totalCount).toBe(1);
    await page.close();
  });

  test("a manager's dashboard shows the report query's totals beside its charts, and its CSV download opens", async () => {
    const manager = await t.newStaff(owner, {
      type: 'MANAGER',
      login: 'mia',
      firstName: 'Mia',
      lastName: 'Manager',
    });
    const other = await t.create(owner, 'createProject', {
      name: 'Intranet',
      companyId,
      timeLimit: 50 * 3600,
    });
    // Time spread over weeks of a fixed range, by two people, on both projects.
    for (const [i, project] of [projectId, other.id, projectId, other.id, projectId].entries()) {
      await t.gqlOk(
        owner,
        'mutation($input: CreateShiftInput!) { createShift(input: $input) { shift { id } } }',
        {
          input: {
            projectId: project,
            userId: i % 2 ? manager.id : staff.id,
            start: `2026-0${1 + (i % 3)}-${10 + i}T08:00:00Z`,
            stop: `2026-0${1 + (i % 3)}-${10 + i}T1${i}:15:00Z`,
            billable: i !== 3,
          },
        },
      );
    }
    const page = await newPage();
    await signIn(page, manager);
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByLabel('From').fill('2026-01-05');
    await page.getByLabel('To (exclusive)').fill('2026-04-06');
    await page.getByLabel('Per', { exact: true }).selectOption('WEEK');
    await page.getByRole('button', { name: 'Show' }).click();
    // Drawn with every figure: the periods of the largest projects come with a second query.
    await page.locator('[data-testid="charts"][aria-busy="false"]').waitFor();

    const { report } = await t.gqlOk(
      manager,
      `{ report(input: { fromDate: "2026-01-05", toDate: "2026-04-06", groupBy: [USER] }) {
           totals { seconds billableSeconds amountCents }
           rows { user { login } seconds } } }`,
    );
    const total = (row: RegExp, figure: 'seconds' | 'cents') =>
      page
        .getByTestId('totals')
        .getByRole('row', { name: row })
        .locator('td')
        .getAttribute(`data-${figure}`);
    expect(await total(/^Hours/, 'seconds')).toBe(String(report.totals.seconds));
    expect(await total(/^Billable hours/, 'seconds')).toBe(String(report.totals.billableSeconds));
    expect(await total(/^Amount/, 'cents')).toBe(String(report.totals.amountCents));
    // The per-person table beside its chart holds the query's rows.
    const perPerson = page.getByTestId('per-person-table');
    for (const row of report.rows) {
      const name = row.user.login === 'mia' ? 'Mia Manager' : 'Sam Staff';
      await expect(
        perPerson.getByRole('row', { name }).locator('td').first().innerText(),
      ).resolves.toBe((row.seconds / 3600).toFixed(2));
    }
    // The stacked chart's table adds up to the total too.
    const cells = await page.getByTestId('by-project-table').locator('tbody td').allInnerTexts();
    expect(cells.reduce((sum, cell) => sum + Number(cell), 0)).toBeCloseTo(
      report.totals.seconds / 3600,
      1,
    );
    await screenshot(page, 'web-dashboard.png');
    await expectAccessible(page, 'dashboard');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'CSV' }).click(),
    ]);
    const csv = readFileSync((await download.path())!, 'utf8')
      .trim()
      .split('\n');
    expect(csv[0]).toMatch(/^row_type,project_uuid,project_name,bucket_start,seconds,/);
    expect(csv.at(-1)).toMatch(
      new RegExp(`^total,,,,${report.totals.seconds},${report.totals.billableSeconds},`),
    );
    await page.close();
  });

  test('a minute before the access token expires the app refreshes it; the old one stops working', async () => {
    const page = await newPage();
    await page.clock.install();
    await signIn(page, staff);
    const first = await sessionToken(page);
    // The page's clock (Playwright's) goes on to 30 s before the token expires, at once.
    const expiresAt = (await page.evaluate(
      "JSON.parse(sessionStorage.getItem('timetrack.session')).expiresAt",
    )) as number;
    const now = (await page.evaluate('Date.now()')) as number;
    await page.clock.fastForward(expiresAt - now - 30_000);
    // Until the answer of /oauth/token is stored (a function: the page's CSP refuses eval).
    await page.waitForFunction(
      (old) =>
        (globalThis as any).sessionStorage.getItem('timetrack.session')?.includes(old) === false,
      first,
    );
    const second = await sessionToken(page);
    expect(second).not.toBe(first);
    expect(await bearerLogin(second)).toBe('sam');
    expect(await bearerLogin(first)).toBe(401);
    // The page goes on working with the new token.
    await page.clock.resume();
    await page.getByRole('link', { name: 'Week' }).click();
    await page.getByRole('table', { name: 'Hours by project and day' }).waitFor();
    await page.close();
  });

  test("the plan's refusal is explained where a person is added", async () => {
    const small = await t.newAccount({ login: 'solo', staffMax: 0 });
    const page = await newPage();
    await signIn(page, small);
    await page.getByRole('link', { name: 'Projects & staff' }).click();
    const people = page.getByRole('region', { name: 'Staff', exact: true });
    await people.getByLabel('Login', { exact: true }).fill('helper');
    await people.getByLabel('Password').fill('helper-password');
    await people.getByRole('button', { name: 'Add person' }).click();
    await people
      .getByRole('alert')
      .getByText("The account's plan has no staff members besides the owner.")
      .waitFor();
    await page.close();
  });

  test('at phone width the timer is usable and passes axe-core', async () => {
    const page = await newPage({ width: 375, height: 740 });
    await signIn(page, staff);
    await page.getByRole('button', { name: 'Punch in', exact: true }).waitFor();
    const overflow = await page.evaluate(
      'document.documentElement.scrollWidth - window.innerWidth',
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(page, 'timer at phone width');
    await page.close();
  });
});

/** Milliseconds as the timer shows them: "1:00:02". */
function clock(ms: number): string {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}
