import request from 'supertest';
import WebSocket from 'ws';
import { hiddenFields, submitApproval } from '../support/oauth-approval';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * Issue 20, item 1: a browser holding a user's Basic credentials attaches them to any request to
 * the service, also to a form that a page of another site posts here. Such state-changing
 * requests (the browser marks them with `Origin` and `Sec-Fetch-Site`) are refused with 403
 * `CROSS_SITE_REQUEST` in each interface's own error envelope, before authentication and before
 * anything is written; the service's own pages, the configured origins and programs that send
 * neither header (the legacy CLIs) go on as before.
 */

const EVIL = 'https://evil.example';
const PARTNER = 'https://partner.example';
const PUBLIC = 'https://time.example';

let t: TestApp;
let owner: Credentials;
let companyUuid: string;
let companyId: number;
let projectUuid: string;
let projectId: number;
let staffUuid: string;

const basic = (who: Credentials) =>
  `Basic ${Buffer.from(`${who.login}:${who.password}`).toString('base64')}`;

beforeAll(async () => {
  t = await startTestApp({
    ALLOWED_ORIGINS: `${PARTNER}, http://localhost:8080`,
    PUBLIC_URL: PUBLIC,
  });
  owner = await t.newAccount({ staffMax: 100 });
  const company = await t.gqlOk(
    owner,
    'mutation { createCompany(input: { name: "Acme", visibility: PUBLIC }) { company { id legacyId } } }',
  );
  companyUuid = company.createCompany.company.id;
  companyId = company.createCompany.company.legacyId;
  const project = await t.create(owner, 'createProject', {
    companyId: companyUuid,
    name: 'Target',
    visibility: 'PUBLIC',
  });
  projectUuid = project.id;
  projectId = project.legacyId;
  staffUuid = (await t.newStaff(owner, { type: 'STAFF' })).id;
});
afterAll(() => t?.close());

/** What the forged requests could have changed, read back without any Origin. */
async function state() {
  const data = await t.gqlOk(
    owner,
    `query($p: ID!, $s: ID!) {
       project(id: $p) { running }
       user: staffMember(id: $s) { active }
       staff(first: 100) { nodes { login } }
       projects(first: 100) { nodes { name } }
       companies(first: 100) { nodes { name } }
     }`,
    { p: projectUuid, s: staffUuid },
  );
  return {
    running: data.project.running,
    staffActive: data.user.active,
    logins: data.staff.nodes.map((n: { login: string }) => n.login).sort(),
    projects: data.projects.nodes.map((n: { name: string }) => n.name).sort(),
    companies: data.companies.nodes.map((n: { name: string }) => n.name).sort(),
  };
}

