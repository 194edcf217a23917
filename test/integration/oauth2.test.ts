import { createHash, randomBytes } from 'node:crypto';
import type { Express } from 'express';
import { AuthorizationCode } from 'simple-oauth2';
import request from 'supertest';
import { OAuthProtocol } from '../../src/modules/oauth';
import {
  hiddenFields,
  readJson,
  registerForEveryAccount,
  submitApproval,
} from '../support/oauth-approval';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * The OAuth 2.0 provider driven by an off-the-shelf client (simple-oauth2) over real HTTP:
 * authorization code with PKCE, refresh, revocation; and the implicit flow of the old CLI.
 */
let t: TestApp;
let base: string;
let owner: Awaited<ReturnType<TestApp['newAccount']>>;
const REDIRECT = 'https://spa.example/callback';
const CHOSEN_KEY_REFUSED =
  "is chosen by the service's operator only (timetrack oauth client create --every-account --client-id); leave it out and the application gets a generated key";

async function register(input: string): Promise<{ key: string; secret: string | null }> {
  const data = await t.gqlOk(
    owner,
    `mutation { registerOAuthClient(input: ${input}) { client { key } secret } }`,
  );
  return { key: data.registerOAuthClient.client.key, secret: data.registerOAuthClient.secret };
}

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

const bearer = (token: string, path: string, init: RequestInit = {}) =>
  fetch(`${base}${path}`, {
    ...init,
    headers: { ...init.headers, authorization: `Bearer ${token}` },
  });

const viewerLogin = async (token: string) => {
  const res = await bearer(token, '/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ viewer { staff { login } } }' }),
  });
  return { status: res.status, login: (await readJson(res)).data?.viewer.staff.login };
};

beforeAll(async () => {
  t = await startTestApp();
  base = await t.listen();
  owner = await t.newAccount();
});
afterAll(() => t?.close());

