import fs from 'node:fs';
import path from 'node:path';
import {
  buildSchema,
  getNamedType,
  isEnumType,
  isLeafType,
  isObjectType,
  type GraphQLObjectType,
} from 'graphql';
import request from 'supertest';
import { compiledReadCounts } from '../../src/graphql/compiled-reads';
import { createApp, type App } from '../../src/http/app';
import { seededRandom } from '../../src/cli/seeded-random';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * Reads compiled to SQL answer exactly what the executor answers (issue 36, item 3). The same
 * requests go to two apps over one database, one with compiled reads and one without, and every
 * answer must be the same bytes: a corpus of GraphQL queries generated from the committed schema
 * (random selections of the listed types' fields, aliases, named and inline fragments, `@skip` and
 * `@include` on variables, page sizes forward and backward, the next page by cursor, orders,
 * refused arguments), every read route of the legacy facade, as the owner, a manager and a staff
 * member who may not read money.
 */
/** Every timer Node has, left real: only `Date` is held. */
const TIMERS = [
  'hrtime',
  'nextTick',
  'performance',
  'queueMicrotask',
  'requestAnimationFrame',
  'cancelAnimationFrame',
  'requestIdleCallback',
  'cancelIdleCallback',
  'setImmediate',
  'clearImmediate',
  'setInterval',
  'clearInterval',
  'setTimeout',
  'clearTimeout',
] as const;

let t: TestApp;
let executed: App;
const viewers: Record<string, Credentials> = {};
const ids: {
  /** Its project's place in projectInputs: 0 and 3 public, 1 private, 2 custom. */
  projectIndex: number;
  company: string;
  companyLegacy: number;
  project: string;
  projectLegacy: number;
  activity: string;
  shift: string;
  shiftLegacy: number;
}[] = [];

beforeAll(async () => {
  // Running shifts count up to the request's instant: both apps must answer at the same one.
  jest.useFakeTimers({ doNotFake: [...TIMERS], now: new Date('2026-06-01T12:00:00Z') });
  t = await startTestApp();
  executed = await createApp({
    orm: t.db.orm,
    config: { ...t.config, graphql: { ...t.config.graphql, compiledReads: false } },
  });
  const owner = await t.newAccount();
  viewers.owner = owner;
  viewers.manager = await t.newStaff(owner, { type: 'MANAGER' });
  const manager = viewers.manager as Credentials & { id: string };
  const staff = await t.newStaff(owner);
  viewers.staff = staff;
  const companies = await Promise.all(
    (['PUBLIC', 'PRIVATE', 'CUSTOM'] as const).map((visibility, i) =>
      t.create(owner, 'createCompany', {
        name: `Company ${i} "quoted" \\ ü`,
        visibility,
        ...(visibility === 'CUSTOM' ? { userIds: [manager.id] } : {}),
        ...(i === 0 ? { latitude: 52.52, longitude: 13.405 } : {}),
      }),
    ),
  );
  const projectInputs = [
    { visibility: 'PUBLIC', hourlyRateCents: 8550, timeLimit: 36_000, tagList: ['a', 'b'] },
    { visibility: 'PRIVATE', hourlyRate: '$12.50', notes: 'line\nbreak\ttab' },
    { visibility: 'CUSTOM', userIds: [staff.id], invoiceAmountCents: 100_001, active: false },
    { visibility: 'PUBLIC', defaultTags: ['x'], billableByDefault: false },
  ];
  const zones = ['UTC', 'Europe/Berlin', 'America/St_Johns', 'Asia/Kolkata', 'Pacific/Chatham'];
  const notes = [null, '', 'plain', 'ctl \u0001\u001f "q" \\ / \u2028 😀', "it's <b>&amp;</b>"];
  let n = 0;
  for (const [i, input] of projectInputs.entries()) {
    const company = companies[i % companies.length]!;
    const project = await t.create(owner, 'createProject', {
      name: `Project ${i}`,
      companyId: company.id,
      ...input,
    });
    const activity = await t.create(owner, 'createActivity', {
      projectId: project.id,
      name: `Activity ${i}`,
    });
    for (const user of [undefined, manager.id, staff.id]) {
      for (let k = 0; k < 4; k++) {
        n += 1;
        const start = new Date(
          Date.UTC(2026, 0, 1 + n, 8 + (k % 3), n % 60, 0, n % 7 === 0 ? 250 : 0),
        );
        const shift = await t.create(owner, 'createShift', {
          projectId: project.id,
          ...(user ? { userId: user } : {}),
          start: start.toISOString(),
          ...(n % 9 === 0
            ? {}
            : { stop: new Date(start.getTime() + 3_600_000 + n * 1000).toISOString() }),
          timeZone: zones[n % zones.length],
          notes: notes[n % notes.length],
          tagList: n % 2 ? ['t1', 'два'] : [],
          billable: n % 3 !== 0,
          ...(n % 4 === 0 ? { activityId: activity.id } : {}),
        });
        ids.push({
          projectIndex: i,
          company: company.id,
          companyLegacy: company.legacyId,
          project: project.id,
          projectLegacy: project.legacyId,
          activity: activity.id,
          shift: shift.id,
          shiftLegacy: shift.legacyId,
        });
      }
    }
  }
});
afterAll(async () => {
  jest.useRealTimers();
  await executed?.stop();
  await t?.close();
});