describe('state-changing requests a browser sends from another site are refused', () => {
  const forged = (): {
    what: string;
    method: 'post' | 'put' | 'delete';
    path: string;
    type: string | undefined;
    body: string | undefined;
  }[] => [
    // The finding's requests: a manager created by a form, empty form posts that punch in,
    // disable a user and create a project, a text/plain post that punches out.
    {
      what: 'JSON staff create (form)',
      method: 'post',
      path: '/api/1/staff.json',
      type: 'application/x-www-form-urlencoded',
      body: 'staff[login]=mallory&staff[type]=manager&staff[password]=mallory-pass',
    },
    {
      what: 'JSON punch-in (empty form)',
      method: 'post',
      path: `/api/1/projects/${projectUuid}/punch_in.json`,
      type: 'application/x-www-form-urlencoded',
      body: '',
    },
    {
      what: 'JSON disable (empty form)',
      method: 'post',
      path: `/api/1/staff/${staffUuid}/disable.json`,
      type: 'application/x-www-form-urlencoded',
      body: '',
    },
    {
      what: 'JSON company update (PUT)',
      method: 'put',
      path: `/api/1/companies/${companyUuid}.json`,
      type: 'application/x-www-form-urlencoded',
      body: 'company[name]=Pwned',
    },
    {
      what: 'JSON project delete (DELETE)',
      method: 'delete',
      path: `/api/1/projects/${projectUuid}.json`,
      type: undefined,
      body: undefined,
    },
    {
      what: 'XML project create',
      method: 'post',
      path: `/company/${companyId}/projects.xml`,
      type: 'text/plain',
      body: '<project><name>Forged</name></project>',
    },
    {
      what: 'XML punch-out (text/plain)',
      method: 'post',
      path: `/project/${projectId}/punch_out.xml`,
      type: 'text/plain',
      body: 'x',
    },
  ];

  const send = (
    r: ReturnType<typeof forged>[number],
    headers: Record<string, string>,
  ): request.Test => {
    const agent = request(t.app.express);
    const start = { post: agent.post, put: agent.put, delete: agent.delete }[r.method]!;
    let req = start.call(agent, r.path).set('authorization', basic(owner));
    for (const [name, value] of Object.entries(headers)) req = req.set(name, value);
    if (r.type) req = req.set('content-type', r.type);
    return r.body === undefined ? req : req.send(r.body);
  };

  const browserMarks: Record<string, string>[] = [
    { origin: EVIL },
    { origin: EVIL, 'sec-fetch-site': 'cross-site' },
    // No Origin, but the browser's own word that another site sent it.
    { 'sec-fetch-site': 'cross-site' },
    // A sibling subdomain is another site too unless it is listed.
    { origin: 'https://blog.time.example', 'sec-fetch-site': 'same-site' },
    // Sandboxed frames, data: URLs and cross-site redirects send `null`.
    { origin: 'null' },
    // The listed origin with another scheme is another origin.
    { origin: 'http://partner.example', 'sec-fetch-site': 'cross-site' },
  ];

  test.each(browserMarks)(
    'marked %j: 403 in the interface envelope, nothing written',
    async (marks) => {
      const before = await state();
      for (const r of forged()) {
        const res = await send(r, marks);
        expect({ what: r.what, status: res.status }).toEqual({ what: r.what, status: 403 });
        if (r.path.endsWith('.xml')) {
          expect(res.headers['content-type']).toMatch(/^application\/xml/);
          expect(res.text).toMatch(
            /<errors>\s*<error type="Project::Error">Cross-site request refused: [^<]+<\/error>\s*<\/errors>/,
          );
        } else {
          expect(res.body).toEqual({
            error: {
              code: 'CROSS_SITE_REQUEST',
              status: 403,
              title: 'Forbidden',
              message: expect.stringMatching(/^Cross-site request refused: /),
            },
          });
        }
      }
      expect(await state()).toEqual(before);
    },
  );

  test('GraphQL: a mutation posted from another site is a 403 GraphQL error; nothing is created', async () => {
    const before = await state();
    const res = await request(t.app.express)
      .post('/graphql')
      .set('authorization', basic(owner))
      .set('origin', EVIL)
      .set('content-type', 'application/json')
      .send({
        query: `mutation { createCompany(input: { name: "Forged Inc", visibility: PUBLIC }) { company { id } } }`,
      });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      errors: [
        {
          message: expect.stringMatching(
            /^Cross-site request refused: a page of https:\/\/evil\.example /,
          ),
          extensions: { code: 'CROSS_SITE_REQUEST' },
        },
      ],
    });
    expect(await state()).toEqual(before);
  });

  test('the refusal comes before authentication: wrong credentials are not even checked', async () => {
    const res = await request(t.app.express)
      .post(`/api/1/projects/${projectUuid}/punch_in.json`)
      .set('authorization', basic({ login: owner.login, password: 'wrong' }))
      .set('origin', EVIL);
    expect(res.status).toBe(403);
    expect(res.headers['www-authenticate']).toBeUndefined();
  });
});

describe('what may change state', () => {
  /** Punches in and out through JSON with the given headers; answers both statuses. */
  async function punch(headers: Record<string, string>): Promise<[number, number]> {
    const statuses: number[] = [];
    for (const action of ['punch_in', 'punch_out']) {
      let req = request(t.app.express)
        .post(`/api/1/projects/${projectUuid}/${action}.json`)
        .set('authorization', basic(owner));
      for (const [name, value] of Object.entries(headers)) req = req.set(name, value);
      statuses.push((await req).status);
    }
    return statuses as [number, number];
  }

  test.each<[string, Record<string, string>]>([
    ['a program: neither Origin nor Sec-Fetch-Site (the legacy CLIs)', {}],
    [
      "this service's own page (Sec-Fetch-Site)",
      { 'sec-fetch-site': 'same-origin', origin: 'null' },
    ],
    ['a bookmark or typed address', { 'sec-fetch-site': 'none' }],
    [
      'an older browser on the address the request was sent to',
      { host: 'api.internal:3000', origin: 'http://api.internal:3000' },
    ],
    [
      'the same, default port implied',
      { host: 'api.internal:443', origin: 'https://api.internal' },
    ],
    ['a page at PUBLIC_URL', { origin: PUBLIC, 'sec-fetch-site': 'cross-site' }],
    ['a listed origin', { origin: PARTNER, 'sec-fetch-site': 'cross-site' }],
    ['another listed origin, without Sec-Fetch-Site', { origin: 'http://localhost:8080' }],
  ])('%s', async (_what, headers) => {
    expect(await punch(headers)).toEqual([200, 200]);
  });

  test('reads are not refused, whoever sends them', async () => {
    const res = await request(t.app.express)
      .get('/api/1/projects.json')
      .set('authorization', basic(owner))
      .set('origin', EVIL)
      .set('sec-fetch-site', 'cross-site');
    expect(res.status).toBe(200);
  });
});

