import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import request from 'supertest';
import { closedNetwork, describeInBrowser, launchChromium } from '../support/headless-chromium';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * The GraphiQL IDE at GET /graphql: its HTTP contract (no external URL, CSP, cached assets,
 * GraphQL clients unaffected) with supertest, then a person's use of it in headless Chromium.
 */

const ARTIFACTS = path.resolve(__dirname, '../../test-artifacts');
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

describe('GET /graphql from a browser', () => {
  test('is the GraphiQL page, with nothing from outside the service and no inline script', async () => {
    const res = await request(t.app.express).get('/graphql').set('accept', BROWSER_ACCEPT);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.vary).toMatch(/Accept/);
    const csp = res.headers['content-security-policy'];
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("connect-src 'self'");
    expect(res.text).not.toMatch(/\/\/[a-z0-9.-]+\.[a-z]{2,}/i);
    expect(res.text).not.toMatch(/https?:/);
    const scripts = [...res.text.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts).toHaveLength(4);
    for (const script of scripts)
      expect(script).toMatch(/ src="\/graphql\/ide\/[0-9a-f]{16}\/[a-z.-]+\.js"/);
  });

  test('its assets are served with their content types and cached for good', async () => {
    const page = await request(t.app.express).get('/graphql').set('accept', BROWSER_ACCEPT);
    const urls = [...page.text.matchAll(/(?:src|href)="(\/graphql\/ide\/[^"]+)"/g)].map(
      (m) => m[1]!,
    );
    expect(urls.map((url) => path.basename(url)).sort()).toEqual([
      'graphiql-page.css',
      'graphiql-page.js',
      'graphiql.min.css',
      'graphiql.min.js',
      'react-dom.production.min.js',
      'react.production.min.js',
    ]);
    for (const url of urls) {
      const res = await request(t.app.express).get(url);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe(
        url.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8',
      );
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
    const unknown = await request(t.app.express).get(
      '/graphql/ide/0123456789abcdef/graphiql.min.js',
    );
    expect(unknown.status).toBe(404);
  });

  test('GraphQL clients are unaffected: a GET with ?query= runs it, a JSON GET is not the page, POST works', async () => {
    const owner = await t.newAccount();
    const get = await request(t.app.express)
      .get('/graphql')
      .query({ query: '{ viewer { staff { login } } }' })
      .set('accept', BROWSER_ACCEPT)
      .set('apollo-require-preflight', 'true')
      .auth(owner.login, owner.password);
    expect(get.status).toBe(200);
    expect(get.headers['content-type']).toMatch(/^application\/json/);
    expect(get.body.data.viewer.staff.login).toBe(owner.login);

    const json = await request(t.app.express).get('/graphql').set('accept', 'application/json');
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    const anything = await request(t.app.express).get('/graphql').set('accept', '*/*');
    expect(anything.headers['content-type']).toMatch(/^application\/json/);

    expect((await t.gqlOk(owner, '{ viewer { staff { login } } }')).viewer.staff.login).toBe(
      owner.login,
    );
  });

  test('GRAPHIQL=false serves no page and no assets', async () => {
    const off = await startTestApp({ GRAPHIQL: 'false' });
    try {
      const res = await request(off.app.express).get('/graphql').set('accept', BROWSER_ACCEPT);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.text).not.toContain('<html');
      const asset = await request(t.app.express).get('/graphql').set('accept', BROWSER_ACCEPT);
      const url = /src="(\/graphql\/ide\/[^"]+)"/.exec(asset.text)![1]!;
      expect((await request(off.app.express).get(url)).headers['content-type']).not.toMatch(
        /javascript/,
      );
    } finally {
      await off.close();
    }
  });
});

