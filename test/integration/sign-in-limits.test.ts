import request from 'supertest';
import { createApp } from '../../src/http/app';
import { submitApproval } from '../support/oauth-approval';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * Failed sign-ins are counted in PostgreSQL per login and client address, and per address. Small
 * limits here: 3 failures of one login, 5 of one address, in a 15-minute window.
 */
let t: TestApp;
let owner: Credentials;
beforeAll(async () => {
  t = await startTestApp({
    AUTH_FAILURES_PER_LOGIN: '3',
    AUTH_FAILURES_PER_ADDRESS: '5',
    AUTH_FAILURE_WINDOW_S: '900',
  });
  owner = await t.newAccount();
});
afterAll(() => t?.close());

const projects = (who: Credentials) =>
  request(t.app.express).get('/api/1/projects.json').auth(who.login, who.password);

test('the 4th failed sign-in of a login gets 429 with Retry-After, even with the right password; other logins still get through', async () => {
  const target = await t.newStaff(owner);
  for (let i = 0; i < 3; i++)
    expect((await projects({ login: target.login, password: 'wrong-password' })).status).toBe(401);

  const blocked = await projects({ login: target.login, password: 'wrong-password' });
  expect(blocked.status).toBe(429);
  expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(800);
  expect(blocked.body.error).toMatchObject({ code: 'TOO_MANY_REQUESTS', status: 429 });

  // The right password does not help while blocked, on any interface: guessing gains nothing.
  expect((await projects(target)).status).toBe(429);
  const graphql = await t.gql(target, '{ viewer { staff { login } } }');
  expect(graphql.status).toBe(429);
  expect(graphql.errors?.[0]?.extensions?.code).toBe('TOO_MANY_REQUESTS');
  const xml = await request(t.app.express).get('/projects.xml').auth(target.login, target.password);
  expect(xml.status).toBe(429);
  expect(xml.headers['retry-after']).toBeDefined();

  // A second app (another server process) on the same database knows of the block.
  const second = await createApp({ orm: t.db.orm, config: t.config });
  try {
    expect(
      (
        await request(second.express)
          .get('/api/1/projects.json')
          .auth(target.login, target.password)
      ).status,
    ).toBe(429);
  } finally {
    await second.stop();
  }

  // The owner, signing in from the same address, is not locked out by someone else's failures.
  expect((await projects(owner)).status).toBe(200);
});

test('the address limit stops one client trying many logins, but credentials verified before still work', async () => {
  // The owner's credentials were verified in the first test and are cached.
  const failures = [];
  for (let i = 0; i < 3; i++)
    failures.push((await projects({ login: `nobody-${i}`, password: 'guess-guess' })).status);
  expect(failures).toEqual([401, 401, 429]); // 3 failures in the first test + 2 here reach the address's 5
  expect((await projects({ login: 'someone-else', password: 'guess-guess' })).status).toBe(429);
  expect((await projects(owner)).status).toBe(200);

  // The approval page counts sign-ins the same way.
  const page = await submitApproval(
    `${await t.listen()}/oauth/authorize?response_type=token&client_id=${(await t.gqlOk(owner, 'mutation { registerOAuthClient(input: { name: "x", protocol: OAUTH2, confidential: false, redirectUris: ["https://cli.example/cb"] }) { client { key } } }')).registerOAuthClient.client.key}`,
    { login: 'another-guess', password: 'guess-guess' },
  );
  expect(page.status).toBe(429);
  expect(page.headers.get('retry-after')).toMatch(/^\d+$/);
});

test('the counts are rows in PostgreSQL, keyed without logins in clear', async () => {
  const rows = await t.db.orm.em
    .getConnection()
    .execute<{ key: string; points: number }[]>(`select key, points from rate_limits order by key`);
  expect(rows.map((r) => r.key.split(':')[0])).toEqual(
    expect.arrayContaining(['address', 'sign-in']),
  );
  expect(rows.find((r) => r.key.startsWith('address:'))!.points).toBeGreaterThanOrEqual(5);
  // Logins are not stored in clear in the keys.
  expect(rows.some((r) => r.key.includes('nobody'))).toBe(false);
});
