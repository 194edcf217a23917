/**
 * Property tests: hostile or malformed input is never a 5xx, on any interface.
 *
 * Each property drives the real app in-process over HTTP (supertest) with inputs built by
 * fast-check: JSON bodies of the /api/1 create and update routes, XML bodies of the legacy XML
 * routes, `where`/`order` query strings of the JSON lists, and GraphQL variables of mutations and
 * list queries. Whatever comes in, the answer must be below 500, well-formed for its format (a
 * JSON envelope, an XML document parsed strictly, a GraphQL response without
 * INTERNAL_SERVER_ERROR), and nothing may reach Object.prototype.
 *
 * fast-check prints the seed and the shrunk counterexample when a property fails; replay it with
 * `fc.assert(..., { seed, path })`.
 */
import http from 'node:http';
import net from 'node:net';
import fc from 'fast-check';
import request from 'supertest';
import { activityResource } from '../../rest-facade/routes/activities.routes';
import { companyResource } from '../../rest-facade/routes/companies.routes';
import { projectResource } from '../../rest-facade/routes/projects.routes';
import { shiftResource } from '../../rest-facade/routes/shifts.routes';
import { staffResource } from '../../rest-facade/routes/staff.routes';
import { MAX_EXPRESSION_LENGTH } from '../../rest-facade/query/where-parser';
import { parseXml } from '../support/legacy-answers';
import {
  startTestApp,
  type Credentials,
  type GraphQLResponse,
  type TestApp,
} from '../support/test-app';

/** Runs per property: enough to find the classic faults, few enough for the embedded database. */
const RUNS = 120;

let t: TestApp;
let owner: Credentials & { ownerId: string; ownerLegacyId: number };
/** A user the fuzzed staff updates may change at will (never the owner, whose password we need). */
let victim: { id: string; legacyId: number };
let company: { id: string; legacyId: number };
let project: { id: string; legacyId: number };
let activity: { id: string; legacyId: number };
let shift: { id: string; legacyId: number };
/** Object.prototype as it was before any request. */
const PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype).sort();

beforeAll(async () => {
  t = await startTestApp();
  owner = await t.newAccount({ timeZone: 'Europe/Berlin' });
  const staff = await t.newStaff(owner);
  victim = { id: staff.id, legacyId: staff.legacyId };
  const created = await t.gqlOk<{ createCompany: { company: { id: string; legacyId: number } } }>(
    owner,
    'mutation { createCompany(input: { name: "Fuzz Ltd", visibility: PUBLIC }) { company { id legacyId } } }',
  );
  company = created.createCompany.company;
  project = (
    await t.gqlOk<{ createProject: { project: { id: string; legacyId: number } } }>(
      owner,
      'mutation($c: ID!) { createProject(input: { companyId: $c, name: "Fuzz project", visibility: PUBLIC }) { project { id legacyId } } }',
      { c: company.id },
    )
  ).createProject.project;
  activity = (
    await t.gqlOk<{ createActivity: { activity: { id: string; legacyId: number } } }>(
      owner,
      'mutation($p: ID!) { createActivity(input: { projectId: $p, name: "Fuzzing" }) { activity { id legacyId } } }',
      { p: project.id },
    )
  ).createActivity.activity;
  shift = (
    await t.gqlOk<{ createShift: { shift: { id: string; legacyId: number } } }>(
      owner,
      'mutation($p: ID!) { createShift(input: { projectId: $p, start: "2026-01-05T09:00:00Z", stop: "2026-01-05T10:00:00Z" }) { shift { id legacyId } } }',
      { p: project.id },
    )
  ).createShift.shift;
});
afterAll(async () => {
  // FUZZ_STATS=1 shows how deep the inputs reached: how many were refused, and with what.
  if (process.env.FUZZ_STATS) console.log(JSON.stringify(tally, null, 1));
  await t?.close();
});

const tally: Record<string, Record<string, number>> = {};
function count(kind: string, outcome: string): void {
  tally[kind] ??= {};
  tally[kind][outcome] = (tally[kind][outcome] ?? 0) + 1;
}

// ---------------------------------------------------------------------------------------------
// Awkward values
// ---------------------------------------------------------------------------------------------

/** Number tokens as JSON text: beyond int32, beyond doubles, negative zero, fractions. */
const NASTY_NUMBER_TOKENS = [
  '0',
  '-0',
  '1',
  '-1',
  '0.5',
  '-2.75',
  '2147483647',
  '-2147483648',
  '2147483648',
  '-2147483649',
  '4294967296',
  '9007199254740993',
  '123456789012345678901234567890',
  '1e308',
  '-1e308',
  '1.7976931348623157e308',
  '1e400',
  '-1e400',
  '5e-324',
  '1e-400',
  '1E2',
  '3.0',
];

/** Strings that break naive code: NUL, bad uuids, impossible dates, wrong enum words, lengths. */
const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0000\u0000\u0000',
  '\t\n\r',
  '\u2028\u2029',
  '\ud800',
  '\udfff',
  '\ufffe',
  '\uffff',
  '\u{10ffff}',
  'not-a-uuid',
  '00000000-0000-0000-0000-00000000000g',
  '{00000000-0000-0000-0000-000000000000}',
  '00000000000000000000000000000000',
  '00000000-0000-0000-0000-000000000000',
  "'; drop table users; --",
  '" or ""="',
  '%',
  '_',
  '\\',
  '\\%',
  '%_%',
  '2024-02-30T10:00:00Z',
  '2023-02-29T00:00:00Z',
  '2024-13-01T00:00:00Z',
  '2024-00-10T00:00:00Z',
  '2024-01-32T00:00:00Z',
  '2024-01-01T25:00:00Z',
  '2024-01-01T23:60:00Z',
  '2024-01-01T23:59:60Z',
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00Z',
  '1969-12-31T23:59:59Z',
  '9999-12-31T23:59:59Z',
  '9999-12-31T23:59:59-14:00',
  '+275760-09-13T00:00:00Z',
  '-000001-01-01T00:00:00Z',
  '2024-01-01',
  '2024-01-01 10:00',
  '2024-01-01T10:00:00+99:99',
  'Fri, 30 Feb 2024 10:00:00',
  'Wed, 17 Mar 2009 10:00:00',
  'public',
  'PUBLIC',
  'private',
  'custom',
  'secret',
  'Public ',
  'owner',
  'OWNER',
  'manager',
  'staff',
  'admin',
  'root',
  'true',
  'false',
  'yes',
  't',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e400',
  '2147483648',
  '-2147483649',
  '12.5',
  '0x10',
  '1_000',
  'Europe/Berlin',
  'Europe/Nowhere',
  '../../etc/passwd',
  'UTC',
  'tomorrow 9am',
  'yesterday',
  'never',
  '99999999h',
  '-5h',
  '1:99',
  '$85',
  '$99999999999999',
  '€-1',
  'a,b,,c',
  ',,,',
  'x'.repeat(256),
  'x'.repeat(20_000),
  '__proto__',
  'constructor',
  'prototype',
  '<script>alert(1)</script>',
  '&amp;',
  ']]>',
  '${jndi:ldap://x}',
];

