/**
 * Input limits on every interface, one known-bad value at a time (fuzz.test.ts covers the
 * random rest): a body over BODY_LIMIT_BYTES is 413 before it is parsed; invalid uuids, integers
 * beyond 32 bits, NUL bytes, impossible dates and unknown enum values are 4xx with a message and
 * write nothing; only a write's listed fields are stored, and no key reaches Object.prototype.
 */
import request from 'supertest';
import { parseXml } from '../support/legacy-answers';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

const BODY_LIMIT_BYTES = 4096;
const OVERSIZED = 'x'.repeat(BODY_LIMIT_BYTES * 2);

let t: TestApp;
let owner: Credentials & { ownerId: string; ownerLegacyId: number };
let project: { id: string; legacyId: number };

beforeAll(async () => {
  t = await startTestApp({ BODY_LIMIT_BYTES: String(BODY_LIMIT_BYTES) });
  owner = await t.newAccount({ timeZone: 'Europe/Berlin' });
  const company = await t.gqlOk<{ createCompany: { company: { id: string } } }>(
    owner,
    'mutation { createCompany(input: { name: "Limits Ltd" }) { company { id } } }',
  );
  project = (
    await t.gqlOk<{ createProject: { project: { id: string; legacyId: number } } }>(
      owner,
      'mutation($c: ID!) { createProject(input: { companyId: $c, name: "Limits" }) { project { id legacyId } } }',
      { c: company.createCompany.company.id },
    )
  ).createProject.project;
});
afterAll(() => t?.close());

/** What is stored, so that a refused request can be shown to have written nothing. */
async function stored(): Promise<{ companies: string[]; shifts: number }> {
  const data = await t.gqlOk<{
    companies: { nodes: { name: string }[] };
    shifts: { totalCount: number };
  }>(owner, '{ companies(first: 100) { nodes { name } } shifts(first: 1) { totalCount } }');
  return {
    companies: data.companies.nodes.map((c) => c.name).sort(),
    shifts: data.shifts.totalCount,
  };
}

function post(path: string, type: string, body: string): request.Test {
  return request(t.app.express).post(path).auth(owner.login, owner.password).type(type).send(body);
}

describe('body size', () => {
  const cases: [string, () => request.Test, (res: request.Response) => void][] = [
    [
      'GraphQL',
      () =>
        post(
          '/graphql',
          'application/json',
          JSON.stringify({
            query: `mutation { createCompany(input: { name: "${OVERSIZED}" }) { company { id } } }`,
          }),
        ),
      (res) => expect(res.body.errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE'),
    ],
    [
      'the JSON facade',
      () =>
        post(
          '/api/1/companies.json',
          'application/json',
          JSON.stringify({ company: { name: OVERSIZED } }),
        ),
      (res) => expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE'),
    ],
    [
      'the XML facade',
      () =>
        post('/companies.xml', 'application/xml', `<company><name>${OVERSIZED}</name></company>`),
      (res) => expect(parseXml(res.text).name).toBe('errors'),
    ],
    [
      'the OAuth token endpoint',
      () =>
        post(
          '/oauth/token',
          'application/x-www-form-urlencoded',
          `grant_type=client_credentials&pad=${OVERSIZED}`,
        ),
      (res) => expect(res.text).toMatch(/too large/i),
    ],
  ];

  test.each(cases)(
    '%s: a body over BODY_LIMIT_BYTES is 413 and writes nothing',
    async (_name, send, expectExplained) => {
      const before = await stored();
      const res = await send();
      expect(res.status).toBe(413);
      expectExplained(res);
      expect(await stored()).toEqual(before);
    },
  );

  test('GraphQL answers a body that is not JSON with a GraphQL-shaped 400', async () => {
    const res = await post('/graphql', 'application/json', '{"query": "{ viewer { id } }"');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json\b/);
    expect(res.body.errors[0].extensions.code).toBe('BAD_REQUEST');
  });

  test('a body just under the limit is accepted', async () => {
    const name = 'y'.repeat(200);
    const res = await post(
      '/api/1/companies.json',
      'application/json',
      JSON.stringify({ company: { name, notes: 'z'.repeat(BODY_LIMIT_BYTES - 400) } }),
    );
    expect(res.status).toBe(200);
    expect(res.body.response.name).toBe(name);
  });
});