describe('GraphQL over HTTP: queries sent as GET', () => {
  // Issue 34, item 3. urql 6 (and any GraphQL-over-HTTP client) sends queries as GET with only an
  // Accept header, which a page of another site can send too, with the browser's remembered Basic
  // credentials. Such a GET runs when its credentials are not the browser's own (a bearer token)
  // or when the browser vouches for it; mutations never run over GET.
  const QUERY = '{ viewer { staff { login } } }';
  const ACCEPT = 'application/graphql-response+json, application/json;q=0.9';
  let bearer: string;
  beforeAll(async () => {
    const url = await t.listen();
    const registered = await t.gqlOk(
      owner,
      `mutation { registerOAuthClient(input: { name: "Web app", protocol: OAUTH2, confidential: false, redirectUris: ["${url}/oauth/authorized"] }) { client { key } } }`,
    );
    const approved = await submitApproval(
      `${url}/oauth/authorize?response_type=token&client_id=${registered.registerOAuthClient.client.key}`,
      owner,
    );
    const fragment = new URL(approved.headers.get('location')!).hash.slice(1);
    bearer = `Bearer ${new URLSearchParams(fragment).get('access_token')}`;
  });

  const get = (query: string, authorization: string, headers: Record<string, string>) => {
    let req = request(t.app.express)
      .get('/graphql')
      .query({ query })
      .set('accept', ACCEPT)
      .set('authorization', authorization);
    for (const [name, value] of Object.entries(headers)) req = req.set(name, value);
    return req;
  };

  test.each<[string, () => string, Record<string, string>]>([
    ['a bearer token, from a program', () => bearer, {}],
    [
      'a bearer token, from a page of another site',
      () => bearer,
      { origin: EVIL, 'sec-fetch-site': 'cross-site' },
    ],
    [
      "Basic credentials, from this service's own page",
      () => basic(owner),
      { 'sec-fetch-site': 'same-origin' },
    ],
    [
      'Basic credentials, from a page at PUBLIC_URL',
      () => basic(owner),
      { origin: PUBLIC, 'sec-fetch-site': 'cross-site' },
    ],
    ['Basic credentials, from a listed origin', () => basic(owner), { origin: PARTNER }],
    [
      'Basic credentials with a preflighted header',
      () => basic(owner),
      { 'apollo-require-preflight': 'true' },
    ],
  ])(
    '%s: answered, as application/graphql-response+json',
    async (_what, authorization, headers) => {
      const res = await get(QUERY, authorization(), headers);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/graphql-response\+json/);
      expect(JSON.parse(res.text).data).toEqual({ viewer: { staff: { login: owner.login } } });
    },
  );

  test.each<[string, Record<string, string>]>([
    ['a current browser says another site sent it', { 'sec-fetch-site': 'cross-site' }],
    ['a sibling subdomain, not listed', { 'sec-fetch-site': 'same-site' }],
    ['a sandboxed frame', { origin: 'null' }],
    // An older browser sends neither header on another site's simple GET.
    ['no browser marks at all', {}],
  ])('Basic credentials, %s: 403, the query does not run', async (_what, headers) => {
    const res = await get(QUERY, basic(owner), headers);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      errors: [
        {
          message: expect.stringMatching(
            /^Cross-site request refused: a GET query with Basic credentials /,
          ),
          extensions: { code: 'CROSS_SITE_REQUEST' },
        },
      ],
    });
  });

  test('a mutation is never run over GET, whatever the credentials: 405, nothing created', async () => {
    const before = await state();
    for (const authorization of [bearer, basic(owner)]) {
      const res = await get(
        'mutation { createCompany(input: { name: "Over GET", visibility: PUBLIC }) { company { id } } }',
        authorization,
        { 'sec-fetch-site': 'same-origin' },
      );
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('POST');
    }
    expect(await state()).toEqual(before);
  });

  test('a form or text/plain POST to /graphql is refused as before, now with the catalogue code', async () => {
    const before = await state();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const res = await request(t.app.express)
        .post('/graphql')
        .set('authorization', bearer)
        .set('content-type', type)
        .send(
          '{"query":"mutation { createCompany(input: { name: \\"Form\\" }) { company { id } } }"}',
        );
      expect(res.status).toBe(403);
      expect(res.body.errors[0].extensions).toEqual({ code: 'CROSS_SITE_REQUEST' });
    }
    expect(await state()).toEqual(before);
  });
});