interface Answer {
  readonly status: number;
  readonly type: string | undefined;
  readonly text: string;
}

async function answer(app: App, who: Credentials, send: (r: request.Agent) => request.Test) {
  const res = await send(request.agent(app.express).auth(who.login, who.password));
  return { status: res.status, type: res.headers['content-type'], text: res.text } as Answer;
}

/**
 * The same request to both apps: the answers must be equal to the byte, but for the order of
 * several errors. The executor resolves root fields concurrently and lists their errors as they
 * happen, so two failing lookups come in either order from either app (GraphQL gives `errors` no
 * order); they are compared sorted by path, and everything else byte for byte.
 */
async function same(who: Credentials, send: (r: request.Agent) => request.Test): Promise<Answer> {
  const compiled = await answer(t.app, who, send);
  const plain = await answer(executed, who, send);
  expect(errorsInPathOrder(compiled)).toEqual(errorsInPathOrder(plain));
  return compiled;
}

function errorsInPathOrder(answer: Answer): Answer {
  if (!answer.type?.startsWith('application/json')) return answer;
  const body = JSON.parse(answer.text) as { errors?: { path?: unknown }[] };
  if (!body.errors || body.errors.length < 2) return answer;
  const key = (e: { path?: unknown }) => JSON.stringify(e.path ?? null);
  body.errors.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  return { ...answer, text: JSON.stringify(body) };
}

const graphql =
  (query: string, variables: Record<string, unknown> = {}) =>
  (r: request.Agent) =>
    r.post('/graphql').set('content-type', 'application/json').send({ query, variables });

const schema = buildSchema(
  fs.readFileSync(path.join(__dirname, '..', '..', 'schema', 'schema.graphql'), 'utf8'),
);
const LISTS = ['shifts', 'projects', 'companies', 'activities', 'staff'] as const;

/** A generated query over one root list, with what its next page needs. */
interface Generated {
  readonly query: string;
  readonly variables: Record<string, unknown>;
}