test('authorization code with PKCE, API calls on every interface, refresh with rotation, revocation', async () => {
  const app = await register(
    `{ name: "Dashboard", protocol: OAUTH2, redirectUris: ["${REDIRECT}"] }`,
  );
  const client = new AuthorizationCode({
    client: { id: app.key, secret: app.secret! },
    auth: {
      tokenHost: base,
      tokenPath: '/oauth/token',
      authorizePath: '/oauth/authorize',
      revokePath: '/oauth/revoke',
    },
  });
  const { verifier, challenge } = pkce();
  const authorizeUrl = client.authorizeURL({
    redirect_uri: REDIRECT,
    state: 'st@te 1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  } as never);

  const approved = await submitApproval(authorizeUrl, owner);
  expect(approved.status).toBe(303);
  const back = new URL(approved.headers.get('location')!);
  expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
  expect(back.searchParams.get('state')).toBe('st@te 1');
  const code = back.searchParams.get('code')!;

  // The code is bound to the PKCE verifier: without it, or with another, nothing is issued.
  await expect(
    client.getToken({ code, redirect_uri: REDIRECT, code_verifier: pkce().verifier } as never),
  ).rejects.toMatchObject({
    output: { statusCode: 400 },
  });
  const again = await submitApproval(
    client.authorizeURL({
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    } as never),
    owner,
  );
  const secondCode = new URL(again.headers.get('location')!).searchParams.get('code')!;
  const token = await client.getToken({
    code: secondCode,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
  } as never);
  expect(token.token).toMatchObject({
    token_type: 'Bearer',
    access_token: expect.any(String),
    refresh_token: expect.any(String),
  });
  expect(token.token.expires_in).toBeGreaterThan(3590);
  const access = token.token.access_token as string;

  // A code works once.
  await expect(
    client.getToken({ code: secondCode, redirect_uri: REDIRECT, code_verifier: verifier } as never),
  ).rejects.toMatchObject({ output: { statusCode: 400 } });

  expect(await viewerLogin(access)).toEqual({ status: 200, login: owner.login });
  expect((await bearer(access, '/api/1/projects.json')).status).toBe(200);
  expect((await bearer(access, '/projects.xml')).status).toBe(200);
  const jsonp = await fetch(`${base}/api/1/staff.jsonp?callback=cb&access_token=${access}`);
  expect(jsonp.status).toBe(200);
  expect(await jsonp.text()).toContain(owner.login);

  const refreshed = await token.refresh();
  const newAccess = refreshed.token.access_token as string;
  expect(newAccess).not.toBe(access);
  expect(await viewerLogin(newAccess)).toEqual({ status: 200, login: owner.login });
  // Rotation: the old pair is gone, and the old refresh token cannot be used again.
  expect((await viewerLogin(access)).status).toBe(401);
  await expect(token.refresh()).rejects.toMatchObject({ output: { statusCode: 400 } });

  const authorizations = await t.gqlOk(
    owner,
    '{ oauthAuthorizations { clientKey clientName protocol } }',
  );
  expect(authorizations.oauthAuthorizations).toEqual([
    { clientKey: app.key, clientName: 'Dashboard', protocol: 'OAUTH2' },
  ]);

  await refreshed.revoke('access_token');
  expect((await viewerLogin(newAccess)).status).toBe(401);
  await expect(refreshed.refresh()).rejects.toMatchObject({ output: { statusCode: 400 } });
});

test('the implicit flow lands on /oauth/authorized with a token usable as Bearer', async () => {
  // Registered with the service's own landing page, as the operator registers a CLI.
  const cli = await register(
    `{ name: "timetrack CLI", protocol: OAUTH2, confidential: false, redirectUris: ["${base}/oauth/authorized"] }`,
  );
  expect(cli.secret).toBeNull();
  const approved = await submitApproval(
    `${base}/oauth/authorize?response_type=token&client_id=${cli.key}&state=42`,
    owner,
  );
  expect(approved.status).toBe(303);
  const landing = new URL(approved.headers.get('location')!);
  expect(`${landing.origin}${landing.pathname}`).toBe(`${base}/oauth/authorized`);
  expect(landing.search).toBe('');
  const fragment = new URLSearchParams(landing.hash.slice(1));
  expect(fragment.get('token_type')).toBe('Bearer');
  expect(fragment.get('state')).toBe('42');
  expect(await viewerLogin(fragment.get('access_token')!)).toEqual({
    status: 200,
    login: owner.login,
  });

  const page = await fetch(landing);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-security-policy')).toMatch(
    /script-src 'sha256-[A-Za-z0-9+/=]+'/,
  );
  expect(await page.text()).toContain('Copy address');
});

describe("an application's own access-token lifetime (the CLI that has no refresh token)", () => {
  const YEAR = 31_557_600;
  /** Seconds from now to when the grant of `accessToken` expires, as stored. */
  const storedLifetime = async (accessToken: string) => {
    const [row] = await t.db.orm.em.getConnection().execute<{ access: number; refresh: number }[]>(
      `select extract(epoch from access_expires_at - now())::int as access,
              extract(epoch from refresh_expires_at - now())::int as refresh
         from oauth2_tokens where access_token_hash = encode(sha256(convert_to(?, 'UTF8')), 'hex')`,
      [accessToken],
    );
    return row;
  };

  test('the implicit flow issues a token for the lifetime the application was registered with', async () => {
    const data = await t.gqlOk(
      owner,
      `mutation { registerOAuthClient(input: { name: "Year-long CLI", protocol: OAUTH2, confidential: false,
          redirectUris: ["${base}/oauth/authorized"], accessTokenLifetimeSeconds: ${YEAR} }) {
        client { key accessTokenLifetimeSeconds } } }`,
    );
    const { key, accessTokenLifetimeSeconds } = data.registerOAuthClient.client;
    expect(accessTokenLifetimeSeconds).toBe(YEAR);
    const landing = new URL(
      (
        await submitApproval(
          `${base}/oauth/authorize?response_type=token&client_id=${key}&state=1`,
          owner,
        )
      ).headers.get('location')!,
    );
    const fragment = new URLSearchParams(landing.hash.slice(1));
    expect(fragment.get('expires_in')).toBe(String(YEAR));
    const token = fragment.get('access_token')!;
    // Stored as issued (a few seconds' slack for a busy machine between issuing and reading).
    expect((await storedLifetime(token))!.access).toBeGreaterThan(YEAR - 600);
    expect((await viewerLogin(token)).status).toBe(200);
  });

  test('the code flow honours it too, and a grant is kept while its access token lasts, after its refresh token expired', async () => {
    const twoDays = 2 * 24 * 60 * 60;
    const data = await t.gqlOk(
      owner,
      `mutation { registerOAuthClient(input: { name: "Two-day dashboard", protocol: OAUTH2,
          redirectUris: ["${REDIRECT}"], accessTokenLifetimeSeconds: ${twoDays} }) { client { key } secret } }`,
    );
    const client = new AuthorizationCode({
      client: { id: data.registerOAuthClient.client.key, secret: data.registerOAuthClient.secret },
      auth: { tokenHost: base, tokenPath: '/oauth/token', authorizePath: '/oauth/authorize' },
    });
    const tokenFor = async () => {
      const { verifier, challenge } = pkce();
      const approved = await submitApproval(
        client.authorizeURL({
          redirect_uri: REDIRECT,
          code_challenge: challenge,
          code_challenge_method: 'S256',
        } as never),
        owner,
      );
      const code = new URL(approved.headers.get('location')!).searchParams.get('code')!;
      return client.getToken({ code, redirect_uri: REDIRECT, code_verifier: verifier } as never);
    };
    // The library answers the seconds left when it writes the answer (a busy machine: some slack).
    const expectAboutTwoDays = (seconds: number) => {
      expect(seconds).toBeLessThanOrEqual(twoDays);
      expect(seconds).toBeGreaterThan(twoDays - 600);
    };
    const first = await tokenFor();
    expectAboutTwoDays(first.token.expires_in as number);
    expectAboutTwoDays((await first.refresh()).token.expires_in as number);

    // A grant whose refresh token has expired but whose access token has not is still in use:
    // issuing the next token (which clears expired grants) leaves it.
    const kept = await tokenFor();
    const access = kept.token.access_token as string;
    await t.db.orm.em.getConnection().execute(
      `update oauth2_tokens set refresh_expires_at = now() - interval '1 minute'
        where access_token_hash = encode(sha256(convert_to(?, 'UTF8')), 'hex')`,
      [access],
    );
    await tokenFor();
    expect(await storedLifetime(access)).toMatchObject({ refresh: expect.any(Number) });
    expect((await viewerLogin(access)).status).toBe(200);
  });

  test('a lifetime out of bounds is refused, naming the field and the bound', async () => {
    for (const [seconds, message] of [
      [59, 'must be at least 60 seconds'],
      [315_360_001, 'must be at most 315360000 seconds (10 years)'],
    ] as const) {
      const res = await t.gql(
        owner,
        `mutation { registerOAuthClient(input: { name: "Odd", protocol: OAUTH2,
            accessTokenLifetimeSeconds: ${seconds} }) { client { key } } }`,
      );
      expect(res.errors?.[0]?.extensions).toMatchObject({
        code: 'VALIDATION_FAILED',
        fieldErrors: [{ field: 'accessTokenLifetimeSeconds', message }],
      });
    }
    const oauth1 = await t.gql(
      owner,
      `mutation { registerOAuthClient(input: { name: "Signed", protocol: OAUTH1,
          accessTokenLifetimeSeconds: 3600 }) { client { key } } }`,
    );
    expect(oauth1.errors?.[0]?.extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      fieldErrors: [
        {
          field: 'accessTokenLifetimeSeconds',
          message: 'is for OAuth 2.0 clients: OAuth 1.0a tokens do not expire',
        },
      ],
    });
  });
});