const jsonString = (s: string): string => JSON.stringify(s);

/** Every UTF-8 byte percent-encoded (a lone surrogate becomes U+FFFD, as any client would send it). */
const percentEncode = (s: string): string =>
  [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

/** One scalar as JSON text. */
const scalarJson: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...NASTY_NUMBER_TOKENS),
  fc.constantFrom(...NASTY_STRINGS).map(jsonString),
  fc.string({ unit: 'binary', maxLength: 24 }).map(jsonString),
  fc.double().map((n) => JSON.stringify(n)),
  fc.integer().map(String),
  fc.constantFrom('true', 'false', 'null'),
  fc.uuid().map(jsonString),
  fc.date({ noInvalidDate: true }).map((d) => jsonString(d.toISOString())),
);

/** JSON text of an object built from the given entries; keys may repeat, and `__proto__` stays an own key. */
function objectJson(entries: readonly (readonly [string, string])[]): string {
  return `{${entries.map(([key, value]) => `${jsonString(key)}:${value}`).join(',')}}`;
}

/** Keys no body should be able to abuse. */
const HOSTILE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  'valueOf',
  'id',
  'grand_total',
  'account_id',
];

/** Any JSON value as text, nested a little, with hostile keys among the random ones. */
const anyJson: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalarJson,
    fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
    fc
      .array(
        fc.tuple(
          fc.oneof(fc.constantFrom(...HOSTILE_KEYS), fc.string({ maxLength: 8 })),
          tie('value'),
        ),
        { maxLength: 4 },
      )
      .map(objectJson),
  ),
})).value;

/** An object of a resource's real field names (and hostile ones) with awkward values, as JSON text. */
function fieldsJson(fieldNames: readonly string[]): fc.Arbitrary<string> {
  const key = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...fieldNames) },
    { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_KEYS) },
  );
  const value = fc.oneof({ weight: 3, arbitrary: scalarJson }, { weight: 1, arbitrary: anyJson });
  return fc.array(fc.tuple(key, value), { minLength: 1, maxLength: 8 }).map(objectJson);
}

// ---------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------

function describeAnswer(res: request.Response): string {
  return `${res.status} ${res.headers['content-type'] ?? ''} ${res.text.slice(0, 500)}`;
}

/** Nothing reached Object.prototype. */
function expectPrototypeClean(): void {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_KEYS);
}

/** Below 500, JSON, and either a success envelope or the documented error body. */
function expectJsonAnswer(res: request.Response): void {
  if (res.status >= 500) throw new Error(`5xx: ${describeAnswer(res)}`);
  expect(res.headers['content-type']).toMatch(/^application\/json\b/);
  count('json', `${res.status} ${res.body?.error?.code ?? ''}`);
  const body = JSON.parse(res.text) as {
    response?: unknown;
    error?: { code?: unknown; status?: unknown; message?: unknown };
  };
  if (res.status >= 400) {
    expect(typeof body.error?.code).toBe('string');
    expect(body.error?.status).toBe(res.status);
    expect(typeof body.error?.message).toBe('string');
  } else {
    expect(body).toHaveProperty('response');
  }
  expectPrototypeClean();
}

/** Below 500, and a document a strict parser reads: `<errors>` for a refusal. */
function expectXmlAnswer(res: request.Response, elements: readonly string[]): void {
  if (res.status >= 500) throw new Error(`5xx: ${describeAnswer(res)}`);
  expect(res.headers['content-type']).toMatch(/^application\/xml\b/);
  const root = parseXml(res.text);
  count('xml', `${res.status} ${root.children[0]?.attributes.type ?? ''}`);
  if (res.status >= 400) {
    expect(root.name).toBe('errors');
    expect(root.children.length).toBeGreaterThan(0);
    for (const error of root.children) expect(error.attributes.type).toMatch(/^\w+::\w+$/);
  } else {
    expect(elements).toContain(root.name);
  }
  expectPrototypeClean();
}

/** Below 500, a GraphQL response, and no error masked as INTERNAL_SERVER_ERROR. */
function expectGraphQLAnswer(res: GraphQLResponse): void {
  const described = JSON.stringify(res).slice(0, 800);
  if (res.status >= 500) throw new Error(`5xx: ${described}`);
  count('graphql', `${res.status} ${res.errors?.map((e) => e.extensions?.code).join(',') ?? 'ok'}`);
  if (res.errors?.length) {
    for (const error of res.errors) {
      if (error.extensions?.code === 'INTERNAL_SERVER_ERROR')
        throw new Error(`internal error: ${described}`);
      expect(typeof error.message).toBe('string');
      expect(typeof error.extensions?.code).toBe('string');
    }
  } else {
    expect(res.status).toBe(200);
    expect(res.data).toBeTruthy();
  }
  expectPrototypeClean();
}

// ---------------------------------------------------------------------------------------------
// JSON facade: bodies of create and update routes
// ---------------------------------------------------------------------------------------------

interface BodyRoute {
  method: 'post' | 'put';
  path: () => string;
  key: string;
  fields: readonly string[];
}

const fieldsOf = (resource: { createFields: object }) => Object.keys(resource.createFields);