function generate(random: () => number): Generated {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const chance = (p: number) => random() < p;
  const list = pick(LISTS);
  const field = schema.getQueryType()!.getFields()[list]!;
  const connection = getNamedType(field.type) as GraphQLObjectType;
  const node = getNamedType(connection.getFields().nodes!.type) as GraphQLObjectType;
  const variables: Record<string, unknown> = {};
  const definitions: string[] = [];
  const fragments: string[] = [];
  let aliases = 0;

  const leaves = (type: GraphQLObjectType) =>
    Object.values(type.getFields()).filter(
      (f) => f.args.length === 0 && isLeafType(getNamedType(f.type)),
    );
  const objects = (type: GraphQLObjectType) =>
    Object.values(type.getFields()).filter(
      (f) =>
        f.args.length === 0 &&
        isObjectType(getNamedType(f.type)) &&
        !/Connection$/.test(getNamedType(f.type).name),
    );
  const connections = (type: GraphQLObjectType) =>
    Object.values(type.getFields()).filter((f) => /Connection$/.test(getNamedType(f.type).name));
  const directive = () => {
    if (!chance(0.15)) return '';
    const name = `v${definitions.length}`;
    definitions.push(`$${name}: Boolean!`);
    variables[name] = chance(0.5);
    return chance(0.5) ? ` @include(if: $${name})` : ` @skip(if: $${name})`;
  };
  const selection = (type: GraphQLObjectType, depth: number): string => {
    const chosen = leaves(type).filter(() => chance(0.35));
    const parts = (chosen.length ? chosen : [leaves(type)[0]!]).map(
      (f) => `${chance(0.15) ? `a${aliases++}: ` : ''}${f.name}${directive()}`,
    );
    if (depth < 2) {
      for (const f of objects(type).filter(() => chance(0.2)))
        parts.push(
          `${f.name} { ${selection(getNamedType(f.type) as GraphQLObjectType, depth + 1)} }`,
        );
      // Nested pages: a page of each parent, counted, with its cursors.
      for (const f of connections(type).filter(() => chance(0.25))) {
        const inner = getNamedType(f.type) as GraphQLObjectType;
        const item = getNamedType(inner.getFields().nodes!.type) as GraphQLObjectType;
        const size = chance(0.3) ? `last: ${pick([1, 2])}` : `first: ${pick([0, 1, 2, 5])}`;
        parts.push(
          `${f.name}(${size}) { ${chance(0.5) ? 'totalCount ' : ''}nodes { ${selection(item, depth + 1)} } pageInfo { hasNextPage endCursor } }`,
        );
      }
    }
    if (chance(0.2)) parts.push('__typename');
    if (chance(0.2)) {
      const name = `F${fragments.length}`;
      fragments.push(
        `fragment ${name} on ${type.name} { ${
          leaves(type)
            .filter(() => chance(0.3))
            .map((f) => f.name)
            .join(' ') || 'id'
        } }`,
      );
      parts.push(`...${name}`);
    }
    if (chance(0.15)) parts.push(`... on ${type.name} { ${pick(leaves(type)).name} }`);
    return parts.join(' ');
  };

  const args: string[] = [];
  const backwards = chance(0.25);
  definitions.push('$size: Int');
  variables.size = pick([0, 1, 2, 3, 5, 10, 50]);
  args.push(backwards ? 'last: $size' : 'first: $size');
  definitions.push('$cursor: String');
  args.push(backwards ? 'before: $cursor' : 'after: $cursor');
  const orderType = getNamedType(field.args.find((a) => a.name === 'order')!.type);
  const orderField = getNamedType(
    (orderType as unknown as GraphQLObjectType).getFields().field!.type,
  );
  if (chance(0.5) && isEnumType(orderField))
    args.push(
      `order: [{ field: ${pick(orderField.getValues()).name}, direction: ${pick(['ASC', 'DESC'])} }]`,
    );
  const members = [
    chance(0.6) ? `nodes { ${selection(node, 0)} }` : '',
    chance(0.4) ? `edges { cursor node { ${selection(node, 1)} } }` : '',
    chance(0.5) ? 'totalCount' : '',
    chance(0.2) ? '__typename' : '',
    `pageInfo { endCursor startCursor hasNextPage hasPreviousPage }`,
  ].filter(Boolean);
  const alias = chance(0.3) ? 'list: ' : '';
  const second = chance(0.2) ? ` viewer { id }` : '';
  return {
    query: `query Q(${definitions.join(', ')}) { ${alias}${list}(${args.join(', ')}) { ${members.join(' ')} }${second} } ${fragments.join(' ')}`,
    variables,
  };
}

const CORPUS = 120;

test(`a corpus of ${CORPUS} generated queries answers the same bytes compiled, as each viewer, page after page`, async () => {
  const random = seededRandom(36);
  const before = { ...compiledReadCounts };
  let compiledQueries = 0;
  for (let i = 0; i < CORPUS; i++) {
    const { query, variables } = generate(random);
    for (const who of Object.values(viewers)) {
      const counted = compiledReadCounts.compiled;
      const first = await same(who, graphql(query, { ...variables, cursor: null }));
      const root = Object.values(JSON.parse(first.text).data ?? {})[0] as
        { pageInfo: { endCursor: string | null; startCursor: string | null } } | undefined;
      const cursor = query.includes('last:')
        ? root?.pageInfo.startCursor
        : root?.pageInfo.endCursor;
      if (cursor) await same(who, graphql(query, { ...variables, cursor }));
      if (compiledReadCounts.compiled > counted) compiledQueries += 1;
    }
  }
  const share = compiledQueries / (CORPUS * Object.keys(viewers).length);
  process.stdout.write(
    `compiled reads: ${compiledQueries} of ${CORPUS * 3} generated requests compiled (${Math.round(share * 100)}%); counts ${JSON.stringify(
      Object.fromEntries(
        Object.entries(compiledReadCounts).map(([k, v]) => [
          k,
          v - before[k as keyof typeof before],
        ]),
      ),
    )}\n`,
  );
  expect(compiledReadCounts.failed).toBe(before.failed);
  // Most generated selections compile; those naming a field without an SQL form run executed.
  expect(share).toBeGreaterThan(0.3);
});