test('without a state parameter the implicit fragment still ends with state, errors included', async () => {
  const cli = await register(
    `{ name: "stateless CLI", protocol: OAUTH2, confidential: false, redirectUris: ["${base}/oauth/authorized"] }`,
  );
  const url = `${base}/oauth/authorize?response_type=token&client_id=${cli.key}`;
  const approved = new URL((await submitApproval(url, owner)).headers.get('location')!);
  expect(approved.hash).toMatch(
    /^#access_token=[\w-]+&token_type=Bearer&expires_in=1209600&state=$/,
  );
  const denied = new URL((await submitApproval(url, owner, 'deny')).headers.get('location')!);
  expect(denied.hash).toMatch(/^#error=access_denied&error_description=[^&]+&state=$/);
  // A code-flow redirect is a query, where an absent state stays absent (RFC 6749 §4.1.2).
  const spa = await register(
    `{ name: "stateless SPA", protocol: OAUTH2, redirectUris: ["${REDIRECT}"] }`,
  );
  const code = new URL(
    (
      await submitApproval(`${base}/oauth/authorize?response_type=code&client_id=${spa.key}`, owner)
    ).headers.get('location')!,
  );
  expect([...code.searchParams.keys()]).toEqual(['code']);
});

test("a client id is the operator's to choose: registerOAuthClient refuses one, the operator's is unique across the service", async () => {
  // An account cannot choose a key, whatever its form and protocol: the field is named.
  const other = await t.newAccount();
  for (const [protocol, clientId] of [
    ['OAUTH2', 'NjtVKz6Di3ccJjn2AGwZKhSxYBX4QHPJ5w1LrZOR'],
    ['OAUTH1', 'my-consumer-key'],
    ['OAUTH2', 'short'],
  ]) {
    const res = await t.gql(
      other,
      `mutation($input: RegisterOAuthClientInput!) { registerOAuthClient(input: $input) { client { key } } }`,
      { input: { name: 'x', protocol, clientId } },
    );
    expect(res.errors).toEqual([
      expect.objectContaining({
        message: `Invalid oauthclient: clientId ${CHOSEN_KEY_REFUSED}`,
        extensions: expect.objectContaining({
          code: 'VALIDATION_FAILED',
          fieldErrors: [{ field: 'clientId', message: CHOSEN_KEY_REFUSED }],
        }),
      }),
    ]);
  }
  expect((await t.gqlOk(other, '{ oauthClients { key } }')).oauthClients).toEqual([]);

  // The operator chooses it with the CLI (here its service call): once in the whole service, in
  // the checked form; the account it is filed under neither lists nor revokes it.
  const chosen = await registerForEveryAccount(t, owner, {
    name: '88 Miles CLI',
    protocol: OAuthProtocol.OAUTH2,
    confidential: false,
    clientId: 'NjtVKz6Di3ccJjn2AGwZKhSxYBX4QHPJ5w1LrZOR',
  });
  expect(chosen).toEqual({ key: 'NjtVKz6Di3ccJjn2AGwZKhSxYBX4QHPJ5w1LrZOR', secret: null });
  const operatorRegisters = (clientId: string) =>
    registerForEveryAccount(t, other, { name: 'x', protocol: OAuthProtocol.OAUTH2, clientId });
  await expect(operatorRegisters('NjtVKz6Di3ccJjn2AGwZKhSxYBX4QHPJ5w1LrZOR')).rejects.toMatchObject(
    {
      code: 'VALIDATION_FAILED',
      details: { fieldErrors: [{ field: 'clientId', message: 'is already taken' }] },
    },
  );
  for (const bad of ['short', 'has space in it', 'a/b/c/d/e/f', 'x'.repeat(65)]) {
    await expect(operatorRegisters(bad)).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { fieldErrors: [{ field: 'clientId' }] },
    });
  }
  expect(
    (await t.gqlOk(owner, '{ oauthClients { key } }')).oauthClients.map(
      (c: { key: string }) => c.key,
    ),
  ).not.toContain(chosen.key);
});