const JSON_BODY_ROUTES: BodyRoute[] = [
  {
    method: 'post',
    path: () => '/api/1/staff.json',
    key: 'staff',
    fields: fieldsOf(staffResource),
  },
  {
    method: 'put',
    path: () => `/api/1/staff/${victim.id}.json`,
    key: 'staff',
    fields: fieldsOf(staffResource),
  },
  {
    method: 'post',
    path: () => '/api/1/companies.json',
    key: 'company',
    fields: fieldsOf(companyResource),
  },
  {
    method: 'put',
    path: () => `/api/1/companies/${company.id}.json`,
    key: 'company',
    fields: fieldsOf(companyResource),
  },
  {
    method: 'post',
    path: () => '/api/1/projects.json',
    key: 'project',
    fields: fieldsOf(projectResource),
  },
  {
    method: 'post',
    path: () => `/api/1/companies/${company.id}/projects.json`,
    key: 'project',
    fields: fieldsOf(projectResource),
  },
  {
    method: 'put',
    path: () => `/api/1/projects/${project.id}.json`,
    key: 'project',
    fields: fieldsOf(projectResource),
  },
  {
    method: 'post',
    path: () => `/api/1/projects/${project.id}/activities.json`,
    key: 'activity',
    fields: fieldsOf(activityResource),
  },
  {
    method: 'put',
    path: () => `/api/1/projects/${project.id}/activities/${activity.id}.json`,
    key: 'activity',
    fields: fieldsOf(activityResource),
  },
  {
    method: 'post',
    path: () => '/api/1/shifts.json',
    key: 'shift',
    fields: fieldsOf(shiftResource),
  },
  {
    method: 'post',
    path: () => `/api/1/projects/${project.id}/shifts.json`,
    key: 'shift',
    fields: fieldsOf(shiftResource),
  },
  {
    method: 'put',
    path: () => `/api/1/shifts/${shift.id}.json`,
    key: 'shift',
    fields: fieldsOf(shiftResource),
  },
  {
    method: 'post',
    path: () => `/api/1/projects/${project.id}/punch_in.json`,
    key: 'project',
    fields: ['activity_uuid', 'notes', 'tag_list'],
  },
  {
    method: 'post',
    path: () => `/api/1/projects/${project.id}/punch_out.json`,
    key: 'project',
    fields: ['notes'],
  },
];

/** A route and a body for it: wrapped in the resource key, flat, or any JSON at all. */
const jsonBodyCase = fc.constantFrom(...JSON_BODY_ROUTES).chain((route) =>
  fc.record({
    route: fc.constant(route),
    body: fc.oneof(
      {
        weight: 4,
        arbitrary: fieldsJson(route.fields).map((fields) => objectJson([[route.key, fields]])),
      },
      { weight: 2, arbitrary: fieldsJson(route.fields) },
      { weight: 1, arbitrary: anyJson },
      { weight: 1, arbitrary: anyJson.map((value) => objectJson([[route.key, value]])) },
    ),
  }),
);

/** Rails-style form bodies, with the keys qs is known to be careful about. */
const formKey = fc.constantFrom(
  'company[name]',
  'company[visibility]',
  'company[user_uuids][]',
  'shift[tag_list][]',
  'shift[start]',
  'staff[hourly_rate_cents]',
  '__proto__[polluted]',
  'company[__proto__][polluted]',
  'constructor[prototype][polluted]',
  'company[constructor][prototype][polluted]',
  'a[b][c][d][e][f][g][h][i]',
  'name',
  'notes',
  'a[]',
  'a[999999999]',
  'a[-1]',
  '[]',
  '[',
  ']',
);
const formBody = fc
  .array(
    fc.tuple(formKey, fc.oneof(fc.constantFrom(...NASTY_STRINGS), fc.string({ maxLength: 12 }))),
    { maxLength: 8 },
  )
  .map((pairs) => pairs.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&'));

describe('the JSON facade', () => {
  test('create and update bodies of every resource are never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(jsonBodyCase, async ({ route, body }) => {
        const call = request(t.app.express)[route.method](route.path());
        const res = await call
          .auth(owner.login, owner.password)
          .set('content-type', 'application/json')
          .send(body);
        expectJsonAnswer(res);
      }),
      { numRuns: RUNS * 2 },
    );
  });

  test('form-encoded bodies, prototype keys included, are never a 5xx and pollute nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...JSON_BODY_ROUTES), formBody, async (route, body) => {
        const call = request(t.app.express)[route.method](route.path());
        const res = await call
          .auth(owner.login, owner.password)
          .set('content-type', 'application/x-www-form-urlencoded')
          .send(body);
        expectJsonAnswer(res);
      }),
      { numRuns: RUNS / 2 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// JSON facade: where and order
// ---------------------------------------------------------------------------------------------

interface ListRoute {
  path: () => string;
  columns: readonly string[];
}

const LIST_ROUTES: ListRoute[] = [
  { path: () => '/api/1/staff.json', columns: Object.keys(staffResource.columns) },
  { path: () => '/api/1/companies.json', columns: Object.keys(companyResource.columns) },
  { path: () => '/api/1/projects.json', columns: Object.keys(projectResource.columns) },
  {
    path: () => `/api/1/companies/${company.id}/projects.json`,
    columns: Object.keys(projectResource.columns),
  },
  {
    path: () => `/api/1/projects/${project.id}/activities.json`,
    columns: Object.keys(activityResource.columns),
  },
  { path: () => '/api/1/shifts.json', columns: Object.keys(shiftResource.columns) },
  {
    path: () => `/api/1/projects/${project.id}/shifts.json`,
    columns: Object.keys(shiftResource.columns),
  },
];

const ALL_COLUMNS = [...new Set(LIST_ROUTES.flatMap((route) => route.columns))];

/** A quoted string of the where language, escapes and all, sometimes left open. */
const quoted = fc
  .oneof(
    fc.constantFrom(...NASTY_STRINGS),
    fc.string({ maxLength: 10 }),
    fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  )
  .chain((s) =>
    fc.constantFrom(
      `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`,
      `"${s}"`,
      `"${s}`,
      `'${s}'`,
    ),
  );

function whereToken(columns: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...columns) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        ...ALL_COLUMNS,
        '__proto__',
        'constructor',
        'toString',
        'Name',
        'NAME',
      ),
    },
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        '=',
        '!=',
        '~=',
        '<',
        '<=',
        '>',
        '>=',
        '==',
        '=~',
        '<>',
        '!',
        '&',
        '|',
        '&&',
        '||',
        '=>',
      ),
    },
    { weight: 3, arbitrary: quoted },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        ...NASTY_NUMBER_TOKENS,
        'null',
        'NULL',
        'true',
        'False',
        'asc',
        'desc',
        'and',
        'or',
      ),
    },
    { weight: 1, arbitrary: fc.uuid() },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '(',
        ')',
        '((',
        '))',
        '"',
        '\\',
        ',',
        '-',
        '.',
        ':',
        '%',
        '\u0000',
        '\t',
        '\n',
      ),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
  );
}

