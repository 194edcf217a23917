import { createHash, createHmac, randomBytes } from 'node:crypto';
import OAuth from 'oauth-1.0a';
import request from 'supertest';
import { readJson, submitApproval } from '../support/oauth-approval';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * Issue 20, finding 11: setting a user's password (a reset by the owner or a manager, or the user's
 * own change) ends every authorisation that user gave: OAuth 2.0 access and refresh tokens and
 * unexchanged codes, OAuth 1.0a access tokens and approved request tokens. Before, they kept
 * working for up to 14 days (1.0a tokens for ever). Other users' tokens, and changes that do not
 * touch the password, leave tokens alone.
 */
let t: TestApp;
let base: string;
let owner: Credentials & { ownerId: string };
let oauth2: { key: string; secret: string };
let oauth1: OAuth;
const REDIRECT = 'https://app.example/callback';

beforeAll(async () => {
  t = await startTestApp();
  base = await t.listen();
  owner = await t.newAccount();
  const two = await t.gqlOk(
    owner,
    `mutation { registerOAuthClient(input: { name: "Dashboard", protocol: OAUTH2, redirectUris: ["${REDIRECT}"] }) { client { key } secret } }`,
  );
  oauth2 = { key: two.registerOAuthClient.client.key, secret: two.registerOAuthClient.secret };
  const one = await t.gqlOk(
    owner,
    'mutation { registerOAuthClient(input: { name: "Invoicer", protocol: OAUTH1 }) { client { key } secret } }',
  );
  oauth1 = new OAuth({
    consumer: { key: one.registerOAuthClient.client.key, secret: one.registerOAuthClient.secret },
    signature_method: 'HMAC-SHA1',
    hash_function: (text, key) => createHmac('sha1', key).update(text).digest('base64'),
  });
});
afterAll(() => t?.close());

/** An authorization code of the OAuth 2.0 client for `who`, with its PKCE verifier. */
async function authorizationCode(who: Credentials) {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const url = `${base}/oauth/authorize?${new URLSearchParams({
    response_type: 'code',
    client_id: oauth2.key,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  })}`;
  const approved = await submitApproval(url, who);
  expect(approved.status).toBe(303);
  return { code: new URL(approved.headers.get('location')!).searchParams.get('code')!, verifier };
}

async function tokenEndpoint(grant: Record<string, string>) {
  const res = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...grant, client_id: oauth2.key, client_secret: oauth2.secret }),
  });
  return { status: res.status, body: await readJson(res) };
}

const exchange = ({ code, verifier }: { code: string; verifier: string }) =>
  tokenEndpoint({
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
  });

interface Pair {
  key: string;
  secret: string;
}

/** OAuth 1.0a: a request token approved by `who` (not yet exchanged), and its verifier. */
async function approvedRequestToken(who: Credentials): Promise<{ token: Pair; verifier: string }> {
  const url = `${base}/oauth/request_token`;
  const data = { oauth_callback: 'oob' };
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...oauth1.toHeader(oauth1.authorize({ url, method: 'POST', data })) },
  });
  const body = new URLSearchParams(await res.text());
  const token = { key: body.get('oauth_token')!, secret: body.get('oauth_token_secret')! };
  const page = await submitApproval(`${base}/oauth/authorize?oauth_token=${token.key}`, who);
  const verifier = /<code id="verifier">([^<]+)<\/code>/.exec(await page.text())![1]!;
  return { token, verifier };
}

async function oauth1Exchange(approved: { token: Pair; verifier: string }) {
  // The query-string scheme of the interface document.
  const url = `${base}/oauth/access_token`;
  const data = { oauth_verifier: approved.verifier };
  const signed = oauth1.authorize({ url, method: 'GET', data }, approved.token);
  const query = new URLSearchParams(
    Object.entries({ ...signed, ...data }).map(([k, v]) => [k, String(v)] as [string, string]),
  );
  const res = await fetch(`${url}?${query}`);
  const body = new URLSearchParams(await res.text());
  return {
    status: res.status,
    token: { key: body.get('oauth_token')!, secret: body.get('oauth_token_secret')! },
  };
}

/** What each kind of credential a user gave an application answers now. */
interface Grants {
  bearer: string;
  refresh: string;
  code: { code: string; verifier: string };
  oauth1Access: Pair;
  oauth1Approved: { token: Pair; verifier: string };
}

