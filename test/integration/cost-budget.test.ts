import { parse } from 'graphql';
import request from 'supertest';
import { createApp, type App } from '../../src/http/app';
import { operationGuards } from '../../src/graphql/operation-guards';
import { createSchema } from '../../src/graphql/schema';
import { createServices } from '../../src/graphql/services';
import { createGeocoder } from '../../src/modules/companies';
import { createPasswordHasher } from '../../src/modules/staff';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * The cost budgets (issue 34, item 5): each user and each account has a leaky bucket of cost
 * points (Shopify's), which an operation's estimated cost comes out of and which fills up again at
 * its restore rate; once answered, what its root pages did not fill is given back (issue 36,
 * `actualQueryCost`). The budgets' clock is held still here and moved by hand, so no refill
 * happens between two requests unless a test says so: the numbers are exact on any machine.
 *
 * Small budgets: a user holds 300 points and gets 10 back a second; an account holds 500 and gets
 * 250 back a second (so an account's budget refills fast enough to leave a user's to be seen).
 */
const USER = { maximumAvailable: 300, restoreRate: 10 };
const ACCOUNT = { maximumAvailable: 500, restoreRate: 250 };

let now = Date.now();
let t: TestApp;
let cost: (query: string, variables?: Record<string, unknown>) => number;
beforeAll(async () => {
  t = await startTestApp(
    {
      GRAPHQL_MAX_COST: '100',
      GRAPHQL_COST_BUDGET_PER_USER: String(USER.maximumAvailable),
      GRAPHQL_COST_RESTORE_PER_USER: String(USER.restoreRate),
      GRAPHQL_COST_BUDGET_PER_ACCOUNT: String(ACCOUNT.maximumAvailable),
      GRAPHQL_COST_RESTORE_PER_ACCOUNT: String(ACCOUNT.restoreRate),
    },
    { clock: () => now },
  );
  const schema = await createSchema(
    createServices(createPasswordHasher(8), createGeocoder({ geocoder: { kind: 'none' } })),
  );
  const guards = operationGuards(schema, t.config);
  cost = (query, variables = {}) => guards.cost(parse(query), undefined, variables)!;
});
afterAll(() => t?.close());

const CHEAP = '{ viewer { staff { id } } }';
/**
 * An operation that costs what it is estimated to: its root page is full (the account's one
 * company, `budgetedAccount`) and a nested page is charged at its estimate.
 */
const PAGE =
  'query($n: Int) { companies(first: 1) { nodes { projects(first: $n) { nodes { id company { id } } } } } }';

/** A new account with the one company PAGE reads, its budgets full again. */
async function budgetedAccount() {
  const owner = await t.newAccount();
  const company = await t.create(owner, 'createCompany', {
    name: 'Budgeted',
    visibility: 'PUBLIC',
  });
  now += 60_000;
  return { ...owner, companyId: company.id };
}

function graphql(
  who: Credentials,
  query: string,
  variables: Record<string, unknown> = {},
  app: App = t.app,
) {
  return request(app.express)
    .post('/graphql')
    .auth(who.login, who.password)
    .send({ query, variables });
}

function throttleOf(res: request.Response) {
  return res.body.extensions.cost.throttleStatus as {
    scope: 'USER' | 'ACCOUNT';
    maximumAvailable: number;
    currentlyAvailable: number;
    restoreRate: number;
    fullInSeconds: number;
  };
}

function headersOf(res: request.Response) {
  return {
    limit: Number(res.headers['ratelimit-limit']),
    remaining: Number(res.headers['ratelimit-remaining']),
    reset: Number(res.headers['ratelimit-reset']),
  };
}

/** The page size whose query costs the most that fits in `points` (and GRAPHQL_MAX_COST). */
function pageCosting(points: number): { variables: { n: number }; cost: number } {
  let n = 1;
  while (cost(PAGE, { n: n + 1 }) <= Math.min(points, t.config.graphql.maxCost)) n += 1;
  return { variables: { n }, cost: cost(PAGE, { n }) };
}

test('two operations take exactly their costs from the budget, reported alike in extensions.cost and the RateLimit headers', async () => {
  const owner = await budgetedAccount();
  const cheap = cost(CHEAP);
  const page = { variables: { n: 20 }, cost: cost(PAGE, { n: 20 }) };
  expect(page.cost).toBeGreaterThan(20);

  const first = await graphql(owner, CHEAP);
  const second = await graphql(owner, PAGE, page.variables);
  for (const res of [first, second]) {
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
  }
  const left = USER.maximumAvailable - cheap - page.cost;
  expect(first.body.extensions.cost).toEqual({
    requestedQueryCost: cheap,
    actualQueryCost: cheap,
    maximumQueryCost: 100,
    throttleStatus: {
      scope: 'USER',
      ...USER,
      currentlyAvailable: USER.maximumAvailable - cheap,
      fullInSeconds: Math.ceil(cheap / USER.restoreRate),
    },
  });
  expect(throttleOf(second)).toEqual({
    scope: 'USER',
    ...USER,
    currentlyAvailable: left,
    fullInSeconds: Math.ceil((cheap + page.cost) / USER.restoreRate),
  });
  // The headers carry the same budget.
  for (const res of [first, second])
    expect(headersOf(res)).toEqual({
      limit: throttleOf(res).maximumAvailable,
      remaining: throttleOf(res).currentlyAvailable,
      reset: throttleOf(res).fullInSeconds,
    });

  // Three seconds later the budget has 30 points back (no more than it holds full).
  now += 3_000;
  const later = await graphql(owner, CHEAP);
  expect(throttleOf(later).currentlyAvailable).toBe(
    Math.min(USER.maximumAvailable, left + 3 * USER.restoreRate) - cheap,
  );
});

test('an operation costing more than is left is refused with 429, TOO_MANY_REQUESTS and how many seconds until enough has flowed back', async () => {
  const owner = await budgetedAccount();
  const big = pageCosting(100);
  // Spend the user's budget down to less than one more big operation.
  let available = USER.maximumAvailable;
  for (let sent = 0; available >= big.cost; sent += 1) {
    expect(sent).toBeLessThan(Math.ceil(USER.maximumAvailable / big.cost));
    const res = await graphql(owner, PAGE, big.variables);
    expect(res.status).toBe(200);
    available = throttleOf(res).currentlyAvailable;
  }
  expect(available).toBe(USER.maximumAvailable % big.cost);

  const refused = await graphql(owner, PAGE, big.variables);
  const wait = Math.ceil((big.cost - available) / USER.restoreRate);
  expect(refused.status).toBe(429);
  expect(refused.body.data).toBeUndefined();
  expect(refused.body.errors).toHaveLength(1);
  expect(refused.body.errors[0].extensions).toMatchObject({
    code: 'TOO_MANY_REQUESTS',
    retryAfterSeconds: wait,
  });
  expect(refused.body.errors[0].message).toContain(`try again in ${wait} seconds`);
  expect(refused.body.errors[0].message).toContain(`costs ${big.cost} points`);
  expect(refused.headers['retry-after']).toBe(String(wait));
  expect(throttleOf(refused)).toMatchObject({ scope: 'USER', currentlyAvailable: available });
  expect(headersOf(refused)).toMatchObject({ limit: USER.maximumAvailable, remaining: available });

  // Refused, it took nothing: a cheap operation still fits, out of the same points.
  const cheap = await graphql(owner, CHEAP);
  expect(throttleOf(cheap).currentlyAvailable).toBe(available - cost(CHEAP));
  // A second short of the wait it is still refused; after the wait it runs.
  now += (wait - 1) * 1_000;
  expect((await graphql(owner, PAGE, big.variables)).status).toBe(429);
  now += 1_000;
  const again = await graphql(owner, PAGE, big.variables);
  expect(again.status).toBe(200);
  expect(throttleOf(again).currentlyAvailable).toBe(
    available - cost(CHEAP) + wait * USER.restoreRate - big.cost,
  );
});

test("an account's budget is shared by its users, reported when it is the tighter, and a refusal by it gives the user's points back", async () => {
  const owner = await budgetedAccount();
  const staff = await t.newStaff(owner);
  // Creating the staff member cost the owner and the account something: a minute later both are
  // full again.
  now += 60_000;
  const big = pageCosting(100);
  // The owner spends their own budget; the account's goes down with it.
  for (let i = 0; i < Math.floor(USER.maximumAvailable / big.cost); i += 1)
    expect((await graphql(owner, PAGE, big.variables)).status).toBe(200);

  // The staff member's own budget is full, the account's is lower: the account's is reported.
  let staffLeft = USER.maximumAvailable;
  let accountLeft = ACCOUNT.maximumAvailable;
  for (let sent = 0; ; sent += 1) {
    expect(sent).toBeLessThan(Math.ceil(ACCOUNT.maximumAvailable / big.cost));
    const res = await graphql(staff, PAGE, big.variables);
    if (res.status === 429) {
      expect(res.body.errors[0].extensions).toMatchObject({
        code: 'TOO_MANY_REQUESTS',
        retryAfterSeconds: Math.ceil((big.cost - accountLeft) / ACCOUNT.restoreRate),
      });
      expect(res.body.errors[0].message).toContain("this account's budget");
      expect(throttleOf(res)).toEqual({
        scope: 'ACCOUNT',
        ...ACCOUNT,
        currentlyAvailable: accountLeft,
        fullInSeconds: Math.ceil((ACCOUNT.maximumAvailable - accountLeft) / ACCOUNT.restoreRate),
      });
      break;
    }
    expect(res.status).toBe(200);
    staffLeft -= big.cost;
    const status = throttleOf(res);
    expect(status.scope).toBe('ACCOUNT');
    expect(status.currentlyAvailable).toBeLessThan(staffLeft);
    accountLeft = status.currentlyAvailable;
  }
  expect(accountLeft).toBeLessThan(big.cost);
  expect(staffLeft).toBeGreaterThanOrEqual(big.cost);

  // Two seconds later the account's budget is full again and the staff member's own is the
  // tighter: it lost nothing to the refused operation.
  now += 2_000;
  const res = await graphql(staff, CHEAP);
  expect(throttleOf(res)).toEqual({
    scope: 'USER',
    ...USER,
    currentlyAvailable: staffLeft + 2 * USER.restoreRate - cost(CHEAP),
    fullInSeconds: Math.ceil(
      (USER.maximumAvailable - (staffLeft + 2 * USER.restoreRate - cost(CHEAP))) / USER.restoreRate,
    ),
  });
});

test('server processes share the budgets: concurrent operations through two apps take no more than a budget holds', async () => {
  const apps = [
    await createApp({ orm: t.db.orm, config: t.config, clock: () => now }),
    await createApp({ orm: t.db.orm, config: t.config, clock: () => now }),
  ];
  try {
    const owner = await budgetedAccount();
    const page = pageCosting(30);
    const fits = Math.floor(USER.maximumAvailable / page.cost);
    // Eight at once through each (an account's places in flight in a process).
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) => graphql(owner, PAGE, page.variables, apps[i % 2])),
    );
    const admitted = answers.filter((res) => res.status === 200);
    const refused = answers.filter((res) => res.status === 429);
    expect(admitted).toHaveLength(fits);
    expect(refused).toHaveLength(16 - fits);
    for (const res of refused) expect(res.body.errors[0].extensions.code).toBe('TOO_MANY_REQUESTS');
    const lowest = Math.min(...admitted.map((res) => throttleOf(res).currentlyAvailable));
    expect(lowest).toBe(USER.maximumAvailable - fits * page.cost);
  } finally {
    for (const app of apps) await app.stop();
  }
});