/** Mostly grammar-shaped expressions: comparisons joined by && and ||, parentheses, junk in between. */
function whereText(columns: readonly string[]): fc.Arbitrary<string> {
  const comparison = fc
    .tuple(
      fc.constantFrom(...columns),
      fc.constantFrom('=', '!=', '~=', '<', '<=', '>', '>='),
      whereToken(columns),
    )
    .map(([c, op, v]) => `${c} ${op} ${v}`);
  const expression = fc.letrec<{ expr: string }>((tie) => ({
    expr: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      comparison,
      fc
        .tuple(tie('expr'), fc.constantFrom(' && ', ' || ', '&&', '||', ' '), tie('expr'))
        .map(([a, op, b]) => `${a}${op}${b}`),
      tie('expr').map((e) => `(${e})`),
    ),
  })).expr;
  return fc.oneof(
    { weight: 3, arbitrary: expression },
    {
      weight: 2,
      arbitrary: fc
        .array(whereToken(columns), { maxLength: 10 })
        .chain((tokens) => fc.constantFrom(tokens.join(' '), tokens.join(''))),
    },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '('.repeat(50) + 'name = 1' + ')'.repeat(50),
        Array(70).fill('name = 1').join(' || '),
        // Past the parser's length limit, yet (percent-encoded, 3 bytes a character) well inside
        // Node's header limit: the parser's refusal, not Node's, is what this one reaches.
        'x'.repeat(MAX_EXPRESSION_LENGTH + 1),
      ),
    },
  );
}

function orderText(columns: readonly string[]): fc.Arbitrary<string> {
  const term = fc
    .tuple(
      fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...columns) },
        { weight: 1, arbitrary: whereToken(columns) },
      ),
      fc.constantFrom('', ' asc', ' desc', ' ASC', ' sideways', ' desc desc', '  '),
    )
    .map(([c, d]) => c + d);
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .array(term, { maxLength: 10 })
        .chain((terms) => fc.constantFrom(terms.join(','), terms.join(', '), terms.join(' '))),
    },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  );
}

/** A query value: percent-encoded, or with raw junk percent sequences the decoder must survive. */
function queryValue(text: string, raw: string): string {
  return percentEncode(text) + raw;
}

/** The request target of a list case: path and query string, every byte of it ASCII. */
function listTarget({
  route,
  where,
  order,
  raw,
}: {
  route: ListRoute;
  where: string | undefined;
  order: string | undefined;
  raw: string;
}): string {
  const parts = [
    ...(where !== undefined ? [`where=${queryValue(where, raw)}`] : []),
    ...(order !== undefined ? [`order=${queryValue(order, raw)}`] : []),
  ];
  return `${route.path()}${parts.length ? `?${parts.join('&')}` : ''}`;
}

/**
 * Node's HTTP parser refuses a request whose request line and headers pass http.maxHeaderSize
 * (16 KiB) with a 431 of its own and closes the connection, while a client may still be sending
 * the rest: supertest then sees a reset, not an answer. So every generated request target stays a
 * kilobyte under the limit (room for the method, the version and supertest's few short headers),
 * whatever the seed; the limit itself is tested on a raw socket, after the property.
 */
const TARGET_BUDGET = http.maxHeaderSize - 1024;

const listCase = fc
  .constantFrom(...LIST_ROUTES)
  .chain((route) =>
    fc.record({
      route: fc.constant(route),
      where: fc.option(whereText(route.columns), { nil: undefined }),
      order: fc.option(orderText(route.columns), { nil: undefined }),
      raw: fc.constantFrom(
        '',
        '',
        '',
        '%',
        '%zz',
        '%00',
        '%ff%fe',
        '%e2%82',
        '%2',
        '&where=second',
        '&order[]=x',
        '&where[a]=b',
      ),
    }),
  )
  .filter((c) => listTarget(c).length <= TARGET_BUDGET);

/**
 * Writes `bytes` on a new connection and reads what comes back until the server closes it. A reset
 * after the answer (the server closed with bytes of ours unread) ends the reading like a close:
 * what arrived before it is the answer.
 */
function answerTo(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes, 'latin1'));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET' || chunks.length === 0) reject(error);
    });
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
  });
}

describe('where and order of the JSON lists', () => {
  test('any where/order text is never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(listCase, async (listed) => {
        const res = await request(t.app.express)
          .get(listTarget(listed))
          .auth(owner.login, owner.password);
        expectJsonAnswer(res);
        if (res.status >= 400) expect(res.status).toBe(400);
      }),
      { numRuns: RUNS * 2 },
    );
  });

  test("a where text past Node's header limit is Node's own 431, read before the connection closes", async () => {
    const { port } = new URL(await t.listen());
    const authorization = Buffer.from(`${owner.login}:${owner.password}`).toString('base64');
    const target = `/api/1/shifts.json?where=${'x'.repeat(http.maxHeaderSize)}`;
    const answer = await answerTo(
      Number(port),
      `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Basic ${authorization}\r\n\r\n`,
    );
    // Node's parser answers before the app sees the request: no JSON envelope, and no 5xx.
    expect(answer).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
  });
});

// ---------------------------------------------------------------------------------------------
// XML facade
// ---------------------------------------------------------------------------------------------

interface XmlBodyRoute {
  method: 'post' | 'put';
  path: () => string;
  root: string;
  fields: readonly string[];
  answers: readonly string[];
}

