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
 * its restore rate. The budgets' clock is held still here and moved by hand, so no refill happens
 * between two requests unless a test says so: the numbers are exact on any machine.
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
const PAGE = 'query($n: Int) { projects(first: $n) { nodes { id company { id } } } }';

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
  const owner = await t.newAccount();
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
  const owner = await t.newAccount();
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
  const owner = await t.newAccount();
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
    const owner = await t.newAccount();
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
  // The facade asks for its largest page (a listing of projects costs 28,001): a budget that holds
  // one listing, with a limit per operation that lets it through.
  const config = {
    ...t.config,
    graphql: { ...t.config.graphql, maxCost: 30_000 },
    costBudgets: { perUser: 30_000, userRestoreRate: 1_000, perAccount: 0, accountRestoreRate: 1 },
  };
  const app = await createApp({ orm: t.db.orm, config, clock: () => now });
  try {
    const owner = await t.newAccount();
    const get = (path: string) => request(app.express).get(path).auth(owner.login, owner.password);
    const listed = await get('/api/1/projects.json');
    expect(listed.status).toBe(200);
    const { limit, remaining } = headersOf(listed);
    expect(limit).toBe(30_000);
    const listingCost = limit - remaining;
    expect(listingCost).toBeGreaterThan(remaining);

    const wait = Math.ceil((listingCost - remaining) / 1_000);
    for (const refused of [await get('/api/1/projects.json'), await get('/projects.xml')]) {
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe(String(wait));
      expect(headersOf(refused)).toMatchObject({ limit: 30_000, remaining });
      expect(refused.text).toContain(`try again in ${wait} seconds`);
    }
    now += wait * 1_000;
    expect((await get('/projects.xml')).status).toBe(200);
  } finally {
    await app.stop();
  }
});
