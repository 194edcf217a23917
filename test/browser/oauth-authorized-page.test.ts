import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { describeInBrowser, launchChromium } from '../support/headless-chromium';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * The official CLI's `setup` as its user lives it, in headless Chromium: the CLI opens the approval
 * page; the user signs in and allows; the browser lands on `/oauth/authorized`, whose Copy address
 * button puts the page's whole address on the clipboard; that is what the user pastes at the CLI's
 * `URL:` prompt, which accepts only `/\A<redirect_uri>#access_token=.+&state=\Z/`.
 */
const CLIENT_ID = 'NjtVKz6Di3ccJjn2AGwZKhSxYBX4QHPJ5w1LrZOR';
const ARTIFACTS = path.resolve(__dirname, '../../test-artifacts');

let t: TestApp;
let base: string;
let user: Credentials;
let browser: Browser;
let context: BrowserContext;

describeInBrowser('OAuth landing page browser test')(
  '/oauth/authorized in headless Chromium',
  () => {
    beforeAll(async () => {
      t = await startTestApp();
      base = await t.listen();
      const owner = await t.newAccount();
      await t.gqlOk(
        owner,
        `mutation($input: RegisterOAuthClientInput!) { registerOAuthClient(input: $input) { client { key } } }`,
        {
          input: {
            name: '88 Miles CLI',
            protocol: 'OAUTH2',
            confidential: false,
            clientId: CLIENT_ID,
            redirectUris: [`${base}/oauth/authorized`],
          },
        },
      );
      user = await t.newStaff(owner, { type: 'STAFF' });
      browser = await launchChromium();
      context = await browser.newContext();
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    }, 180_000);
    afterAll(async () => {
      await browser?.close();
      await t?.close();
    });

    const authorizeUrl = () =>
      `${base}/oauth/authorize?response_type=token&client_id=${CLIENT_ID}&redirect_uri=${encodeURIComponent(`${base}/oauth/authorized`)}`;

    test('Allow lands on a page whose Copy address button copies the address the CLI accepts', async () => {
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
      await page.goto(authorizeUrl());
      await page.getByLabel('Login').fill(user.login);
      await page.getByLabel('Password').fill(user.password);
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForURL(`${base}/oauth/authorized#*`);

      await page.getByText('Copy the whole address of this page').waitFor();
      expect(await page.locator('#address').inputValue()).toBe(page.url());
      await page.getByRole('button', { name: 'Copy address' }).click();
      await page.getByRole('button', { name: 'Copied' }).waitFor();
      // The test's tsconfig has no DOM types; in the page, globalThis is the window.
      type Window = { navigator: { clipboard: { readText(): Promise<string> } } };
      const pasted = await page.evaluate(() =>
        (globalThis as unknown as Window).navigator.clipboard.readText(),
      );
      expect(pasted).toBe(page.url());
      expect(pasted).toMatch(new RegExp(`^${base}/oauth/authorized#access_token=.+&state=$`));

      const token = new URLSearchParams(new URL(pasted).hash.slice(1)).get('access_token');
      const staff = await fetch(`${base}/api/1/staff.json`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(staff.status).toBe(200);
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: path.join(ARTIFACTS, 'oauth-authorized.png') });
      expect(problems).toEqual([]);
    }, 120_000);

    test('Deny lands on the same page, which says so and offers nothing to copy', async () => {
      const page = await context.newPage();
      await page.goto(authorizeUrl());
      await page.getByRole('button', { name: 'Deny' }).click();
      await page.waitForURL(`${base}/oauth/authorized#*`);
      await page.getByText('Not authorized: The user denied access').waitFor();
      expect(await page.getByRole('button', { name: 'Copy address' }).isVisible()).toBe(false);
    }, 120_000);
  },
);
