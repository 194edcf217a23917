import { RateLimiterPostgres } from 'rate-limiter-flexible';
import request from 'supertest';
import { createApp } from '../../src/http/app';
import { loadConfig } from '../../src/core/config';
import { TooManyRequestsError } from '../../src/core/errors';
import {
  basicCredentials,
  startTestApp,
  type Credentials,
  type TestApp,
} from '../support/test-app';

/**
 * Requests are counted in PostgreSQL per account and per client address. Small limits here: 5
 * requests of one account and 8 from one address a minute. Behind a trusted proxy (loopback) the
 * client address comes from X-Forwarded-For, so each test uses addresses of its own.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    RATE_LIMIT_PER_ACCOUNT: '5',
    RATE_LIMIT_PER_ADDRESS: '8',
    RATE_LIMIT_WINDOW_S: '60',
    TRUST_PROXY: 'loopback',
  });
});
afterAll(() => t?.close());

const from = (address: string) => ({
  graphql: (who: Credentials) =>
    request(t.app.express)
      .post('/graphql')
      .set('x-forwarded-for', address)
      .auth(who.login, who.password)
      .send({ query: '{ viewer { staff { login } } }' }),
  json: (who: Credentials) =>
    request(t.app.express)
      .get('/api/1/projects.json')
      .set('x-forwarded-for', address)
      .auth(who.login, who.password),
  xml: (who: Credentials) =>
    request(t.app.express)
      .get('/projects.xml')
      .set('x-forwarded-for', address)
      .auth(who.login, who.password),
});

test('the 6th request of an account in a minute gets 429 with Retry-After on every interface; other accounts go on', async () => {
  const [busy, other] = [await t.newAccount(), await t.newAccount()];
  const client = from('198.51.100.1');
  for (let i = 0; i < 5; i++) expect((await client.graphql(busy)).status).toBe(200);

  const refused = await client.graphql(busy);
  expect(refused.status).toBe(429);
  expect(refused.body.errors[0].extensions.code).toBe('TOO_MANY_REQUESTS');
  expect(refused.body.errors[0].message).toMatch(/Too many requests/);
  const wait = Number(refused.headers['retry-after']);
  expect(wait).toBeGreaterThanOrEqual(1);
  expect(wait).toBeLessThanOrEqual(60);

  // The account's count is one count, whichever interface or address the requests come from.
  const json = await from('198.51.100.2').json(busy);
  expect(json.status).toBe(429);
  expect(json.body.error).toMatchObject({ code: 'TOO_MANY_REQUESTS', status: 429 });
  expect(json.headers['retry-after']).toMatch(/^\d+$/);
  const xml = await from('198.51.100.3').xml(busy);
  expect(xml.status).toBe(429);
  expect(xml.text).toContain('User::Error');

  // Another account from the same address is not held back by this one.
  expect((await client.graphql(other)).status).toBe(200);
});

test('the 9th request from one address gets 429 whatever the account; other addresses go on', async () => {
  const accounts = [await t.newAccount(), await t.newAccount(), await t.newAccount()];
  const crowded = from('203.0.113.7');
  for (let i = 0; i < 8; i++) expect((await crowded.json(accounts[i % 3]!)).status).toBe(200);

  const refused = await crowded.json(accounts[0]!);
  expect(refused.status).toBe(429);
  expect(refused.headers['retry-after']).toMatch(/^\d+$/);
  // Refused before authentication: even an unknown login costs no password check.
  expect((await crowded.json({ login: 'nobody', password: 'x' })).status).toBe(429);

  // The same accounts from another address are within both their limits.
  expect((await from('203.0.113.8').json(accounts[1]!)).status).toBe(200);
});

test('failed sign-ins never use up an account: only verified credentials are counted against it', async () => {
  const owner = await t.newAccount();
  const attacker = from('192.0.2.66');
  for (let i = 0; i < 7; i++)
    expect((await attacker.graphql({ login: owner.login, password: 'guess' })).status).toBe(401);
  expect((await from('192.0.2.67').graphql(owner)).status).toBe(200);
});

test('a second app on the same database shares the counts, as a second server process would', async () => {
  const owner = await t.newAccount();
  const second = await createApp({ orm: t.db.orm, config: t.config });
  try {
    for (let i = 0; i < 5; i++) {
      const app = i % 2 === 0 ? t.app.express : second.express;
      expect(
        (
          await request(app)
            .get('/api/1/projects.json')
            .set('x-forwarded-for', `192.0.2.${i}`)
            .auth(owner.login, owner.password)
        ).status,
      ).toBe(200);
    }
    expect(
      (
        await request(second.express)
          .get('/api/1/projects.json')
          .set('x-forwarded-for', '192.0.2.9')
          .auth(owner.login, owner.password)
      ).status,
    ).toBe(429);
  } finally {
    await second.stop();
  }
});

test('processes reserve blocks of a large limit: together they admit exactly the limit, in far fewer writes', async () => {
  const owner = await t.newAccount();
  const config = {
    ...t.config,
    rateLimits: { perAccount: 200, perAddress: 0, windowSeconds: 3600 },
  };
  const apps = [
    await createApp({ orm: t.db.orm, config }),
    await createApp({ orm: t.db.orm, config }),
  ];
  try {
    const admitted = [0, 0];
    const remaining: number[] = [];
    const refused = [false, false];
    // The store's writes, counted as they pass (the library's own connection, not the ORM's).
    const writes = jest.spyOn(RateLimiterPostgres.prototype, 'consume');
    // Turn by turn, then on whichever still admits, until both refuse.
    for (let turn = 0; !(refused[0] && refused[1]); turn++) {
      const i = refused[turn % 2] ? (turn + 1) % 2 : turn % 2;
      try {
        const ctx = await apps[i]!.createContext(basicCredentials(owner));
        admitted[i]! += 1;
        if (i === 0) remaining.push(ctx.rateLimit!.remaining);
      } catch (error) {
        expect(error).toBeInstanceOf(TooManyRequestsError);
        refused[i] = true;
      }
    }
    const reservations = writes.mock.calls.length;
    writes.mockRestore();
    expect(admitted[0]! + admitted[1]!).toBe(200);
    expect(Math.min(...admitted)).toBeGreaterThan(50);
    // The first app's view of what is left only ever goes down.
    expect(remaining[0]).toBe(199);
    expect(remaining).toEqual([...remaining].sort((a, b) => b - a));
    // A write per block, not per request.
    expect(reservations).toBeGreaterThanOrEqual(2);
    expect(reservations).toBeLessThan(200 / 4);
  } finally {
    for (const app of apps) await app.stop();
  }
});

test('by default the limits are far above a busy integration, and 0 turns a limit off', () => {
  const defaults = loadConfig({}).rateLimits;
  expect(defaults.perAccount / defaults.windowSeconds).toBeGreaterThanOrEqual(500);
  expect(defaults.perAddress / defaults.windowSeconds).toBeGreaterThanOrEqual(1000);
  expect(loadConfig({ RATE_LIMIT_PER_ACCOUNT: '0' }).rateLimits.perAccount).toBe(0);
});