const XML_USER = [
  'username',
  'password',
  'first_name',
  'last_name',
  'email_address',
  'active',
  'time_zone',
];
const XML_COMPANY = [
  'name',
  'visibility',
  'user_ids',
  'website',
  'main_city',
  'main_country',
  'notes',
  'contact_first_name',
  'longitude',
  'id',
];
const XML_PROJECT = [
  'name',
  'visibility',
  'user_ids',
  'active',
  'time_limit_string',
  'default_tags',
  'notes',
  'company_id',
  'taglist',
  'tag_list',
];
const XML_SHIFT = [
  'user_id',
  'start',
  'stop',
  'time_zone',
  'notes',
  'project_id',
  'taglist',
  'tag_list',
  'staff_member',
];

const XML_BODY_ROUTES: XmlBodyRoute[] = [
  { method: 'post', path: () => '/staff.xml', root: 'user', fields: XML_USER, answers: ['user'] },
  {
    method: 'put',
    path: () => `/staff/${victim.legacyId}.xml`,
    root: 'user',
    fields: XML_USER,
    answers: ['user'],
  },
  {
    method: 'post',
    path: () => '/companies.xml',
    root: 'company',
    fields: XML_COMPANY,
    answers: ['company'],
  },
  {
    method: 'put',
    path: () => `/company/${company.legacyId}.xml`,
    root: 'company',
    fields: XML_COMPANY,
    answers: ['company'],
  },
  {
    method: 'post',
    path: () => `/company/${company.legacyId}/projects.xml`,
    root: 'project',
    fields: XML_PROJECT,
    answers: ['project'],
  },
  {
    method: 'put',
    path: () => `/project/${project.legacyId}.xml`,
    root: 'project',
    fields: XML_PROJECT,
    answers: ['project'],
  },
  {
    method: 'post',
    path: () => `/project/${project.legacyId}/shifts.xml`,
    root: 'shift',
    fields: XML_SHIFT,
    answers: ['shift'],
  },
  {
    method: 'put',
    path: () => `/shift/${shift.legacyId}.xml`,
    root: 'shift',
    fields: XML_SHIFT,
    answers: ['shift'],
  },
  {
    method: 'post',
    path: () => `/project/${project.legacyId}/punch_in.xml`,
    root: 'project',
    fields: [],
    answers: ['project'],
  },
];

/** Text escaped for XML; characters XML cannot carry are dropped unless `keepInvalid`. */
function xmlText(s: string, keepInvalid: boolean): string {
  const escaped = s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return keepInvalid
    ? escaped
    : // eslint-disable-next-line no-control-regex
      escaped.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udfff]/gu, '');
}

const xmlValueText = fc.oneof(
  fc.constantFrom(...NASTY_STRINGS),
  fc.string({ unit: 'binary', maxLength: 16 }),
  fc.constantFrom(...NASTY_NUMBER_TOKENS),
  fc.constantFrom(
    'Tue, 17 Mar 2009 10:00:00',
    'Tue, 17 Mar 2009 10:00:00 GMT',
    '31 Feb 2009 10:00',
    '17 Mar 99999 10:00',
    '17 Mar 0000 10:00',
    '17 Smarch 2009 10:00',
    '1,2,3',
    '7, -1, 2147483648',
  ),
);

const xmlAttributes = fc
  .array(
    fc.constantFrom(
      ' nil="true"',
      ' nil="false"',
      ' type="array"',
      ' type="integer"',
      ' type="boolean"',
      ' nil="true" type="array"',
      ' __proto__="x"',
    ),
    { maxLength: 2 },
  )
  .map((attributes) => attributes.join(''));

/** A well-formed document of the right or wrong shape: real element names, hostile values and nesting. */
function xmlDocument(route: XmlBodyRoute): fc.Arbitrary<string> {
  const name = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...(route.fields.length ? route.fields : ['notes'])) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '__proto__',
        'constructor',
        'prototype',
        'user_id',
        'x',
        'a-b.c',
        'ns:name',
      ),
    },
  );
  const element = fc.letrec<{ element: string }>((tie) => ({
    element: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc
        .tuple(name, xmlAttributes, xmlValueText, fc.boolean())
        .map(([n, a, v, keep]) => `<${n}${a}>${xmlText(v, keep)}</${n}>`),
      fc.tuple(name, xmlAttributes).map(([n, a]) => `<${n}${a}/>`),
      fc
        .tuple(name, xmlAttributes, fc.array(tie('element'), { maxLength: 3 }))
        .map(([n, a, children]) => `<${n}${a}>${children.join('')}</${n}>`),
    ),
  })).element;
  const root = fc.oneof(
    { weight: 4, arbitrary: fc.constant(route.root) },
    { weight: 1, arbitrary: fc.constantFrom('user', 'company', 'errors', 'r') },
  );
  return fc
    .tuple(
      fc.constantFrom('', '<?xml version="1.0" encoding="UTF-8"?>\n'),
      root,
      xmlAttributes,
      fc.array(element, { maxLength: 8 }),
    )
    .map(
      ([declaration, r, a, children]) => `${declaration}<${r}${a}>${children.join('\n')}</${r}>`,
    );
}

/** Text that is XML-ish but mostly broken. */
const xmlJunk = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc
    .array(
      fc.constantFrom(
        '<',
        '>',
        '</',
        '/>',
        '&',
        '&amp;',
        '&nbsp;',
        '&#0;',
        '&#x10FFFF;',
        '&#xD800;',
        '<![CDATA[',
        ']]>',
        '<!DOCTYPE x>',
        '<!--',
        '-->',
        '<?xml?>',
        '<a>',
        '</a>',
        '<b x="1">',
        '"',
        "'",
        '=',
        'project',
        '\u0000',
        '\ufeff',
      ),
      { maxLength: 16 },
    )
    .map((parts) => parts.join('')),
);

const xmlCase = fc.constantFrom(...XML_BODY_ROUTES).chain((route) =>
  fc.record({
    route: fc.constant(route),
    body: fc.oneof(
      { weight: 4, arbitrary: xmlDocument(route).map((s) => Buffer.from(s, 'utf8')) },
      { weight: 2, arbitrary: xmlJunk.map((s) => Buffer.from(s, 'utf8')) },
      { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)) },
    ),
    type: fc.constantFrom(
      'application/xml',
      'text/xml',
      'application/atom+xml',
      'application/xml; charset=utf-8',
      'application/xml; charset=latin1',
    ),
  }),
);