test('a refused bearer token is challenged in the Bearer scheme (RFC 6750), a refused password in Basic', async () => {
  const invalidToken =
    /^Bearer realm="timetrack", error="invalid_token", error_description="[^"]+"$/;
  const graphql = {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ viewer { id } }' }),
  };
  for (const [path, init] of [
    ['/api/1/projects.json', {}],
    ['/projects.xml', {}],
    ['/graphql', graphql],
  ] as const) {
    const res = await bearer('no-such-token', path, init);
    expect([path, res.status]).toEqual([path, 401]);
    expect(res.headers.get('www-authenticate')).toMatch(invalidToken);
  }
  const inQuery = await fetch(`${base}/api/1/projects.json?access_token=no-such-token`);
  expect(inQuery.status).toBe(401);
  expect(inQuery.headers.get('www-authenticate')).toMatch(invalidToken);
  const malformed = await fetch(`${base}/api/1/projects.json`, {
    headers: { authorization: 'Bearer two words' },
  });
  expect(malformed.headers.get('www-authenticate')).toMatch(
    /^Bearer realm="timetrack", error="invalid_request"/,
  );
  const basic = await fetch(`${base}/api/1/projects.json`, {
    headers: { authorization: `Basic ${Buffer.from(`${owner.login}:wrong`).toString('base64')}` },
  });
  expect(basic.status).toBe(401);
  expect(basic.headers.get('www-authenticate')).toBe('Basic realm="timetrack", charset="UTF-8"');
});