test('a budget must hold the largest operation allowed, or be 0 (off)', async () => {
  const { loadConfig } = await import('../../src/core/config');
  expect(() =>
    loadConfig({ GRAPHQL_MAX_COST: '1000', GRAPHQL_COST_BUDGET_PER_USER: '999' }),
  ).toThrow(/GRAPHQL_COST_BUDGET_PER_USER: must be 0 \(off\) or at least GRAPHQL_MAX_COST/);
  expect(loadConfig({ GRAPHQL_COST_BUDGET_PER_USER: '0' }).costBudgets.perUser).toBe(0);
  const defaults = loadConfig({});
  expect(defaults.costBudgets.perUser).toBeGreaterThanOrEqual(defaults.graphql.maxCost);
  expect(defaults.costBudgets.perAccount).toBeGreaterThanOrEqual(defaults.costBudgets.perUser);
});

test('the legacy interfaces take from the same budget: their RateLimit headers carry it, and a refusal is their 429 with Retry-After', async () => {
  // The facade asks for a whole list in one operation (5,000 projects would cost 140,001, which
  // this limit per operation refuses, so it asks again for fewer) and is charged for the rows it
  // read. Two full pages take the budget down past what the facade's page costs up front.
  const config = {
    ...t.config,
    graphql: { ...t.config.graphql, maxCost: 30_000 },
    costBudgets: { perUser: 30_000, userRestoreRate: 1_000, perAccount: 0, accountRestoreRate: 1 },
  };
  const app = await createApp({ orm: t.db.orm, config, clock: () => now });
  try {
    const owner = await budgetedAccount();
    const get = (path: string) => request(app.express).get(path).auth(owner.login, owner.password);
    const listed = await get('/api/1/projects.json');
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ count: 0, response: [] });
    const { limit, remaining } = headersOf(listed);
    expect(limit).toBe(30_000);
    // An empty list: its page and count, nothing of the thousand rows it could have held.
    expect(limit - remaining).toBeLessThanOrEqual(2);

    const big = { n: 4_900 };
    for (const _ of [1, 2]) expect((await graphql(owner, PAGE, big, app)).status).toBe(200);
    const left = remaining - 2 * cost(PAGE, big);
    for (const refused of [await get('/api/1/projects.json'), await get('/projects.xml')]) {
      expect(refused.status).toBe(429);
      const asked = Number(/costs (\d+) points/.exec(refused.text)?.[1]);
      expect(asked).toBeGreaterThan(left);
      expect(asked).toBeLessThanOrEqual(30_000);
      const wait = Math.ceil((asked - left) / 1_000);
      expect(refused.headers['retry-after']).toBe(String(wait));
      expect(headersOf(refused)).toMatchObject({ limit: 30_000, remaining: left });
      expect(refused.text).toContain(`try again in ${wait} seconds`);
    }
    now += 30_000;
    expect((await get('/projects.xml')).status).toBe(200);
  } finally {
    await app.stop();
  }
});

