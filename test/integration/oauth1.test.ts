import { createHmac } from 'node:crypto';
import OAuth from 'oauth-1.0a';
import { readJson, submitApproval } from '../support/oauth-approval';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * The OAuth 1.0a provider driven by an off-the-shelf client library (oauth-1.0a), over real HTTP:
 * the three-legged flow, then signed calls to the JSON, XML and GraphQL interfaces.
 */
let t: TestApp;
let base: string;
let owner: Credentials & { ownerId: string };
let consumerKey: string;
let consumerSecret: string;

type Method = 'HMAC-SHA1' | 'HMAC-SHA256';
const consumer = (secret = consumerSecret, method: Method = 'HMAC-SHA1') =>
  new OAuth({
    consumer: { key: consumerKey, secret },
    signature_method: method,
    hash_function: (text, key) =>
      createHmac(method === 'HMAC-SHA1' ? 'sha1' : 'sha256', key)
        .update(text)
        .digest('base64'),
  });

interface TokenPair {
  key: string;
  secret: string;
}

/** Step 1: a request token, in the header scheme (oauth-1.0a puts oauth_callback in the header). */
async function requestToken(callback: string, method: Method = 'HMAC-SHA1'): Promise<TokenPair> {
  const url = `${base}/oauth/request_token`;
  const data = { oauth_callback: callback };
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      ...consumer(consumerSecret, method).toHeader(
        consumer(consumerSecret, method).authorize({ url, method: 'POST', data }),
      ),
    },
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(text);
  const body = new URLSearchParams(text);
  expect(body.get('oauth_callback_confirmed')).toBe('true');
  return { key: body.get('oauth_token')!, secret: body.get('oauth_token_secret')! };
}

/** Step 3 with the parameters in the query string (docs/authentication.md, "OAuth 1.0a"). */
async function accessToken(
  request: TokenPair,
  verifier: string,
  method: Method = 'HMAC-SHA1',
): Promise<Response> {
  const url = `${base}/oauth/access_token`;
  const data = { oauth_verifier: verifier };
  const signed = consumer(consumerSecret, method).authorize({ url, method: 'GET', data }, request);
  return fetch(
    `${url}?${new URLSearchParams(Object.entries({ ...signed, ...data }).map(([name, value]) => [name, String(value)] as [string, string]))}`,
  );
}

async function threeLegged(who: Credentials): Promise<TokenPair> {
  const request = await requestToken('oob');
  const page = await submitApproval(`${base}/oauth/authorize?oauth_token=${request.key}`, who);
  expect(page.status).toBe(200);
  const verifier = /<code id="verifier">([^<]+)<\/code>/.exec(await page.text())![1]!;
  const res = await accessToken(request, verifier);
  expect(res.status).toBe(200);
  const body = new URLSearchParams(await res.text());
  return { key: body.get('oauth_token')!, secret: body.get('oauth_token_secret')! };
}

/** A GET signed in the Authorization header, as oauth-1.0a builds it. */
function signedGet(url: string, token: TokenPair, oauth = consumer()) {
  return fetch(url, {
    headers: { ...oauth.toHeader(oauth.authorize({ url, method: 'GET' }, token)) },
  });
}

beforeAll(async () => {
  t = await startTestApp();
  base = await t.listen();
  owner = await t.newAccount();
  const registered = await t.gqlOk(
    owner,
    'mutation { registerOAuthClient(input: { name: "Invoicer <3", protocol: OAUTH1 }) { client { key confidential } secret } }',
  );
  consumerKey = registered.registerOAuthClient.client.key;
  consumerSecret = registered.registerOAuthClient.secret;
  await t
    .gqlOk(owner, 'mutation { createCompany(input: { name: "Acme" }) { company { id } } }')
    .then((d) =>
      t.gqlOk(
        owner,
        'mutation($c: ID!) { createProject(input: { name: "Signed", companyId: $c }) { project { id } } }',
        { c: d.createCompany.company.id },
      ),
    );
});
afterAll(() => t?.close());

