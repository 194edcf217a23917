import { parse } from 'graphql';
import request from 'supertest';
import { operationGuards } from '../../src/graphql/operation-guards';
import { createSchema } from '../../src/graphql/schema';
import { createServices } from '../../src/graphql/services';
import { createGeocoder } from '../../src/modules/companies';
import { createPasswordHasher } from '../../src/modules/staff';
import { basicAuthorization, GraphQLSocket } from '../support/graphql-ws-session';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * Limits a client can see: the RateLimit headers (IETF draft: limit, remaining, seconds until it
 * resets) on every HTTP interface, and `extensions.cost` in GraphQL answers. Small limits: 5
 * requests of one account a minute, 1,000 from one address; the default cost budgets (a user's is
 * the tighter: 1,000,000 points restoring 10,000 a second), their clock held still, so nothing
 * refills between requests. Behind a trusted proxy (loopback) each test names its own client
 * address.
 */
let t: TestApp;
beforeAll(async () => {
  const now = Date.now();
  t = await startTestApp(
    {
      RATE_LIMIT_PER_ACCOUNT: '5',
      RATE_LIMIT_PER_ADDRESS: '1000',
      RATE_LIMIT_WINDOW_S: '60',
      TRUST_PROXY: 'loopback',
      // The defaults (the suite's test app turns the budgets off).
      GRAPHQL_COST_BUDGET_PER_USER: '1000000',
      GRAPHQL_COST_RESTORE_PER_USER: '10000',
      GRAPHQL_COST_BUDGET_PER_ACCOUNT: '5000000',
      GRAPHQL_COST_RESTORE_PER_ACCOUNT: '50000',
    },
    { clock: () => now },
  );
});
afterAll(() => t?.close());
const budget = () => ({ maximumAvailable: 1_000_000, restoreRate: 10_000 });

const from = (address: string, who: Credentials) => ({
  graphql: (query = '{ viewer { staff { id } } }', variables: Record<string, unknown> = {}) =>
    request(t.app.express)
      .post('/graphql')
      .set('x-forwarded-for', address)
      .auth(who.login, who.password)
      .send({ query, variables }),
  json: () =>
    request(t.app.express)
      .get('/api/1/projects.json')
      .set('x-forwarded-for', address)
      .auth(who.login, who.password),
  xml: () =>
    request(t.app.express)
      .get('/projects.xml')
      .set('x-forwarded-for', address)
      .auth(who.login, who.password),
});

function limits(res: request.Response): { limit: number; remaining: number; reset: number } {
  for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'])
    expect(res.headers[name]).toMatch(/^\d+$/);
  const reset = Number(res.headers['ratelimit-reset']);
  expect(reset).toBeLessThanOrEqual(60);
  return {
    limit: Number(res.headers['ratelimit-limit']),
    remaining: Number(res.headers['ratelimit-remaining']),
    reset,
  };
}

test("every interface answers RateLimit headers: the cost budget its operations took from, and a request counter's 429 with Retry-After", async () => {
  const client = from('198.51.100.21', await t.newAccount());
  const answers = [
    await client.graphql(),
    await client.json(),
    await client.xml(),
    await client.graphql(),
    await client.json(),
  ];
  for (const answer of answers) expect(answer.status).toBe(200);
  // The user's budget (the tighter of theirs and their account's), down by each operation's cost.
  expect(answers.map((answer) => limits(answer).limit)).toEqual(
    answers.map(() => budget().maximumAvailable),
  );
  const remaining = answers.map((answer) => limits(answer).remaining);
  expect(remaining).toEqual([...remaining].sort((a, b) => b - a));
  expect(new Set(remaining).size).toBe(remaining.length);
  for (const graphql of [answers[0]!, answers[3]!])
    expect(limits(graphql).remaining).toBe(
      graphql.body.extensions.cost.throttleStatus.currentlyAvailable,
    );
  expect(remaining[3]).toBe(remaining[2]! - answers[3]!.body.extensions.cost.actualQueryCost);

  // The account's request counter (5 a minute) refuses the 6th request before it is parsed: its
  // 429 carries that counter.
  for (const refused of [await client.graphql(), await client.json(), await client.xml()]) {
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    const { limit, remaining, reset } = limits(refused);
    expect({ limit, remaining }).toEqual({ limit: 5, remaining: 0 });
    expect(reset).toBeGreaterThanOrEqual(1);
  }
});

test('a request that fails to sign in still reports its address count', async () => {
  const stranger = from('198.51.100.22', { login: 'nobody', password: 'wrong' });
  const first = await stranger.json();
  const second = await stranger.json();
  expect(first.status).toBe(401);
  expect(limits(first)).toMatchObject({ limit: 1000, remaining: 999 });
  expect(limits(second)).toMatchObject({ limit: 1000, remaining: 998 });
});

test("GraphQL answers report the operation's cost, as the cost guard computes it, and the remaining budget", async () => {
  const schema = await createSchema(
    createServices(createPasswordHasher(8), createGeocoder({ geocoder: { kind: 'none' } })),
  );
  const guards = operationGuards(schema, t.config);
  const query = `query($n: Int) {
    viewer { staff { id } }
    projects(first: $n) { totalCount nodes { id company { id } activities { id } } }
  }`;
  const variables = { n: 7 };
  const expected = guards.cost(parse(query), undefined, variables);
  expect(expected).toBeGreaterThan(7);
  // A new account has no projects: the seven rows the page could hold are given back.
  const perRow = guards.cost(parse(query), undefined, { n: 8 })! - expected!;
  const actual = expected! - 7 * perRow;

  const client = from('198.51.100.23', await t.newAccount());
  const first = await client.graphql(query, variables);
  const second = await client.graphql(query, variables);
  expect(first.status).toBe(200);
  expect(first.body.errors).toBeUndefined();
  expect(first.body.extensions.cost).toEqual({
    requestedQueryCost: expected,
    actualQueryCost: actual,
    maximumQueryCost: t.config.graphql.maxCost,
    throttleStatus: {
      scope: 'USER',
      ...budget(),
      currentlyAvailable: budget().maximumAvailable - actual,
      fullInSeconds: limits(first).reset,
    },
  });
  expect(limits(first).reset).toBe(Math.ceil(actual / budget().restoreRate));
  expect(second.body.extensions.cost.throttleStatus.currentlyAvailable).toBe(
    limits(second).remaining,
  );
  expect(limits(second).remaining).toBe(budget().maximumAvailable - 2 * actual);
});

test('GraphQL answers over a WebSocket report cost and budget too', async () => {
  const who = await t.newAccount();
  const socket = new GraphQLSocket(await t.listen(), basicAuthorization(who));
  try {
    await socket.connected();
    const first = await socket.run('{ viewer { staff { id } } }');
    const second = await socket.run('{ viewer { staff { id } } }');
    expect(first.errors).toBeUndefined();
    const cost = (answer: typeof first) =>
      (answer as { extensions?: { cost?: Record<string, any> } }).extensions?.cost;
    expect(cost(first)).toMatchObject({
      requestedQueryCost: 2,
      throttleStatus: { scope: 'USER', ...budget() },
    });
    expect(cost(second)!.throttleStatus.currentlyAvailable).toBe(
      cost(first)!.throttleStatus.currentlyAvailable - 2,
    );
  } finally {
    await socket.dispose();
  }
});
