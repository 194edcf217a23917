import request from 'supertest';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * Issue 20, finding 12: a disabled user's right password must be refused exactly like a wrong one,
 * on every interface that takes a password (Basic on JSON, XML and GraphQL, and the OAuth approval
 * page): same status, same body, same headers, and the same count against the sign-in limits.
 * A distinct answer ("This user is disabled") would confirm the password to whoever guessed it.
 */
let t: TestApp;
let owner: Credentials;
let oauthClient: string;
beforeAll(async () => {
  t = await startTestApp({ AUTH_FAILURES_PER_LOGIN: '4', AUTH_FAILURES_PER_ADDRESS: '1000' });
  owner = await t.newAccount();
  oauthClient = (
    await t.gqlOk(
      owner,
      'mutation { registerOAuthClient(input: { name: "x", protocol: OAUTH2, confidential: false, redirectUris: ["https://x.example/callback"] }) { client { key } } }',
    )
  ).registerOAuthClient.client.key;
});
afterAll(() => t?.close());

/**
 * Headers that differ between any two answers, left out of the comparison: the time, the request
 * id, and the rate-limit window's count and clock (each request, right password or wrong, takes
 * one from the same count; limits-visible.test.ts shows how they move).
 */
const VOLATILE = new Set([
  'date',
  'x-request-id',
  'etag',
  'ratelimit-remaining',
  'ratelimit-reset',
]);

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

type Interface = (who: Credentials) => Promise<Answer>;

const answer = (res: request.Response): Answer => ({
  status: res.status,
  headers: Object.fromEntries(
    Object.entries(res.headers as Record<string, string>).filter(([name]) => !VOLATILE.has(name)),
  ),
  body: res.text,
});

const INTERFACES: Record<string, Interface> = {
  JSON: async (who) =>
    answer(await request(t.app.express).get('/api/1/projects.json').auth(who.login, who.password)),
  XML: async (who) =>
    answer(await request(t.app.express).get('/projects.xml').auth(who.login, who.password)),
  GraphQL: async (who) =>
    answer(
      await request(t.app.express)
        .post('/graphql')
        .auth(who.login, who.password)
        .send({ query: '{ viewer { staff { login } } }' }),
    ),
  'OAuth approval page': async (who) =>
    answer(
      await request(t.app.express).post('/oauth/authorize').type('form').send({
        response_type: 'token',
        client_id: oauthClient,
        decision: 'approve',
        login: who.login,
        password: who.password,
      }),
    ),
};

async function disabledStaff(signedInBefore: boolean): Promise<Credentials> {
  const member = await t.newStaff(owner);
  // Signing in first puts the right password in the verification cache.
  if (signedInBefore) await t.gqlOk(member, '{ viewer { staff { id } } }');
  await t.gqlOk(
    owner,
    'mutation($id: ID!) { disableStaff(input: { staff: { id: $id } }) { staff { id } } }',
    { id: member.id },
  );
  return member;
}

describe.each(Object.entries(INTERFACES))('%s', (_name, send) => {
  test.each([
    ['never signed in', false],
    ['signed in before it was disabled', true],
  ])(
    'a disabled user (%s): the right password is answered exactly like a wrong one',
    async (_case, signedInBefore) => {
      const member = await disabledStaff(signedInBefore);
      const right = await send(member);
      const wrong = await send({ login: member.login, password: 'not-the-password' });
      expect(right.status).toBeGreaterThanOrEqual(400);
      expect(right).toEqual(wrong);
      expect(right.body).not.toMatch(/disabled/i);
    },
  );
});

test('the right password of a disabled user counts against the sign-in limits like a wrong one', async () => {
  const member = await disabledStaff(true);
  const statuses = [];
  for (let i = 0; i < 5; i++) statuses.push((await INTERFACES.JSON!(member)).status);
  // 4 failures per login: the fifth attempt is refused, as it would be after 4 wrong passwords.
  expect(statuses).toEqual([401, 401, 401, 401, 429]);
});