describeInBrowser('GraphiQL browser test')('GraphiQL in headless Chromium', () => {
  let browser: Browser;
  let page: Page;
  let base: string;
  let owner: Credentials;
  const requested: string[] = [];
  const problems: string[] = [];
  const sockets: string[] = [];

  beforeAll(async () => {
    base = await t.listen();
    // A fixed login (each test file has a database of its own) keeps the screenshot readable.
    owner = await t.newAccount({ login: 'olivia' });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    // The page must work on a closed network: anything not from the service is refused and noted.
    await closedNetwork(context, base, requested);
    page = await context.newPage();
    page.setDefaultTimeout(90_000);
    page.on('websocket', (socket) => sockets.push(socket.url()));
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content.Security.Policy/i.test(message.text())) {
        problems.push(`CSP: ${message.text()}`);
      }
    });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
  });

  /** The whole text of a GraphiQL editor (CodeMirror 5 renders only the lines in view). */
  function editorText(editor: Locator): Promise<string> {
    return editor.evaluate((element) =>
      (element as unknown as { CodeMirror: { getValue(): string } }).CodeMirror.getValue(),
    );
  }

  /** Opens the IDE and signs in through its form, as a person would. */
  async function openSignedIn(): Promise<void> {
    await page.goto(`${base}/graphql`);
    await page.locator('.graphiql-query-editor .CodeMirror').waitFor();
    await page.getByLabel('Login').pressSequentially(owner.login);
    await page.getByLabel('Password').pressSequentially(owner.password);
    await page.getByRole('button', { name: 'Use credentials' }).click();
    await page.locator('#credentials-status', { hasText: owner.login }).waitFor();
  }

  /** Replaces the operation in the editor by typing it, then runs it. */
  async function typeAndRun(operation: string): Promise<void> {
    const queryEditor = page.locator('.graphiql-query-editor .CodeMirror');
    await queryEditor.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
    // The editor closes brackets itself and types over them, so the text typed is the text kept.
    await page.keyboard.type(operation, { delay: 20 });
    await page.keyboard.press('Escape');
    expect(await editorText(queryEditor)).toBe(operation);
    // GraphiQL parses the document 100 ms after the last keystroke (onto the editor's CodeMirror
    // instance, as `documentAST`), and only a parsed subscription goes over the WebSocket: the
    // button is pressed once the parse of this very text is there, not after a guessed pause.
    await page.waitForFunction(
      ({ element, text }) =>
        (
          element as unknown as {
            CodeMirror: { documentAST?: { loc?: { source: { body: string } } } | null };
          }
        ).CodeMirror.documentAST?.loc?.source.body === text,
      { element: await queryEditor.elementHandle(), text: operation },
    );
    await page.getByRole('button', { name: /Execute query/ }).click();
  }

  test('an owner signs in with Basic credentials, runs a query and sees the result', async () => {
    await openSignedIn();
    await typeAndRun('{ viewer { staff { login type } } }');
    const result = page.locator('.graphiql-response');
    await result.getByText(`"${owner.login}"`).waitFor();
    expect(JSON.parse(await editorText(result.locator('.CodeMirror')))).toEqual({
      data: { viewer: { staff: { login: owner.login, type: 'OWNER' } } },
      extensions: { cost: expect.any(Object) },
    });

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'graphiql.png') });

    expect(requested).toEqual([]);
    expect(problems).toEqual([]);
  }, 180_000);

  test("a subscription runs over the page's own WebSocket with the same credentials", async () => {
    const company = await t.gqlOk(
      owner,
      'mutation { createCompany(input: { name: "Browser Ltd", visibility: PUBLIC }) { company { id } } }',
    );
    const project = await t.gqlOk(
      owner,
      'mutation($c: ID!) { createProject(input: { companyId: $c, name: "IDE", visibility: PUBLIC }) { project { id } } }',
      {
        c: company.createCompany.company.id,
      },
    );
    const projectId: string = project.createProject.project.id;

    await openSignedIn();
    await typeAndRun(
      'subscription { shiftEvents(kinds: [PUNCHED_IN]) { kind shift: snapshot { projectId } } }',
    );

    // The page cannot tell when the server has registered the subscription: punch in until an
    // event shows, punching out between tries (PUNCHED_OUT is not subscribed to).
    const result = page.locator('.graphiql-response');
    let shown = false;
    for (let attempt = 0; attempt < 10 && !shown; attempt += 1) {
      await t.gqlOk(
        owner,
        'mutation($id: ID!) { punchIn(input: { project: { id: $id } }) { project { running } } }',
        {
          id: projectId,
        },
      );
      shown = await result
        .getByText(`"${projectId}"`)
        .waitFor({ timeout: 3_000 })
        .then(() => true)
        .catch(() => false);
      if (!shown)
        await t.gqlOk(
          owner,
          'mutation($id: ID!) { punchOut(input: { project: { id: $id } }) { project { running } } }',
          {
            id: projectId,
          },
        );
    }
    expect(shown).toBe(true);
    await expect(result.textContent()).resolves.toContain('"PUNCHED_IN"');
    expect(sockets).toEqual([`${base.replace(/^http/, 'ws')}/graphql`]);
    await page.screenshot({ path: path.join(ARTIFACTS, 'graphiql-subscription.png') });

    expect(requested).toEqual([]);
    expect(problems).toEqual([]);
  }, 180_000);
});
