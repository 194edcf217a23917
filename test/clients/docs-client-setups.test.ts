import type { ApolloClient } from '@apollo/client';
import { gql } from '@apollo/client';
import type { Client as UrqlClient } from '@urql/core';
import type { Client as WsClient } from 'graphql-ws';
import type { Environment, RequestParameters } from 'relay-runtime';
import { join } from 'node:path';
import ts from 'typescript';
import WebSocket from 'ws';
import { docBlocks } from '../support/doc-blocks';
import { submitApproval } from '../support/oauth-approval';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * Issue 34, item 3: the client setups that docs/graphql-api.md shows run as they are written,
 * with the real libraries: Apollo Client 4, urql 6 with graphcache, Relay's runtime and
 * graphql-ws. A ts block with `<!-- docs-check: run <name> -->` above its fence is a
 * setup. The test compiles it to JavaScript as it stands (TypeScript's transpileModule; types are
 * the reader's compiler's business), puts this service's address where the guide writes
 * `https://time.example.com` (and `wss://…`), hands it the names the guide leaves to the app
 * (`accessToken`, a real OAuth 2.0 bearer token; `render`), runs it, and sends a query and a
 * subscription through what it made. The setups also compile under strict TypeScript, with the
 * DOM's types and a bundler's module resolution, as in a browser app. Change a setup in the guide,
 * and this test runs the change.
 */

const SETUPS = ['apollo', 'urql', 'relay', 'graphql-ws'] as const;
/** What the guide's setups take from the app around them. */
const FREE_NAMES =
  'declare const accessToken: string;\ndeclare function render(data: unknown): void;';
type Setup = (typeof SETUPS)[number];

let t: TestApp;
let url: string;
let owner: Credentials;
let accessToken: string;
let projectId: string;
let shiftId: string;

beforeAll(async () => {
  // graphql-ws finds the browser's WebSocket as a global; Node has one since 22, and the test
  // environment does not pass it on.
  (globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;
  t = await startTestApp();
  url = await t.listen();
  owner = await t.newAccount();
  const registered = await t.gqlOk(
    owner,
    `mutation { registerOAuthClient(input: { name: "Guide app", protocol: OAUTH2, confidential: false, redirectUris: ["${url}/oauth/authorized"] }) { client { key } } }`,
  );
  const approved = await submitApproval(
    `${url}/oauth/authorize?response_type=token&client_id=${registered.registerOAuthClient.client.key}`,
    owner,
  );
  accessToken = new URLSearchParams(new URL(approved.headers.get('location')!).hash.slice(1)).get(
    'access_token',
  )!;
  const company = await t.create(owner, 'createCompany', { name: 'Guide Co' });
  projectId = (
    await t.create(owner, 'createProject', {
      name: 'Guide',
      companyId: company.id,
      visibility: 'PUBLIC',
    })
  ).id;
  shiftId = (
    await t.create(owner, 'createShift', {
      projectId,
      start: '2026-04-01T09:00:00Z',
      stop: '2026-04-01T10:00:00Z',
    })
  ).id;
});
afterAll(() => t?.close());

/**
 * Runs the guide's setup `name`; answers its exports, and the top-level bindings named in `keep`
 * (a setup that exports nothing, or one whose WebSocket client the test must close).
 */
function runSetup(
  name: Setup,
  free: Record<string, unknown>,
  keep: string[] = [],
): Record<string, any> {
  const marked = docBlocks().filter((b) => b.marker === `run ${name}`);
  expect(marked.map((b) => b.lang)).toEqual(['ts']);
  const source = marked[0]!.text
    .replaceAll('https://time.example.com', url)
    .replaceAll('wss://time.example.com', url.replace(/^http/, 'ws'));
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      esModuleInterop: true,
    },
  });
  const exports: Record<string, any> = {};
  const body = `${outputText}\nreturn { ${keep.join(', ')} };`;
  const run = new Function('require', 'exports', ...Object.keys(free), body) as (
    ...args: unknown[]
  ) => Record<string, unknown>;
  const kept = run(require, exports, ...Object.values(free));
  return { ...exports, ...kept };
}

const SHIFT = 'query Shift($id: ID!) { shift(id: $id) { id start } }';
const EVENTS = 'subscription Events { shiftEvents { kind shift { id notes } } }';

/**
 * Changes the shift (the same value each time) until `heard` has an event: a subscription is
 * held only from some point after it was asked for, and nothing here waits on a clock.
 */