describe('the XML facade', () => {
  test('create and update bodies, well-formed or not, are never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(xmlCase, async ({ route, body, type }) => {
        const call = request(t.app.express)[route.method](route.path());
        const res = await call
          .auth(owner.login, owner.password)
          .set('content-type', type)
          .send(body);
        expectXmlAnswer(res, route.answers);
      }),
      { numRuns: RUNS * 2 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// GraphQL variables
// ---------------------------------------------------------------------------------------------

type Kind =
  | 'string'
  | 'int'
  | 'float'
  | 'bool'
  | 'id'
  | 'date'
  | 'strings'
  | 'ids'
  | 'ints'
  | readonly string[];

const int32Edge = fc.oneof(
  fc.integer(),
  fc.constantFrom(0, -1, 1, 2_147_483_647, -2_147_483_648),
  fc.constantFrom(2_147_483_648, -2_147_483_649, 2 ** 53, 1.5, 1e300),
);

/** A value of roughly the declared kind (so most inputs pass GraphQL coercion and reach the service), or anything. */
function valueOf(kind: Kind, ids: () => string[]): fc.Arbitrary<unknown> {
  const anything = fc.oneof(
    fc.constantFrom(...NASTY_STRINGS),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constant({ __typename: 'x' }),
    fc.constant([]),
  );
  const typed = (): fc.Arbitrary<unknown> => {
    if (Array.isArray(kind))
      return fc.oneof(
        fc.constantFrom(...kind),
        fc.constantFrom(...kind).map((k) => k.toLowerCase()),
        fc.constantFrom('SECRET', 'OWNER', ''),
      );
    switch (kind) {
      case 'string':
        return fc.oneof(
          fc.constantFrom(...NASTY_STRINGS),
          fc.string({ unit: 'binary', maxLength: 20 }),
        );
      case 'int':
        return int32Edge;
      case 'float':
        return fc.oneof(
          fc.double({ noNaN: true, noDefaultInfinity: true }),
          fc.constantFrom(1e308, -1e308, 5e-324, -0, 91, -181, 2 ** 31),
        );
      case 'bool':
        return fc.boolean();
      case 'id':
        return fc.oneof(
          fc.constantFrom(...ids()),
          fc.uuid(),
          fc.constantFrom(...NASTY_STRINGS),
          int32Edge,
        );
      case 'date':
        return fc.oneof(
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
          fc.constantFrom(...NASTY_STRINGS.filter((s) => /\d/.test(s))),
        );
      case 'strings':
        return fc.array(fc.oneof(fc.constantFrom(...NASTY_STRINGS), fc.string({ maxLength: 8 })), {
          maxLength: 6,
        });
      case 'ids':
        return fc.oneof(
          fc.array(valueOf('id', ids), { maxLength: 5 }),
          fc.constant(
            Array.from(
              { length: 250 },
              (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
            ),
          ),
        );
      case 'ints':
        return fc.array(int32Edge, { maxLength: 5 });
      default:
        return anything;
    }
  };
  return fc.oneof({ weight: 6, arbitrary: typed() }, { weight: 1, arbitrary: anything });
}

/** An input object: a subset of the type's fields, now and then with a key the type does not have. */
function inputOf(
  fields: Readonly<Record<string, Kind>>,
  ids: () => string[],
): fc.Arbitrary<Record<string, unknown>> {
  const names = Object.keys(fields);
  return fc
    .tuple(
      fc
        .subarray(names, { maxLength: Math.min(8, names.length) })
        .chain((chosen) =>
          fc.tuple(...chosen.map((n) => valueOf(fields[n]!, ids).map((v) => [n, v] as const))),
        ),
      fc.option(fc.constantFrom('__proto__', 'constructor', 'prototype', 'unknownField'), {
        freq: 8,
      }),
    )
    .map(([entries, extra]) => {
      const input: Record<string, unknown> = JSON.parse(
        objectJson(entries.map(([n, v]) => [n, JSON.stringify(v) ?? 'null'])),
      ) as Record<string, unknown>;
      // JSON.parse makes `__proto__` an own key, as it would be on the wire.
      return extra === null
        ? input
        : (JSON.parse(
            objectJson([
              ...Object.entries(input).map(([k, v]) => [k, JSON.stringify(v)] as const),
              [extra, '{"polluted":true}'],
            ]),
          ) as Record<string, unknown>);
    });
}

const VISIBILITY: Kind = ['PUBLIC', 'PRIVATE', 'CUSTOM'];
const COMPANY_INPUT: Record<string, Kind> = {
  id: 'id',
  name: 'string',
  visibility: VISIBILITY,
  userIds: 'ids',
  userLegacyIds: 'ints',
  latitude: 'float',
  longitude: 'float',
  mainAddress: 'string',
  mainCity: 'string',
  mainCountry: 'string',
  mainPostcode: 'string',
  mainState: 'string',
  notes: 'string',
  website: 'string',
};
const PROJECT_INPUT: Record<string, Kind> = {
  active: 'bool',
  billableByDefault: 'bool',
  companyId: 'id',
  companyLegacyId: 'int',
  defaultTags: 'strings',
  hourlyRate: 'string',
  hourlyRateCents: 'int',
  invoiceAmountCents: 'int',
  name: 'string',
  notes: 'string',
  tagList: 'strings',
  timeLimit: 'int',
  timeLimitString: 'string',
  userIds: 'ids',
  userLegacyIds: 'ints',
  visibility: VISIBILITY,
};
const SHIFT_INPUT: Record<string, Kind> = {
  activityId: 'id',
  activityLegacyId: 'int',
  billable: 'bool',
  externalHref: 'string',
  localStartAsString: 'string',
  localStopAsString: 'string',
  notes: 'string',
  projectId: 'id',
  projectLegacyId: 'int',
  start: 'date',
  stop: 'date',
  tagList: 'strings',
  timeZone: 'string',
  userId: 'id',
  userLegacyId: 'int',
};
const STAFF_INPUT: Record<string, Kind> = {
  active: 'bool',
  emailAddress: 'string',
  firstName: 'string',
  hourlyRateCents: 'int',
  lastName: 'string',
  login: 'string',
  password: 'string',
  timeZone: 'string',
  type: ['MANAGER', 'STAFF'],
};

type FilterField = 'string' | 'int' | 'float' | 'bool' | 'date' | 'id' | readonly string[];
const OPERATORS: Record<string, readonly string[]> = {
  string: ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'like', 'in', 'isNull'],
  int: ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'in', 'isNull'],
  float: ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'isNull'],
  bool: ['eq', 'ne', 'isNull'],
  date: ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'isNull'],
  id: ['eq', 'ne', 'in', 'isNull'],
  enum: ['eq', 'ne', 'in'],
};

