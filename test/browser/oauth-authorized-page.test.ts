import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { OAuthProtocol } from '../../src/modules/oauth';
import { describeInBrowser, launchChromium } from '../support/headless-chromium';
import { registerForEveryAccount } from '../support/oauth-approval';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * The official CLI's `setup` as its user lives it, in headless Chromium: the CLI opens the approval
 * page; the user signs in and allows; the browser lands on `/oauth/authorized`, whose Copy address
 * button puts the page's whole address on the clipboard; that is what the user pastes at the CLI's
 * `URL:` prompt, which accepts only `/\A<redirect_uri>#access_token=.+&state=\Z/`.
 */
const CLIENT_ID = 'NjtVKz6Di3ccJjn2AGwZKhSxYBX4QHPJ5w1LrZOR';
const ARTIFACTS = path.resolve(__dirname, '../../test-artifacts');

// A name for the loopback address that is not potentially trustworthy (unlike localhost and
// 127.0.0.1), as a service on the network reached over plain http is: Chromium then sends no
// Sec-Fetch-Site, and only the form post's Origin tells the service that its own page sent it.
const NETWORK_NAME = 'timetrack.test';

let t: TestApp;
let base: string;
let networkBase: string;
let user: Credentials;
let browser: Browser;
let context: BrowserContext;

describeInBrowser('OAuth landing page browser test')(
  '/oauth/authorized in headless Chromium',
  () => {
    beforeAll(async () => {
      t = await startTestApp();
      base = await t.listen();
      networkBase = base.replace('127.0.0.1', NETWORK_NAME);
      // The operator registers the official CLI's id for every account, as with
      // `timetrack oauth client create --every-account --client-id` (docs/authentication.md).
      const owner = await t.newAccount();
      await registerForEveryAccount(t, owner, {
        name: '88 Miles CLI',
        protocol: OAuthProtocol.OAUTH2,
        confidential: false,
        clientId: CLIENT_ID,
        redirectUris: [`${base}/oauth/authorized`, `${networkBase}/oauth/authorized`],
      });
      user = await t.newStaff(owner, { type: 'STAFF' });
      browser = await launchChromium([`--host-resolver-rules=MAP ${NETWORK_NAME} 127.0.0.1`]);
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

    test('over plain http to a network name the form post carries only Origin, and goes through', async () => {
      const page = await context.newPage();
      const posted: Record<string, string>[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST') void request.allHeaders().then((h) => posted.push(h));
      });
      await page.goto(
        `${networkBase}/oauth/authorize?response_type=token&client_id=${CLIENT_ID}&redirect_uri=${encodeURIComponent(`${networkBase}/oauth/authorized`)}`,
      );
      await page.getByLabel('Login').fill(user.login);
      await page.getByLabel('Password').fill(user.password);
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForURL(`${networkBase}/oauth/authorized#*`);
      expect(new URLSearchParams(new URL(page.url()).hash.slice(1)).get('access_token')).toMatch(
        /^[\w-]+$/,
      );
      // The service's cross-site guard decided on Origin alone; under `Referrer-Policy:
      // no-referrer` it would have been `null`, and the post refused.
      expect(posted).toHaveLength(1);
      expect(posted[0]!.origin).toBe(networkBase);
      expect(posted[0]!['sec-fetch-site']).toBeUndefined();
    }, 120_000);
  },
);