test('three-legged flow with oob, then signed calls to the JSON, XML and GraphQL interfaces', async () => {
  const access = await threeLegged(owner);

  const json = await signedGet(`${base}/api/1/projects.json`, access);
  expect(json.status).toBe(200);
  expect((await readJson(json)).response.map((p: { name: string }) => p.name)).toEqual(['Signed']);

  const xml = await signedGet(`${base}/projects.xml`, access);
  expect(xml.status).toBe(200);
  expect(await xml.text()).toContain('<name>Signed</name>');

  const url = `${base}/graphql`;
  const oauth = consumer();
  const graphql = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...oauth.toHeader(oauth.authorize({ url, method: 'POST' }, access)),
    },
    body: JSON.stringify({ query: '{ viewer { staff { login } } }' }),
  });
  expect(await readJson(graphql)).toEqual({
    data: { viewer: { staff: { login: owner.login } } },
    extensions: { cost: expect.any(Object) },
  });
});

test('the query-string scheme authenticates JSONP, which ignores Authorization headers', async () => {
  const access = await threeLegged(owner);
  const url = `${base}/api/1/projects.jsonp?callback=show`;
  // authorize() echoes the URL's own parameters too; only the protocol ones are appended.
  const signed = Object.entries(consumer().authorize({ url, method: 'GET' }, access)).filter(
    ([name]) => name.startsWith('oauth_'),
  );
  const res = await fetch(
    `${url}&${new URLSearchParams(signed.map(([name, value]) => [name, String(value)] as [string, string]))}`,
  );
  if (res.status !== 200) throw new Error(await res.text());
  expect(await res.text()).toMatch(
    /^\/\*\*\/ typeof show === 'function' && show\(\{"response":\[\{.*"name":"Signed"/,
  );
});

test('a callback URL gets the verifier by redirect; HMAC-SHA256 works throughout', async () => {
  const request = await requestToken('https://app.example/back?from=tt', 'HMAC-SHA256');
  const approved = await submitApproval(
    `${base}/oauth/authorize?oauth_token=${request.key}`,
    owner,
  );
  expect(approved.status).toBe(303);
  const location = new URL(approved.headers.get('location')!);
  expect(`${location.origin}${location.pathname}`).toBe('https://app.example/back');
  expect(location.searchParams.get('from')).toBe('tt');
  expect(location.searchParams.get('oauth_token')).toBe(request.key);
  const res = await accessToken(
    request,
    location.searchParams.get('oauth_verifier')!,
    'HMAC-SHA256',
  );
  expect(res.status).toBe(200);
  const body = new URLSearchParams(await res.text());
  const access = { key: body.get('oauth_token')!, secret: body.get('oauth_token_secret')! };
  expect(
    (
      await signedGet(
        `${base}/api/1/projects.json`,
        access,
        consumer(consumerSecret, 'HMAC-SHA256'),
      )
    ).status,
  ).toBe(200);
});

test('a replayed nonce, a stale timestamp, a wrong signature and a revoked token each get 401', async () => {
  const access = await threeLegged(owner);
  const url = `${base}/api/1/projects.json`;
  const oauth = consumer();
  const header = oauth.toHeader(oauth.authorize({ url, method: 'GET' }, access));
  expect((await fetch(url, { headers: { ...header } })).status).toBe(200);

  const replayed = await fetch(url, { headers: { ...header } });
  expect(replayed.status).toBe(401);
  expect((await readJson(replayed)).error.message).toBe('oauth_nonce already used');

  const stale = consumer();
  stale.getTimeStamp = () => Math.floor(Date.now() / 1000) - 3600;
  const staleRes = await signedGet(url, access, stale);
  expect(staleRes.status).toBe(401);
  expect((await readJson(staleRes)).error.message).toMatch(/Stale or invalid oauth_timestamp/);

  const forged = await signedGet(url, access, consumer('not-the-secret'));
  expect(forged.status).toBe(401);
  expect((await readJson(forged)).error.message).toBe('Invalid OAuth signature');

  const wrongToken = await signedGet(url, { key: access.key, secret: 'guessed' });
  expect(wrongToken.status).toBe(401);

  expect((await signedGet(url, access)).status).toBe(200);
  const listed = await t.gqlOk(owner, '{ oauthAuthorizations { clientKey clientName protocol } }');
  expect(listed.oauthAuthorizations).toEqual([
    { clientKey: consumerKey, clientName: 'Invoicer <3', protocol: 'OAUTH1' },
  ]);
  await t.gqlOk(
    owner,
    'mutation($k: String!) { revokeOAuthAuthorization(input: { clientKey: $k }) { revoked } }',
    {
      k: consumerKey,
    },
  );
  const revoked = await signedGet(url, access);
  expect(revoked.status).toBe(401);
  expect((await readJson(revoked)).error.message).toBe('Unknown OAuth consumer or token');
});

test('a request token is exchanged once, only with its verifier, and only after approval', async () => {
  const unapproved = await requestToken('oob');
  expect((await accessToken(unapproved, 'made-up')).status).toBe(401);

  const request = await requestToken('oob');
  const page = await submitApproval(`${base}/oauth/authorize?oauth_token=${request.key}`, owner);
  const verifier = /<code id="verifier">([^<]+)<\/code>/.exec(await page.text())![1]!;
  const wrong = await accessToken(request, `${verifier}x`);
  expect(wrong.status).toBe(401);
  expect(new URLSearchParams(await wrong.text()).get('oauth_problem_advice')).toBe(
    'Invalid oauth_verifier',
  );
  expect((await accessToken(request, verifier)).status).toBe(200);
  const again = await accessToken(request, verifier);
  expect(again.status).toBe(401);
  expect(new URLSearchParams(await again.text()).get('oauth_problem_advice')).toBe(
    'Unknown OAuth consumer or token',
  );
});

test('the approval page escapes the application name, refuses framing, and a wrong password shows it again', async () => {
  const request = await requestToken('oob');
  const page = await fetch(`${base}/oauth/authorize?oauth_token=${request.key}`);
  const html = await page.text();
  expect(html).toContain('Invoicer &#60;3');
  expect(html).not.toContain('Invoicer <3');
  expect(page.headers.get('x-frame-options')).toBe('DENY');
  expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");

  const wrong = await submitApproval(`${base}/oauth/authorize?oauth_token=${request.key}`, {
    login: owner.login,
    password: 'wrong-password',
  });
  expect(wrong.status).toBe(401);
  expect(await wrong.text()).toContain('Invalid login or password');

  const denied = await submitApproval(
    `${base}/oauth/authorize?oauth_token=${request.key}`,
    owner,
    'deny',
  );
  expect(denied.status).toBe(200);
  expect((await fetch(`${base}/oauth/authorize?oauth_token=${request.key}`)).status).toBe(400);
});

test('unsigned or malformed token requests are refused with the problem named', async () => {
  const res = await fetch(`${base}/oauth/request_token`, { method: 'POST' });
  expect(res.status).toBe(401);
  expect(new URLSearchParams(await res.text()).get('oauth_problem_advice')).toMatch(
    /^Missing OAuth parameters: oauth_consumer_key/,
  );
  const bad = await fetch(`${base}/api/1/projects.json`, {
    headers: { authorization: 'OAuth oauth_consumer_key=unquoted' },
  });
  expect(bad.status).toBe(401);
  const plaintext = await fetch(
    `${base}/api/1/projects.json?oauth_consumer_key=${consumerKey}&oauth_signature_method=PLAINTEXT&oauth_signature=x&oauth_timestamp=1&oauth_nonce=n&oauth_token=t`,
  );
  expect(plaintext.status).toBe(401);
  expect((await readJson(plaintext)).error.message).toMatch(/Unsupported oauth_signature_method/);
});