async function changeUntilHeard(heard: () => boolean): Promise<void> {
  while (!heard()) {
    await t.gqlOk(
      owner,
      'mutation($id: ID!) { updateShift(input: { shift: { id: $id }, patch: { notes: "heard" } }) { shift { id } } }',
      { id: shiftId },
    );
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Every HTTP request the setups send, as method and Accept header. */
const sent: { method: string; accept: string | null }[] = [];
const realFetch = globalThis.fetch;
beforeEach(() => {
  sent.length = 0;
  globalThis.fetch = (input, init) => {
    const request = new Request(input, init);
    if (request.url.startsWith(url)) {
      sent.push({ method: request.method, accept: request.headers.get('accept') });
    }
    return realFetch(input, init);
  };
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

test('the guide marks exactly these setups to run', () => {
  const markers = docBlocks()
    .filter((b) => b.marker?.startsWith('run '))
    .map((b) => b.marker!.slice(4));
  expect(markers.sort()).toEqual([...SETUPS].sort());
});

test('Apollo Client: a query over HTTP, a subscription over graphql-ws', async () => {
  const { client, ws } = runSetup('apollo', { accessToken }, ['ws']) as {
    client: ApolloClient;
    ws: { client: WsClient };
  };
  try {
    const result = await client.query({ query: gql(SHIFT), variables: { id: shiftId } });
    expect(result.error).toBeUndefined();
    expect(result.data).toMatchObject({
      shift: { id: shiftId, start: '2026-04-01T09:00:00.000Z' },
    });
    const events: unknown[] = [];
    const subscription = client
      .subscribe({ query: gql(EVENTS) })
      .subscribe({ next: ({ data }) => void (data && events.push(data)) });
    await changeUntilHeard(() => events.length > 0);
    subscription.unsubscribe();
    expect(events[0]).toMatchObject({
      shiftEvents: { kind: 'SHIFT_UPDATED', shift: { id: shiftId, notes: 'heard' } },
    });
  } finally {
    client.stop();
    await ws.client.dispose();
  }
});

test("urql: its default GET query (Accept: application/graphql-response+json) is answered, and a subscription's events arrive", async () => {
  const { client, ws } = runSetup('urql', { accessToken }, ['ws']) as {
    client: UrqlClient;
    ws: WsClient;
  };
  try {
    const result = await client.query(SHIFT, { id: shiftId }).toPromise();
    expect(result.error).toBeUndefined();
    expect(result.data).toMatchObject({
      shift: { id: shiftId, start: '2026-04-01T09:00:00.000Z' },
    });
    expect(sent).toEqual([
      { method: 'GET', accept: expect.stringMatching(/^application\/graphql-response\+json/) },
    ]);
    const events: unknown[] = [];
    const subscription = client
      .subscription(EVENTS, {})
      .subscribe((event) => void (event.data && events.push(event.data)));
    await changeUntilHeard(() => events.length > 0);
    subscription.unsubscribe();
    expect(events[0]).toMatchObject({
      shiftEvents: { kind: 'SHIFT_UPDATED', shift: { id: shiftId, notes: 'heard' } },
    });
  } finally {
    await ws.dispose();
  }
});

test("Relay: the environment's network answers a query, and its subscriptions hear events", async () => {
  const { environment, ws } = runSetup('relay', { accessToken }, ['ws']) as {
    environment: Environment;
    ws: WsClient;
  };
  const params = (name: string, operationKind: 'query' | 'subscription', text: string) =>
    ({ id: null, cacheID: name, name, operationKind, text, metadata: {} }) as RequestParameters;
  try {
    const answer = await environment
      .getNetwork()
      .execute(params('Shift', 'query', SHIFT), { id: shiftId }, {})
      .toPromise();
    expect(answer).toMatchObject({
      data: { shift: { id: shiftId, start: '2026-04-01T09:00:00.000Z' } },
    });
    expect(sent.map((s) => s.method)).toEqual(['POST']);
    const events: unknown[] = [];
    const subscription = environment
      .getNetwork()
      .execute(params('Events', 'subscription', EVENTS), {}, {})
      .subscribe({ next: (event) => void events.push(event) });
    await changeUntilHeard(() => events.length > 0);
    subscription.unsubscribe();
    expect(events[0]).toMatchObject({
      data: { shiftEvents: { kind: 'SHIFT_UPDATED', shift: { id: shiftId, notes: 'heard' } } },
    });
  } finally {
    await ws.dispose();
  }
});

test('graphql-ws: the live-updates example renders the punch events', async () => {
  const rendered: any[] = [];
  const { ws } = runSetup(
    'graphql-ws',
    { accessToken, render: (data: unknown) => rendered.push(data) },
    ['ws'],
  ) as { ws: WsClient };
  try {
    // Punches in and out in turn until the subscription, held from some point on, hears one.
    for (let punch = 0; rendered.length === 0; punch++) {
      await t.gqlOk(
        owner,
        `mutation($p: ID!) { ${punch % 2 === 0 ? 'punchIn' : 'punchOut'}(input: { project: { id: $p } }) { shift { id } } }`,
        { p: projectId },
      );
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(rendered[0]).toMatchObject({
      shiftEvents: {
        kind: expect.stringMatching(/^PUNCHED_(IN|OUT)$/),
        project: { id: projectId },
      },
    });
  } finally {
    await ws.dispose();
  }
});

test("the setups compile under strict TypeScript, as a browser app's", () => {
  // Last: the compiler holds the event loop for seconds, which the HTTP tests above must not
  // share (an idle keep-alive connection would meet its timeout as the loop resumes). The files
  // are in memory, beside this one so that the packages resolve; the names the guide leaves to
  // the app are declared, as an app would have them.
  const files = new Map(
    docBlocks()
      .filter((b) => b.marker?.startsWith('run '))
      .map((b) => [
        join(__dirname, `docs-setup-${b.marker!.slice(4)}.ts`),
        { where: b.where, text: `${FREE_NAMES}\n${b.text}` },
      ]),
  );
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists } = host;
  host.getSourceFile = (name, language, ...rest) => {
    const file = files.get(name);
    return file
      ? ts.createSourceFile(name, file.text, language)
      : getSourceFile(name, language, ...rest);
  };
  host.fileExists = (name) => files.has(name) || fileExists(name);
  const program = ts.createProgram([...files.keys()], options, host);
  const problems = ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && files.get(d.file.fileName);
    const line =
      d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : 0;
    return `${where ? `${where.where} (+${line})` : d.file?.fileName}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
  expect(problems).toEqual([]);
});