test('arguments the lists refuse answer the executor’s errors, compiled fields beside them', async () => {
  const hidden = ids.find((o) => o.projectIndex === 1)!;
  const custom = ids.find((o) => o.projectIndex === 2)!;
  const queries = [
    '{ shifts(first: 1, last: 1) { nodes { id } } }',
    '{ shifts(after: "not-a-cursor") { nodes { id } } }',
    '{ projects(first: 1, after: "WyJpZDphc2MiLFsxXV0") { nodes { id } } shifts(first: 2) { nodes { id } } }',
    '{ projects(first: 100000) { nodes { id } } }',
    '{ projects(order: [{ field: HOURLY_RATE_CENTS }]) { nodes { id } } }',
    `{ shifts(projectId: "${ids[0]!.project}") { totalCount nodes { id project { name } } } }`,
    `{ shifts(projectLegacyId: ${ids[ids.length - 1]!.projectLegacy}) { totalCount } }`,
    '{ shifts(filter: { notes: { like: "%q%" } }) { totalCount nodes { notes } } }',
    '{ shifts(filter: { or: [{ billable: { eq: false } }, { stop: { isNull: true } }] }, order: [{ field: STOP, direction: DESC }]) { nodes { id stop } } }',
    '{ projects { nodes { id hourlyRateCents hourlyRate invoiceAmountCents } } }',
    '{ staffList { nodes { id login email } } }',
    '{ shifts(first: 3) { nodes { id } } nodes: shifts(last: 2) { nodes { id } } viewer { login } }',
    // Lookups: found, missing, hidden from some viewers, a locator refused, beside a list.
    `{ a: shift(id: "${ids[0]!.shift}") { id notes project { name } user { login } } b: shifts(first: 1) { nodes { id } } }`,
    `{ shift(id: "${ids[0]!.shift}", legacyId: ${ids[0]!.shiftLegacy}) { id } }`,
    '{ shift(legacyId: 2147483647) { id } }',
    `{ shift(id: "${ids[0]!.shift}", projectId: "${custom.project}") { id } }`,
    `{ project(id: "${custom.project}") { id name hourlyRateCents invoiceAmountCents } }`,
    `{ company(legacyId: ${custom.companyLegacy}) { id name projects(first: 2) { totalCount nodes { id } } } }`,
    `{ shift(legacyId: ${custom.shiftLegacy}) { id notes } project(id: "${hidden.project}") { id } }`,
    `{ activity(id: "${ids[0]!.activity}", projectId: "${ids[0]!.project}") { id name project { id } } }`,
    '{ staffMember(legacyId: 1) { id login } }',
  ];
  for (const query of queries)
    for (const who of Object.values(viewers)) await same(who, graphql(query));
});

test('every read route of the legacy facade answers the same bytes, and every answer it finds is compiled', async () => {
  const manager = viewers.manager as Credentials & { id: string; legacyId: number };
  const missing = '00000000-0000-4000-8000-000000000000';
  const routes = [
    '/api/1/shifts.json',
    `/api/1/shifts.json?where=${encodeURIComponent('billable = true')}&order=${encodeURIComponent('start desc')}`,
    '/api/1/projects.json',
    '/api/1/companies.json',
    '/api/1/staff.json',
    `/api/1/staff/${manager.id}.json`,
    `/api/1/shifts/${missing}.json`,
    '/shifts.xml',
    '/projects.xml',
    '/companies.xml',
    '/staff.xml',
    `/staff/${manager.legacyId}.xml`,
    '/shift/2147483647.xml',
    // A public project of a public company, a private one of a private company, and a custom one
    // (its member the staff member) of a custom company (its member the manager), each through
    // every route that shows it: each viewer finds some, and is refused others.
    ...[0, 1, 2]
      .map((i) => ids.find((o) => o.projectIndex === i)!)
      .flatMap((o) => [
        `/api/1/projects/${o.project}/shifts.json`,
        `/api/1/shifts/${o.shift}.json`,
        `/api/1/projects/${o.project}/shifts/${o.shift}.json`,
        `/api/1/projects/${o.project}.json`,
        `/api/1/companies/${o.company}/projects.json`,
        `/api/1/companies/${o.company}/projects/${o.project}.json`,
        `/api/1/companies/${o.company}.json`,
        `/api/1/projects/${o.project}/activities.json`,
        `/api/1/projects/${o.project}/activities/${o.activity}.json`,
        `/project/${o.projectLegacy}/shifts.xml`,
        `/shift/${o.shiftLegacy}.xml`,
        `/project/${o.projectLegacy}.xml`,
        `/company/${o.companyLegacy}.xml`,
      ]),
  ];
  const before = { ...compiledReadCounts };
  let found = 0;
  for (const route of routes)
    for (const who of Object.values(viewers)) {
      const compiled = compiledReadCounts.compiled;
      const { status } = await same(who, (r) => r.get(route));
      if (status === 200) {
        found += 1;
        // Every facade read of an object it shows ran on the compiled path.
        expect({ route, compiled: compiledReadCounts.compiled > compiled }).toEqual({
          route,
          compiled: true,
        });
      }
    }
  expect(found).toBeGreaterThan(routes.length);
  expect(compiledReadCounts.uncompiled).toBe(before.uncompiled);
  expect(compiledReadCounts.failed).toBe(before.failed);
});