function comparisonOf(
  type: FilterField,
  ids: () => string[],
): fc.Arbitrary<Record<string, unknown>> {
  const key = Array.isArray(type) ? 'enum' : (type as string);
  const operand = (op: string): fc.Arbitrary<unknown> => {
    if (op === 'isNull') return valueOf('bool', ids);
    const single: Kind = Array.isArray(type)
      ? type
      : (
          {
            string: 'string',
            int: 'int',
            float: 'float',
            bool: 'bool',
            date: 'date',
            id: 'id',
          } as const
        )[key as 'string'];
    return op === 'in' ? fc.array(valueOf(single, ids), { maxLength: 4 }) : valueOf(single, ids);
  };
  return fc
    .subarray([...OPERATORS[key]!], { minLength: 1, maxLength: 3 })
    .chain((ops) => fc.tuple(...ops.map((op) => operand(op).map((v) => [op, v] as const))))
    .map((entries) => Object.fromEntries(entries));
}

function filterOf(
  fields: Readonly<Record<string, FilterField>>,
  ids: () => string[],
): fc.Arbitrary<Record<string, unknown>> {
  const names = Object.keys(fields);
  const leaf = fc
    .subarray(names, { minLength: 1, maxLength: 3 })
    .chain((chosen) =>
      fc.tuple(...chosen.map((n) => comparisonOf(fields[n]!, ids).map((c) => [n, c] as const))),
    )
    .map((entries) => Object.fromEntries(entries));
  return fc.letrec<{ filter: Record<string, unknown> }>((tie) => ({
    filter: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.array(tie('filter'), { maxLength: 3 }).map((and) => ({ and })),
      fc.array(tie('filter'), { maxLength: 3 }).map((or) => ({ or })),
      tie('filter').map((not) => ({ not })),
    ),
  })).filter;
}

const SHIFT_FILTER: Record<string, FilterField> = {
  id: 'id',
  legacyId: 'int',
  start: 'date',
  stop: 'date',
  notes: 'string',
  timeZone: 'string',
  billable: 'bool',
  projectId: 'id',
  projectLegacyId: 'int',
  userId: 'id',
  userLegacyId: 'int',
  activityId: 'id',
  activityLegacyId: 'int',
  externalHref: 'string',
};
const COMPANY_FILTER: Record<string, FilterField> = {
  id: 'id',
  legacyId: 'int',
  name: 'string',
  mainCity: 'string',
  latitude: 'float',
  longitude: 'float',
  visibility: ['PUBLIC', 'PRIVATE', 'CUSTOM'],
};
const STAFF_FILTER: Record<string, FilterField> = {
  id: 'id',
  legacyId: 'int',
  login: 'string',
  active: 'bool',
  hourlyRateCents: 'int',
  type: ['OWNER', 'MANAGER', 'STAFF'],
};
const PROJECT_FILTER: Record<string, FilterField> = {
  id: 'id',
  legacyId: 'int',
  name: 'string',
  active: 'bool',
  companyId: 'id',
  companyLegacyId: 'int',
  timeLimit: 'int',
  hourlyRateCents: 'int',
  hourlyRate: 'string',
  visibility: ['PUBLIC', 'PRIVATE', 'CUSTOM'],
};

const knownIds = () => [company.id, project.id, activity.id, shift.id, victim.id, owner.ownerId];

function orderOf(fields: readonly string[]): fc.Arbitrary<unknown> {
  return fc.array(
    fc.record(
      {
        field: fc.oneof(fc.constantFrom(...fields), fc.constantFrom('name', 'nope', '')),
        direction: fc.constantFrom('ASC', 'DESC', 'asc', 'SIDEWAYS'),
      },
      { requiredKeys: ['field'] },
    ),
    { maxLength: 3 },
  );
}

const pageArgs = (): fc.Arbitrary<Record<string, unknown>> =>
  fc.record(
    {
      first: valueOf('int', knownIds),
      after: fc.oneof(
        fc.constantFrom(...NASTY_STRINGS),
        fc.string({ maxLength: 12 }),
        // Forged keyset cursors (paging/keyset-cursors.ts): of the default order, with values of
        // the wrong type, out of an integer column's range, or of another shape.
        fc.constantFrom(
          ...[
            ['id:asc', [5]],
            ['id:asc', [-1]],
            ['id:asc', [99999999999]],
            ['id:asc', [1.5]],
            ['id:asc', ['5']],
            ['id:asc', [null]],
            ['name:asc,id:asc', ['x', 1]],
            ['id:asc'],
            'o:5',
          ].map((cursor) => Buffer.from(JSON.stringify(cursor)).toString('base64url')),
        ),
      ),
    },
    { requiredKeys: [] },
  );

interface GraphQLCase {
  query: string;
  variables: fc.Arbitrary<Record<string, unknown>>;
}