test("what an operation's root pages did not fill is given back once answered: actualQueryCost, the budget and the headers", async () => {
  const owner = await budgetedAccount();
  for (const name of ['One', 'Two', 'Three'])
    await t.create(owner, 'createProject', { name, companyId: owner.companyId });
  now += 60_000;
  const query = 'query($n: Int) { projects(first: $n) { nodes { id company { id } } } }';
  const asked = cost(query, { n: 20 });
  const perRow = cost(query, { n: 21 }) - asked;
  expect(perRow).toBeGreaterThan(0);

  const res = await graphql(owner, query, { n: 20 });
  expect(res.status).toBe(200);
  expect(res.body.data.projects.nodes).toHaveLength(3);
  const read = asked - 17 * perRow;
  expect(res.body.extensions.cost).toMatchObject({
    requestedQueryCost: asked,
    actualQueryCost: read,
  });
  expect(throttleOf(res).currentlyAvailable).toBe(USER.maximumAvailable - read);
  expect(headersOf(res).remaining).toBe(USER.maximumAvailable - read);

  // Given back with this process's next charge of the budget, in the same statement: another
  // process sees the points spent until then, never more than the budget holds.
  const other = await createApp({ orm: t.db.orm, config: t.config, clock: () => now });
  try {
    const elsewhere = await graphql(owner, CHEAP, {}, other);
    expect(throttleOf(elsewhere).currentlyAvailable).toBe(
      USER.maximumAvailable - asked - cost(CHEAP),
    );
  } finally {
    await other.stop();
  }
  const next = await graphql(owner, CHEAP);
  expect(throttleOf(next).currentlyAvailable).toBe(USER.maximumAvailable - read - 2 * cost(CHEAP));

  // A full page, or one the nested pages make, costs what it was estimated to.
  const full = await graphql(owner, query, { n: 3 });
  expect(full.body.extensions.cost.actualQueryCost).toBe(cost(query, { n: 3 }));
  const nested = await graphql(owner, PAGE, { n: 20 });
  expect(nested.body.extensions.cost.actualQueryCost).toBe(cost(PAGE, { n: 20 }));
  expect(throttleOf(nested).currentlyAvailable).toBe(
    USER.maximumAvailable - read - 2 * cost(CHEAP) - cost(query, { n: 3 }) - cost(PAGE, { n: 20 }),
  );

  // Up front the whole estimate must fit: the refund follows the answer.
  now += 60_000;
  const big = pageCosting(100);
  let left = USER.maximumAvailable;
  while (left >= big.cost) {
    const spent = await graphql(owner, PAGE, big.variables);
    left = throttleOf(spent).currentlyAvailable;
  }
  let most = 1;
  while (cost(query, { n: most + 1 }) <= 100) most += 1;
  expect(cost(query, { n: most })).toBeGreaterThan(left);
  const refused = await graphql(owner, query, { n: most });
  expect(refused.status).toBe(429);
  expect(throttleOf(refused).currentlyAvailable).toBe(left);
});