test('a public client must use PKCE; a confidential one must send its secret', async () => {
  const spa = await register(
    `{ name: "SPA", protocol: OAUTH2, confidential: false, redirectUris: ["${REDIRECT}"] }`,
  );
  const page = await fetch(
    `${base}/oauth/authorize?response_type=code&client_id=${spa.key}&redirect_uri=${encodeURIComponent(REDIRECT)}`,
    { redirect: 'manual' },
  );
  expect(page.status).toBe(303);
  expect(new URL(page.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');

  // A public client whose redirect is the service's own /oauth/authorized: the code lands there,
  // and the exchange needs no redirect_uri because the authorization request named none.
  const cli = await register(
    `{ name: "CLI with PKCE", protocol: OAUTH2, confidential: false, redirectUris: ["${base}/oauth/authorized"] }`,
  );
  const pair = pkce();
  const landed = await submitApproval(
    `${base}/oauth/authorize?response_type=code&client_id=${cli.key}&code_challenge=${pair.challenge}&code_challenge_method=S256`,
    owner,
  );
  const landing = new URL(landed.headers.get('location')!);
  expect(landing.pathname).toBe('/oauth/authorized');
  const exchanged = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: landing.searchParams.get('code')!,
      client_id: cli.key,
      code_verifier: pair.verifier,
    }),
  });
  expect(exchanged.status).toBe(200);
  expect(await viewerLogin((await readJson(exchanged)).access_token)).toEqual({
    status: 200,
    login: owner.login,
  });

  const server = await register(
    `{ name: "Server app", protocol: OAUTH2, redirectUris: ["${REDIRECT}"] }`,
  );
  const { verifier, challenge } = pkce();
  const approved = await submitApproval(
    `${base}/oauth/authorize?response_type=code&client_id=${server.key}&code_challenge=${challenge}&code_challenge_method=S256`,
    owner,
  );
  const code = new URL(approved.headers.get('location')!).searchParams.get('code')!;
  const withoutSecret = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: server.key,
      code_verifier: verifier,
    }),
  });
  // RFC 6749 §5.2: 400 invalid_client when the client did not try the Authorization header.
  expect(withoutSecret.status).toBe(400);
  expect(await readJson(withoutSecret)).toMatchObject({ error: 'invalid_client' });
});

test('an unregistered redirect URI is never redirected to; a denial returns access_denied', async () => {
  const app = await register(`{ name: "Strict", protocol: OAUTH2, redirectUris: ["${REDIRECT}"] }`);
  const evil = await fetch(
    `${base}/oauth/authorize?response_type=code&client_id=${app.key}&redirect_uri=${encodeURIComponent('https://evil.example/cb')}`,
    {
      redirect: 'manual',
    },
  );
  expect(evil.status).toBe(400);
  expect(evil.headers.get('location')).toBeNull();
  expect((await fetch(`${base}/oauth/authorize?response_type=code&client_id=unknown`)).status).toBe(
    400,
  );

  const denied = await submitApproval(
    `${base}/oauth/authorize?response_type=code&client_id=${app.key}&state=s`,
    owner,
    'deny',
  );
  expect(denied.status).toBe(303);
  const back = new URL(denied.headers.get('location')!);
  expect(Object.fromEntries(back.searchParams)).toMatchObject({
    error: 'access_denied',
    state: 's',
  });
});

