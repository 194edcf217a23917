import { parse, specifiedRules, validate } from 'graphql';
import { OperationRegistry } from '../../rest-facade/operation-registry';
import { createSchema } from '../../src/graphql/schema';
import { createServices } from '../../src/graphql/services';
import { createGeocoder } from '../../src/modules/companies/geocoder';
import { operationGuards } from '../../src/graphql/operation-guards';
import { codes, startTestApp, type Credentials, type TestApp } from '../support/test-app';

let t: TestApp;
let owner: Credentials;
beforeAll(async () => {
  t = await startTestApp();
  owner = await t.newAccount();
});
afterAll(() => t?.close());

/** projects → nodes → (company → projects → nodes)×k → id: depth 3 + 3k. */
const nested = (k: number) =>
  `{ projects(first: 1) { nodes { ${'company { projects(first: 1) { nodes { '.repeat(k)}id${' } } }'.repeat(k)} } } }`;

test('an operation nested deeper than GRAPHQL_MAX_DEPTH is refused before it runs; one level less runs', async () => {
  const limit = t.config.graphql.maxDepth;
  const tooDeep = await t.gql(owner, nested(Math.ceil((limit - 2) / 3)));
  expect(tooDeep.status).toBe(400);
  expect(codes(tooDeep)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
  expect(tooDeep.errors![0]!.message).toMatch(new RegExp(`depth limit of ${limit} exceeded`));
  expect(tooDeep.data).toBeUndefined();

  const fits = await t.gql(owner, nested(Math.floor((limit - 3) / 3)));
  expect(fits.status).toBe(200);
  expect(fits.errors).toBeUndefined();
});

test('more aliases than GRAPHQL_MAX_ALIASES are refused (a batch of one expensive field under many names)', async () => {
  const limit = t.config.graphql.maxAliases;
  const aliases = (n: number) =>
    `{ ${Array.from({ length: n }, (_, i) => `a${i}: viewer { staff { login } }`).join(' ')} }`;
  const refused = await t.gql(owner, aliases(limit + 1));
  expect(refused.status).toBe(400);
  expect(refused.errors![0]!.message).toMatch(new RegExp(`Aliases limit of ${limit} exceeded`));
  expect((await t.gql(owner, aliases(limit))).errors).toBeUndefined();
});

test('a document of more than GRAPHQL_MAX_TOKENS tokens is not even parsed', async () => {
  const filler = Array.from({ length: t.config.graphql.maxTokens }, () => '__typename').join(' ');
  const res = await t.gql(owner, `{ ${filler} }`);
  expect(res.status).toBe(400);
  expect(codes(res)).toEqual(['GRAPHQL_PARSE_FAILED']);
  expect(res.errors![0]!.message).toMatch(new RegExp(`${t.config.graphql.maxTokens} tokens`));
});

test('nested pages multiply: a list of pages of lists over GRAPHQL_MAX_COST is refused with its estimate', async () => {
  const res = await t.gql(
    owner,
    '{ projects(first: 5000) { nodes { shifts(first: 5000) { nodes { id project { name } } } } } }',
  );
  expect(res.status).toBe(400);
  expect(codes(res)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
  // 1 + 5000 × (1 + 1 + 5000 × (1 + 1)) objects.
  expect(res.errors![0]!.extensions).toMatchObject({
    cost: 1 + 5000 * (2 + 5000 * 2),
    maxCost: t.config.graphql.maxCost,
  });
  expect(res.errors![0]!.message).toMatch(/smaller pages/);
});

test('the cost follows page sizes given in variables', async () => {
  const query =
    'query($n: Int, $m: Int) { projects(first: $n) { nodes { shifts(first: $m) { nodes { id } } } } }';
  expect((await t.gql(owner, query, { n: 10, m: 10 })).errors).toBeUndefined();
  const refused = await t.gql(owner, query, { n: 5000, m: 5000 });
  expect(refused.status).toBe(400);
  expect(refused.errors![0]!.extensions?.cost).toBe(1 + 5000 * (2 + 5000 * 1));
});

test('a page larger than PAGE_SIZE_MAX is refused', async () => {
  const res = await t.gql(owner, `{ shifts(first: ${t.config.pageSize.max + 1}) { totalCount } }`);
  expect(codes(res)).toEqual(['VALIDATION_FAILED']);
});

test("every facade operation, at the facade's page size, keeps every limit", async () => {
  const schema = await createSchema(createServices(t.app.hasher, createGeocoder(t.config)));
  const guards = operationGuards(schema, t.config);
  const registry = OperationRegistry.load();
  const costs: Record<string, number | undefined> = {};
  for (const name of registry.names()) {
    const document = parse(registry.get(name).source, guards.parseOptions);
    expect({
      name,
      errors: validate(schema, document, [...specifiedRules, ...guards.validationRules]),
    }).toEqual({ name, errors: [] });
    // Lists are what costs: the facade asks for its largest page (the rest return one object).
    // The cost needs every required variable: the report export's input is a whole year.
    const required =
      name === 'ExportReport'
        ? {
            input: {
              from: '2026-01-01T00:00:00Z',
              to: '2027-01-01T00:00:00Z',
              groupBy: ['PROJECT'],
            },
          }
        : {};
    if (registry.get(name).source.includes('$first'))
      costs[name] = guards.cost(document, name, { first: t.config.pageSize.max, ...required });
  }
  expect(Object.keys(costs).length).toBeGreaterThanOrEqual(5);
  for (const [name, cost] of Object.entries(costs)) {
    expect({ name, fits: cost! <= t.config.graphql.maxCost }).toEqual({ name, fits: true });
  }
  // The heaviest: a full legacy page of projects with their activities and members.
  expect(Math.max(...Object.values(costs).map(Number))).toBe(costs.ListProjects);
});

describe('in production', () => {
  let production: TestApp;
  let productionOwner: Credentials;
  beforeAll(async () => {
    production = await startTestApp({ NODE_ENV: 'production' });
    productionOwner = await production.newAccount();
  });
  afterAll(() => production?.close());

  test('introspection is off', async () => {
    const res = await production.gql(productionOwner, '{ __schema { types { name } } }');
    expect(res.status).toBe(400);
    expect(codes(res)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(res.errors![0]!.message).toMatch(/introspection is not allowed/i);
    // Outside production it is on, for tools.
    expect((await t.gql(owner, '{ __schema { queryType { name } } }')).data).toEqual({
      __schema: { queryType: { name: 'Query' } },
    });
  });

  test('a misspelt field gets no "Did you mean" that would spell out the schema', async () => {
    const res = await production.gql(productionOwner, '{ viewer { staf { login } } }');
    expect(res.status).toBe(400);
    expect(res.errors![0]!.message).toBe('Cannot query field "staf" on type "Viewer".');
    // Outside production the suggestion helps developers.
    expect((await t.gql(owner, '{ viewer { staf { login } } }')).errors![0]!.message).toMatch(
      /Did you mean "staff"/,
    );
  });
});
