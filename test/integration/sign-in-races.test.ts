import request from 'supertest';
import { createApp, type App } from '../../src/http/app';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * Issue 20, finding 2: sign-in attempts sent all at once must meet the limits exactly as attempts
 * sent one by one do. An attempt is counted before its password is checked, atomically in
 * PostgreSQL, so of N concurrent attempts exactly as many as the limit leaves are checked (401)
 * and the rest are refused unchecked (429), whatever the interleaving: the counts asserted below
 * do not depend on timing.
 *
 * Limits: 10 failures per login and address, 40 per address. Each test signs in from its own
 * address (X-Forwarded-For from a trusted loopback proxy), so the tests do not share counts.
 */
let t: TestApp;
let owner: Credentials;
beforeAll(async () => {
  t = await startTestApp({
    AUTH_FAILURES_PER_LOGIN: '10',
    AUTH_FAILURES_PER_ADDRESS: '40',
    AUTH_FAILURE_WINDOW_S: '900',
    TRUST_PROXY: 'loopback',
  });
  owner = await t.newAccount();
});
afterAll(() => t?.close());

const projects = (who: Credentials, from: string, app: App = t.app) =>
  request(app.express)
    .get('/api/1/projects.json')
    .set('X-Forwarded-For', from)
    .auth(who.login, who.password);

/** How many answers had each status, e.g. `{ 401: 10, 429: 20 }`. */
function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

const wrong = (login: string, i: number) => ({ login, password: `wrong-guess-${i}` });

test('30 different wrong passwords for one login at once: exactly 10 are checked (401), 20 get 429; the right password then gets 429 too', async () => {
  const target = await t.newStaff(owner);
  const from = '203.0.113.1';
  const answers = await Promise.all(
    Array.from({ length: 30 }, (_, i) => projects(wrong(target.login, i), from)),
  );
  expect(tally(answers.map((a) => a.status))).toEqual({ 401: 10, 429: 20 });
  const refused = answers.find((a) => a.status === 429)!;
  expect(refused.body.error).toMatchObject({ code: 'TOO_MANY_REQUESTS', status: 429 });
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

  // The right password after the limit is not checked either: guessing in parallel gained nothing.
  expect((await projects(target, from)).status).toBe(429);
  // The refused attempts did not count against the address: someone else there still signs in
  // (a user whose password has not been verified before, so the limits are consulted).
  expect((await projects(await t.newStaff(owner), from)).status).toBe(200);
});

test('299 wrong guesses at once, then the right password: only the limit is checked, and the right one is refused', async () => {
  const target = await t.newStaff(owner);
  const from = '203.0.113.2';
  const guesses = Array.from({ length: 299 }, (_, i) => projects(wrong(target.login, i), from));
  const answers = await Promise.all(guesses);
  const right = await projects(target, from);
  expect(tally(answers.map((a) => a.status))).toEqual({ 401: 10, 429: 289 });
  expect(right.status).toBe(429);
});

test('one address trying many logins at once: exactly the address limit (40) is checked', async () => {
  const from = '203.0.113.3';
  const answers = await Promise.all(
    Array.from({ length: 60 }, (_, i) => projects(wrong(`nobody-${i}`, i), from)),
  );
  expect(tally(answers.map((a) => a.status))).toEqual({ 401: 40, 429: 20 });
  // Now a right password not verified before is refused from that address until the window ends,
  // and accepted from another address.
  const someone = await t.newStaff(owner);
  expect((await projects(someone, from)).status).toBe(429);
  expect((await projects(someone, '203.0.113.4')).status).toBe(200);
});

test('guesses spread over two server processes on one database share one limit', async () => {
  const target = await t.newStaff(owner);
  const from = '203.0.113.5';
  const second = await createApp({ orm: t.db.orm, config: t.config });
  try {
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        projects(wrong(target.login, i), from, i % 2 === 0 ? t.app : second),
      ),
    );
    expect(tally(answers.map((a) => a.status))).toEqual({ 401: 10, 429: 20 });
  } finally {
    await second.stop();
  }
});

test('a client sending its right password many times at once on a cold cache is not refused', async () => {
  // Identical credentials in flight share one check, so they use one attempt, not 30.
  const target = await t.newStaff(owner);
  const from = '203.0.113.6';
  const answers = await Promise.all(Array.from({ length: 30 }, () => projects(target, from)));
  expect(tally(answers.map((a) => a.status))).toEqual({ 200: 30 });
});

test('the approval page: concurrent sign-ins meet the same limit', async () => {
  const target = await t.newStaff(owner);
  const from = '203.0.113.7';
  const { registerOAuthClient } = await t.gqlOk(
    owner,
    'mutation { registerOAuthClient(input: { name: "race", protocol: OAUTH2, confidential: false, redirectUris: ["https://race.example/callback"] }) { client { key } } }',
  );
  const submit = (password: string) =>
    request(t.app.express).post('/oauth/authorize').set('X-Forwarded-For', from).type('form').send({
      response_type: 'token',
      client_id: registerOAuthClient.client.key,
      decision: 'approve',
      login: target.login,
      password,
    });
  const answers = await Promise.all(Array.from({ length: 15 }, (_, i) => submit(`wrong-${i}`)));
  expect(tally(answers.map((a) => a.status))).toEqual({ 401: 10, 429: 5 });
  expect((await submit(target.password)).status).toBe(429);
});