/** One bad value per row, sent through each interface: each must be a 4xx that says what is wrong. */
const BAD_VALUES: {
  name: string;
  json: Record<string, unknown>;
  graphql: Record<string, unknown>;
  xml: string;
}[] = [
  {
    name: 'a malformed uuid',
    json: { shift: { project_id: 'not-a-uuid', start: '2026-01-05T09:00:00Z' } },
    graphql: { projectId: 'not-a-uuid', start: '2026-01-05T09:00:00Z' },
    xml: '<shift><project_id>x1</project_id><start>Mon, 05 Jan 2026 09:00:00 +0000</start></shift>',
  },
  {
    name: 'an integer beyond 32 bits',
    json: { shift: { project_legacy_id: 4294967296, start: '2026-01-05T09:00:00Z' } },
    graphql: { projectLegacyId: 4294967296, start: '2026-01-05T09:00:00Z' },
    xml: '<shift><project_id>4294967296</project_id><start>Mon, 05 Jan 2026 09:00:00 +0000</start></shift>',
  },
  {
    name: 'a NUL byte',
    json: { shift: { notes: 'before\u0000after', start: '2026-01-05T09:00:00Z' } },
    graphql: { notes: 'before\u0000after', start: '2026-01-05T09:00:00Z' },
    xml: '<shift><notes>before&#0;after</notes><start>Mon, 05 Jan 2026 09:00:00 +0000</start></shift>',
  },
  {
    name: 'an impossible date',
    json: { shift: { start: '2026-02-30T09:00:00Z' } },
    graphql: { start: '2026-02-30T09:00:00Z' },
    xml: '<shift><start>Mon, 30 Feb 2026 09:00:00 +0000</start></shift>',
  },
  {
    name: 'an unknown enum value',
    json: { shift: { start: '2026-01-05T09:00:00Z', billable: 'sometimes' } },
    graphql: { start: '2026-01-05T09:00:00Z', billable: 'sometimes' },
    xml: '<shift><start>Mon, 05 Jan 2026 09:00:00 +0000</start><billable type="boolean">sometimes</billable></shift>',
  },
];

describe.each(BAD_VALUES)('$name', ({ json, graphql, xml }) => {
  let before: Awaited<ReturnType<typeof stored>>;
  beforeEach(async () => {
    before = await stored();
  });
  afterEach(async () => {
    expect(await stored()).toEqual(before);
  });

  test('the JSON facade answers 4xx with a message', async () => {
    const body = { shift: { project_id: project.id, ...(json.shift as object) } };
    const res = await post('/api/1/shifts.json', 'application/json', JSON.stringify(body));
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body.error.message).toEqual(expect.any(String));
  });

  test('GraphQL answers with a client error and a message', async () => {
    const res = await t.gql(
      owner,
      'mutation($input: CreateShiftInput!) { createShift(input: $input) { shift { id } } }',
      {
        input: { projectId: project.id, ...graphql },
      },
    );
    expect(res.status).toBeLessThan(500);
    expect(res.data?.createShift ?? null).toBeNull();
    const codes = res.errors!.map((e) => e.extensions?.code);
    expect(codes).not.toContain('INTERNAL_SERVER_ERROR');
    expect(res.errors![0]!.message).not.toBe('');
  });

  test('the XML facade answers 4xx with an error document', async () => {
    const path = xml.includes('<project_id>')
      ? '/shifts.xml'
      : `/project/${project.legacyId}/shifts.xml`;
    const res = await post(path, 'application/xml', xml);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    const doc = parseXml(res.text);
    expect(doc.name).toBe('errors');
  });
});

describe('only listed fields are written', () => {
  test('prototype keys, ids, totals and unknown keys in a JSON body are ignored', async () => {
    const body =
      '{"company":{"name":"Listed Only","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},' +
      '"id":"00000000-0000-4000-8000-000000000001","legacy_id":7,"account_id":1,"grand_total":99,"is_admin":true}}';
    const res = await post('/api/1/companies.json', 'application/json', body);
    expect(res.status).toBe(200);
    expect(res.body.response.name).toBe('Listed Only');
    expect(res.body.response.id).not.toBe('00000000-0000-4000-8000-000000000001');
    expect(res.body.response).not.toHaveProperty('is_admin');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('form-encoded prototype keys reach nothing', async () => {
    const res = await post(
      '/api/1/companies.json',
      'application/x-www-form-urlencoded',
      'company[name]=Form Only&company[__proto__][polluted]=1&__proto__[polluted]=1&constructor[prototype][polluted]=1',
    );
    expect(res.status).toBe(200);
    expect(res.body.response.name).toBe('Form Only');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('an XML body with unknown elements stores only the listed ones', async () => {
    const res = await post(
      '/companies.xml',
      'application/xml',
      '<company><name>Xml Only</name><__proto__><polluted>1</polluted></__proto__><account_id>1</account_id></company>',
    );
    expect(res.status).toBe(201);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await stored()).companies).toContain('Xml Only');
  });

  test('GraphQL refuses an input field it does not declare', async () => {
    const before = await stored();
    const res = await t.gql(
      owner,
      'mutation($input: CreateCompanyInput!) { createCompany(input: $input) { company { id } } }',
      {
        input: { name: 'Undeclared', accountId: 1 },
      },
    );
    expect(res.status).toBe(400);
    expect(res.errors![0]!.extensions?.code).toBe('BAD_USER_INPUT');
    expect(res.errors![0]!.message).toMatch(/accountId/);
    expect(await stored()).toEqual(before);
  });
});