async function grantEverything(who: Credentials): Promise<Grants> {
  const issued = await exchange(await authorizationCode(who));
  expect(issued.status).toBe(200);
  const oauth1Access = await oauth1Exchange(await approvedRequestToken(who));
  expect(oauth1Access.status).toBe(200);
  return {
    bearer: issued.body.access_token,
    refresh: issued.body.refresh_token,
    code: await authorizationCode(who),
    oauth1Access: oauth1Access.token,
    oauth1Approved: await approvedRequestToken(who),
  };
}

const withBearer = async (token: string) =>
  (await fetch(`${base}/api/1/projects.json`, { headers: { authorization: `Bearer ${token}` } }))
    .status;

const withOAuth1 = async (token: Pair) => {
  const url = `${base}/api/1/projects.json`;
  return (
    await fetch(url, {
      headers: { ...oauth1.toHeader(oauth1.authorize({ url, method: 'GET' }, token)) },
    })
  ).status;
};

/** Uses every grant once (the code, the refresh token and the request token are spent). */
async function outcomes(grants: Grants) {
  return {
    bearer: await withBearer(grants.bearer),
    oauth1Access: await withOAuth1(grants.oauth1Access),
    refresh: (await tokenEndpoint({ grant_type: 'refresh_token', refresh_token: grants.refresh }))
      .status,
    code: (await exchange(grants.code)).status,
    oauth1Approved: (await oauth1Exchange(grants.oauth1Approved)).status,
  };
}

const WORKING = { bearer: 200, oauth1Access: 200, refresh: 200, code: 200, oauth1Approved: 200 };
const REVOKED = { bearer: 401, oauth1Access: 401, refresh: 400, code: 400, oauth1Approved: 401 };

test("the owner resetting a staff member's password (JSON PUT) revokes every token that user gave; another user's tokens keep working", async () => {
  const member = await t.newStaff(owner);
  const bystander = await t.newStaff(owner);
  const grants = await grantEverything(member);
  const others = await grantEverything(bystander);
  // Tokens work before.
  expect(await withBearer(grants.bearer)).toBe(200);
  expect(await withOAuth1(grants.oauth1Access)).toBe(200);

  const reset = await request(t.app.express)
    .put(`/api/1/staff/${member.id}.json`)
    .auth(owner.login, owner.password)
    .send({ staff: { password: 'a-brand-new-password' } });
  expect(reset.status).toBe(200);

  expect(await outcomes(grants)).toEqual(REVOKED);
  expect(await outcomes(others)).toEqual(WORKING);
  // The new password works, and so does a new authorisation given with it.
  const renewed = { login: member.login, password: 'a-brand-new-password' };
  expect(
    await withBearer((await exchange(await authorizationCode(renewed))).body.access_token),
  ).toBe(200);
});

test('a user changing their own password (GraphQL) also ends their authorisations', async () => {
  const member = await t.newStaff(owner);
  const grants = await grantEverything(member);
  await t.gqlOk(
    member,
    'mutation($id: ID!, $input: StaffInput!) { updateStaff(input: { staff: { id: $id }, patch: $input }) { staff { id } } }',
    { id: member.id, input: { password: 'my-own-new-password' } },
  );
  expect(await outcomes(grants)).toEqual(REVOKED);
});

test('an update that does not set the password leaves tokens alone', async () => {
  const member = await t.newStaff(owner);
  const grants = await grantEverything(member);
  const update = await request(t.app.express)
    .put(`/api/1/staff/${member.id}.json`)
    .auth(owner.login, owner.password)
    .send({ staff: { first_name: 'Renamed' } });
  expect(update.status).toBe(200);
  expect(await outcomes(grants)).toEqual(WORKING);
});

test('a password change that is refused revokes nothing', async () => {
  const member = await t.newStaff(owner);
  const colleague = await t.newStaff(owner);
  const grants = await grantEverything(member);
  // A staff member may not set a colleague's password.
  const refused = await request(t.app.express)
    .put(`/api/1/staff/${member.id}.json`)
    .auth(colleague.login, colleague.password)
    .send({ staff: { password: 'hijacked-password' } });
  expect(refused.status).toBeGreaterThanOrEqual(400);
  expect(await outcomes(grants)).toEqual(WORKING);
});