test('revoking an application ends every token it holds; bad bearer tokens are 401 everywhere', async () => {
  const app = await register(
    `{ name: "Temporary", protocol: OAUTH2, confidential: false, redirectUris: ["${REDIRECT}"] }`,
  );
  const approved = await submitApproval(
    `${base}/oauth/authorize?response_type=token&client_id=${app.key}`,
    owner,
  );
  const token = new URLSearchParams(new URL(approved.headers.get('location')!).hash.slice(1)).get(
    'access_token',
  )!;
  expect((await viewerLogin(token)).status).toBe(200);
  const listed = await t.gqlOk(owner, '{ oauthClients { id key } }');
  const id = listed.oauthClients.find((c: { key: string }) => c.key === app.key).id;
  await t.gqlOk(
    owner,
    'mutation($id: ID!) { revokeOAuthClient(input: { clientId: $id }) { client { key } } }',
    { id },
  );
  expect((await viewerLogin(token)).status).toBe(401);

  for (const path of ['/api/1/projects.json', '/projects.xml'])
    expect((await bearer('not-a-token', path)).status).toBe(401);
  expect((await fetch(`${base}/api/1/projects.jsonp?callback=cb&access_token=nope`)).status).toBe(
    401,
  );
});

test('only the owner registers and lists applications; a staff member manages only their own authorisations', async () => {
  const staff = await t.newStaff(owner);
  const refused = await t.gql(staff, '{ oauthClients { id } }');
  expect(refused.errors?.[0]?.extensions?.code).toBe('READ_DENIED');
  const create = await t.gql(
    staff,
    'mutation { registerOAuthClient(input: { name: "x", protocol: OAUTH2 }) { secret } }',
  );
  expect(create.errors?.[0]?.extensions?.code).toBe('CREATE_DENIED');
  const invalid = await t.gql(
    owner,
    'mutation { registerOAuthClient(input: { name: " ", protocol: OAUTH1, confidential: false, redirectUris: ["not a url"] }) { secret } }',
  );
  expect(invalid.errors?.[0]?.extensions).toMatchObject({
    code: 'VALIDATION_FAILED',
    fieldErrors: [
      { field: 'name', message: "can't be blank" },
      { field: 'redirectUris.0', message: 'must be an absolute URL without a fragment' },
    ],
  });
  expect((await t.gql(staff, '{ oauthAuthorizations { clientKey } }')).data).toEqual({
    oauthAuthorizations: [],
  });
  const none = await t.gql(
    staff,
    'mutation { revokeOAuthAuthorization(input: { clientKey: "nope" }) { revoked } }',
  );
  expect(none.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
});

test('expired grants and codes are cleared as new ones are issued; the endpoints answer 405 to other methods', async () => {
  const app = await register(
    `{ name: "Short-lived", protocol: OAUTH2, confidential: false, redirectUris: ["${REDIRECT}"] }`,
  );
  const approve = async () => {
    const res = await submitApproval(
      `${base}/oauth/authorize?response_type=token&client_id=${app.key}`,
      owner,
    );
    return new URLSearchParams(new URL(res.headers.get('location')!).hash.slice(1)).get(
      'access_token',
    )!;
  };
  const old = await approve();
  const sql = t.db.orm.em.getConnection();
  await sql.execute(
    `update oauth2_tokens set access_expires_at = now() - interval '1 day' where client_id = (select id from oauth_clients where client_key = ?)`,
    [app.key],
  );
  expect((await viewerLogin(old)).status).toBe(401);
  const fresh = await approve();
  expect((await viewerLogin(fresh)).status).toBe(200);
  const rows = await sql.execute(
    `select count(*)::int as n from oauth2_tokens where client_id = (select id from oauth_clients where client_key = ?)`,
    [app.key],
  );
  expect(rows[0].n).toBe(1);

  for (const path of ['/oauth/token', '/oauth/revoke']) {
    const res = await fetch(`${base}${path}`);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  }
});

test('malformed or oversized bodies on the OAuth endpoints are 4xx, never 500', async () => {
  const malformed = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=%zz',
  });
  expect(malformed.status).toBe(400);
  const huge = await fetch(`${base}/oauth/revoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `token=${'x'.repeat(t.config.bodyLimitBytes + 1)}`,
  });
  expect(huge.status).toBe(413);
  expect((await fetch(`${base}/oauth/authorize?client_id=%zz`)).status).toBe(400);
});

/**
 * Drives the approval page in-process, where the Host header can be forged as any client can
 * forge it: opens the page, then posts the form back with login, password and Allow.
 */
async function approveWithHost(app: Express, authorizeUrl: string, host: string, who: Credentials) {
  const page = await request(app).get(authorizeUrl).set('host', host);
  const form = new URLSearchParams([
    ...(page.status === 200
      ? hiddenFields(page.text)
      : new URL(authorizeUrl, 'http://x').searchParams),
    ['login', who.login],
    ['password', who.password],
    ['decision', 'approve'],
  ]);
  const decided = await request(app)
    .post('/oauth/authorize')
    .set('host', host)
    .type('form')
    .send(form.toString());
  return { page, decided };
}

async function tokensOf(db: TestApp, clientKey: string): Promise<number> {
  const [row] = await db.db.orm.em
    .getConnection()
    .execute(
      `select count(*)::int as n from oauth2_tokens where client_id = (select id from oauth_clients where client_key = ?)`,
      [clientKey],
    );
  return row.n;
}

describe('where tokens may be sent (issue 20, item 14)', () => {
  test('without PUBLIC_URL, a client with no registered redirect is refused, not sent to its Host', async () => {
    const cli = await register(
      '{ name: "Unregistered CLI", protocol: OAUTH2, confidential: false }',
    );
    const { page, decided } = await approveWithHost(
      t.app.express,
      `/oauth/authorize?response_type=token&client_id=${cli.key}&state=1`,
      'attacker.example',
      owner,
    );
    for (const res of [page, decided]) {
      expect(res.status).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.text).toContain('No redirect address');
    }
    expect(await tokensOf(t, cli.key)).toBe(0);
  });

  test('the implicit grant is for public clients: a confidential one gets unauthorized_client', async () => {
    const server = await register(
      `{ name: "Confidential", protocol: OAUTH2, redirectUris: ["${REDIRECT}"] }`,
    );
    const url = `/oauth/authorize?response_type=token&client_id=${server.key}&state=7`;
    const { page, decided } = await approveWithHost(t.app.express, url, 'localhost', owner);
    for (const res of [page, decided]) {
      expect(res.status).toBe(303);
      const back = new URL(res.headers.location!);
      expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
      expect(Object.fromEntries(new URLSearchParams(back.hash.slice(1)))).toEqual({
        error: 'unauthorized_client',
        error_description: expect.stringContaining('public clients'),
        state: '7',
      });
    }
    expect(await tokensOf(t, server.key)).toBe(0);
  });

  describe('with PUBLIC_URL', () => {
    let withPublicUrl: TestApp;
    let someone: Credentials;
    beforeAll(async () => {
      withPublicUrl = await startTestApp({ PUBLIC_URL: 'https://time.example' });
      someone = await withPublicUrl.newAccount();
    });
    afterAll(() => withPublicUrl?.close());

    test('a client with no registered redirect lands on PUBLIC_URL/oauth/authorized, whatever the Host', async () => {
      const data = await withPublicUrl.gqlOk(
        someone,
        'mutation { registerOAuthClient(input: { name: "CLI", protocol: OAUTH2, confidential: false }) { client { key } } }',
      );
      const key = data.registerOAuthClient.client.key;
      const { page, decided } = await approveWithHost(
        withPublicUrl.app.express,
        `/oauth/authorize?response_type=token&client_id=${key}`,
        'attacker.example',
        someone,
      );
      expect(page.status).toBe(200);
      expect(decided.status).toBe(303);
      expect(decided.headers.location).toMatch(
        /^https:\/\/time\.example\/oauth\/authorized#access_token=[\w-]+&token_type=Bearer&expires_in=\d+&state=$/,
      );
    });
  });
});