/** Built after beforeAll: the cases name rows that exist only then. */
function graphqlCases(): GraphQLCase[] {
  return [
    {
      query:
        'mutation($input: CreateCompanyInput!) { createCompany(input: $input) { company { id name visibility latitude longitude users { id } } } }',
      variables: fc.record({ input: inputOf(COMPANY_INPUT, knownIds) }),
    },
    {
      query:
        'mutation($ref: CompanyRef!, $input: CompanyInput!) { updateCompany(input: { company: $ref, patch: $input }) { company { id name } } }',
      // The company reference (`@oneOf`) gets its id or nothing.
      variables: fc.record({
        ref: fc.record({ id: valueOf('id', knownIds) }, { requiredKeys: [] }),
        input: inputOf(COMPANY_INPUT, knownIds),
      }),
    },
    {
      query:
        'mutation($input: CreateProjectInput!) { createProject(input: $input) { project { id timeLimit hourlyRateCents grandTotal } } }',
      variables: fc.record({ input: inputOf(PROJECT_INPUT, knownIds) }),
    },
    {
      query:
        'mutation($ref: ProjectRef!, $input: ProjectInput!) { updateProject(input: { project: $ref, patch: $input }) { project { id timeLeft } } }',
      // The project reference (`@oneOf`) gets either, both or neither of its fields.
      variables: fc.record({
        ref: fc.record(
          { id: fc.constant(project.id as unknown), legacyId: valueOf('int', knownIds) },
          { requiredKeys: [] },
        ),
        input: inputOf(PROJECT_INPUT, knownIds),
      }),
    },
    {
      query:
        'mutation($input: CreateShiftInput!) { createShift(input: $input) { shift { id start stop timeZoneOffset } } }',
      variables: fc.record({ input: inputOf(SHIFT_INPUT, knownIds) }),
    },
    {
      query:
        'mutation($ref: ShiftRef!, $input: ShiftInput!) { updateShift(input: { shift: $ref, patch: $input }) { shift { id start stop } } }',
      // The shift reference (`@oneOf`) gets either, both or neither of its fields.
      variables: fc.record({
        ref: fc.record(
          { id: valueOf('id', knownIds), legacyId: valueOf('int', knownIds) },
          { requiredKeys: [] },
        ),
        input: inputOf(SHIFT_INPUT, knownIds),
      }),
    },
    {
      query:
        'mutation($input: CreateStaffInput!) { createStaff(input: $input) { staff { id type } } }',
      variables: fc.record({ input: inputOf({ ...STAFF_INPUT, id: 'id' }, knownIds) }),
    },
    {
      query:
        'mutation($ref: StaffRef!, $input: StaffInput!) { updateStaff(input: { staff: $ref, patch: $input }) { staff { id } } }',
      variables: fc.record({
        ref: fc.record({
          id: fc.oneof(fc.constant(victim.id as unknown), valueOf('id', knownIds)),
        }),
        input: inputOf(STAFF_INPUT, knownIds),
      }),
    },
    {
      query:
        'mutation($input: PunchInInput!) { punchIn(input: $input) { project { id running } } }',
      // The project reference (`@oneOf`) gets either, both or neither of its fields.
      variables: fc
        .record({
          project: fc.record(
            { id: valueOf('id', knownIds), legacyId: valueOf('int', knownIds) },
            { requiredKeys: [] },
          ),
          fields: inputOf(
            { activityId: 'id', activityLegacyId: 'int', notes: 'string', tagList: 'strings' },
            knownIds,
          ),
        })
        .map(({ project, fields }) => ({ input: { ...fields, project } })),
    },
    {
      query:
        'query($filter: ShiftFilter, $order: [ShiftOrder!], $first: Int, $after: String, $projectId: ID) { shifts(filter: $filter, order: $order, first: $first, after: $after, projectId: $projectId) { totalCount nodes { id } pageInfo { endCursor } } }',
      variables: fc
        .tuple(
          fc.record(
            {
              filter: filterOf(SHIFT_FILTER, knownIds),
              order: orderOf(['START', 'STOP', 'BILLABLE', 'TIME_ZONE', 'LEGACY_ID', 'CREATED_AT']),
              projectId: valueOf('id', knownIds),
            },
            { requiredKeys: [] },
          ),
          pageArgs(),
        )
        .map(([a, b]) => ({ ...a, ...b })),
    },
    {
      query:
        'query($filter: CompanyFilter, $order: [CompanyOrder!], $first: Int, $after: String) { companies(filter: $filter, order: $order, first: $first, after: $after) { totalCount nodes { id projects(first: $first) { totalCount } } } }',
      variables: fc
        .tuple(
          fc.record(
            {
              filter: filterOf(COMPANY_FILTER, knownIds),
              order: orderOf(['NAME', 'VISIBILITY', 'MAIN_CITY', 'MAIN_COUNTRY']),
            },
            { requiredKeys: [] },
          ),
          pageArgs(),
        )
        .map(([a, b]) => ({ ...a, ...b })),
    },
    {
      query:
        'query($filter: StaffFilter, $order: [StaffOrder!], $first: Int, $after: String) { staff(filter: $filter, order: $order, first: $first, after: $after) { totalCount nodes { id } } }',
      variables: fc
        .tuple(
          fc.record(
            {
              filter: filterOf(STAFF_FILTER, knownIds),
              order: orderOf(['LOGIN', 'TYPE', 'ACTIVE', 'HOURLY_RATE_CENTS']),
            },
            { requiredKeys: [] },
          ),
          pageArgs(),
        )
        .map(([a, b]) => ({ ...a, ...b })),
    },
    {
      query:
        'query($filter: ProjectFilter, $order: [ProjectOrder!], $first: Int, $after: String, $companyId: ID, $companyLegacyId: Int) { projects(filter: $filter, order: $order, first: $first, after: $after, companyId: $companyId, companyLegacyId: $companyLegacyId) { totalCount nodes { id grandTotal } } }',
      variables: fc
        .tuple(
          fc.record(
            {
              filter: filterOf(PROJECT_FILTER, knownIds),
              order: orderOf(['NAME', 'TIME_LIMIT', 'ACTIVE']),
              companyId: valueOf('id', knownIds),
              companyLegacyId: valueOf('int', knownIds),
            },
            { requiredKeys: [] },
          ),
          pageArgs(),
        )
        .map(([a, b]) => ({ ...a, ...b })),
    },
    {
      query:
        'query($id: ID, $legacyId: Int, $projectId: ID) { shift(id: $id, legacyId: $legacyId, projectId: $projectId) { id } }',
      variables: fc.record(
        {
          id: valueOf('id', knownIds),
          legacyId: valueOf('int', knownIds),
          projectId: valueOf('id', knownIds),
        },
        { requiredKeys: [] },
      ),
    },
  ];
}

describe('GraphQL', () => {
  test('variables of mutations and list queries are never a 5xx nor an internal error', async () => {
    const cases = graphqlCases().map((c) =>
      c.variables.map((variables) => ({ query: c.query, variables })),
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(...cases), async ({ query, variables }) => {
        expectGraphQLAnswer(await t.gql(owner, query, variables));
      }),
      { numRuns: RUNS * 3 },
    );
    // 360 requests in one test: seconds on an idle machine, minutes on a saturated CI machine.
  }, 300_000);
});