describe('WebSocket subscriptions', () => {
  let url: string;
  beforeAll(async () => {
    url = `${(await t.listen()).replace(/^http/, 'ws')}/graphql`;
  });

  /** Opens a graphql-ws connection with the Basic credentials; answers how the handshake ended. */
  function connect(origin: string | undefined): Promise<{ status: number; body?: string }> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, 'graphql-transport-ws', {
        ...(origin ? { origin } : {}),
        headers: { authorization: basic(owner) },
      });
      ws.on('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init' })));
      ws.on('message', (data) => {
        const message = JSON.parse(data.toString()) as { type: string };
        if (message.type === 'connection_ack') {
          ws.close();
          resolve({ status: 101 });
        }
      });
      ws.on('error', (error) => {
        if (!/Unexpected server response/.test(error.message)) reject(error);
      });
    });
  }

  test('a handshake from a page of another site is refused before the upgrade', async () => {
    const refused = await connect(EVIL);
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body!)).toEqual({
      errors: [
        {
          message: expect.stringMatching(
            /^Cross-site request refused: a page of https:\/\/evil\.example may not send WebSocket connections/,
          ),
          extensions: { code: 'CROSS_SITE_REQUEST' },
        },
      ],
    });
    expect((await connect('null')).status).toBe(403);
  });

  test("the service's own pages, listed origins and programs connect", async () => {
    const own = new URL(url);
    expect(await connect(`http://${own.host}`)).toEqual({ status: 101 });
    expect(await connect(PARTNER)).toEqual({ status: 101 });
    expect(await connect(undefined)).toEqual({ status: 101 });
  });
});

describe('the OAuth approval form', () => {
  let authorize: string;
  beforeAll(async () => {
    const registered = await t.gqlOk(
      owner,
      'mutation { registerOAuthClient(input: { name: "CLI", protocol: OAUTH2, confidential: false, redirectUris: ["https://cli.example/cb"] }) { client { key } } }',
    );
    authorize = `/oauth/authorize?response_type=token&client_id=${registered.registerOAuthClient.client.key}&redirect_uri=${encodeURIComponent('https://cli.example/cb')}`;
  });

  /** Opens the approval page and posts it back with the given headers. */
  async function approve(headers: Record<string, string>) {
    const page = await request(t.app.express).get(authorize);
    expect(page.status).toBe(200);
    // `same-origin`, not `no-referrer`: under no-referrer a browser posts the form with Origin: null.
    expect(page.headers['referrer-policy']).toBe('same-origin');
    let post = request(t.app.express).post('/oauth/authorize').type('form');
    for (const [name, value] of Object.entries(headers)) post = post.set(name, value);
    return post.send(
      new URLSearchParams([
        ...hiddenFields(page.text),
        ['login', owner.login],
        ['password', owner.password],
        ['decision', 'approve'],
      ]).toString(),
    );
  }

  test('posted from another site (or from nowhere, Origin: null): 403, no token', async () => {
    for (const headers of [
      { origin: EVIL },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
    ] as Record<string, string>[]) {
      const res = await approve(headers);
      expect(res.status).toBe(403);
      expect(res.headers.location).toBeUndefined();
      expect(res.text).toContain('Request refused');
      expect(res.text).toContain('Cross-site request refused');
    }
  });

  test('posted from its own page: the grant goes through', async () => {
    for (const headers of [
      { 'sec-fetch-site': 'same-origin', origin: 'null' },
      { host: 'time.internal', origin: 'http://time.internal' },
      { origin: PUBLIC },
      {},
    ] as Record<string, string>[]) {
      const res = await approve(headers);
      expect(res.status).toBe(303);
      expect(res.headers.location).toMatch(/^https:\/\/cli\.example\/cb#access_token=/);
    }
  });
});
