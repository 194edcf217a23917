import { createHash, createHmac } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import OAuth from 'oauth-1.0a';
import request from 'supertest';
import { loadConfig } from '../../src/core/config';
import { openDatabase, type Database } from '../../src/db/database';
import { migrations } from '../../src/db/migrations';
import { createApp, type App } from '../../src/http/app';
import { hashSecret, OAuthProtocol } from '../../src/modules/oauth';
import { createPasswordHasher } from '../../src/modules/staff';
import { readJson, registerForEveryAccount, submitApproval } from '../support/oauth-approval';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';
import {
  createTestDatabaseTarget,
  testCitusWorkers,
  type TestDatabaseTarget,
} from '../support/test-database';

/**
 * Attack findings, item 3: an account cannot take a client id that other accounts' users then
 * trust. An account's application (registered with GraphQL, or with the CLI without
 * --every-account) serves that account's users only; to a user of another account it is exactly
 * an application that does not exist. Only the operator's applications (the CLI's --every-account)
 * serve every account, and only the operator chooses a key. Over real HTTP, on the real database.
 */
let t: TestApp;
let base: string;
type Owner = Awaited<ReturnType<TestApp['newAccount']>>;
let alpha: Owner;
let alphaStaff: Credentials & { legacyId: number };
let beta: Owner;
let betaStaff: Credentials & { legacyId: number };

const REDIRECT = 'https://alpha.example/callback';
const UNKNOWN_CLIENT = 'no-such-client-0123456789';
// A PKCE pair fixed once: the answers compared below must differ in nothing the test chose.
const VERIFIER = 'v'.repeat(43);
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');

/** Headers that differ between any two answers (the clock, the request's own id). */
const PER_REQUEST_HEADERS = new Set(['date', 'x-request-id']);

/** Everything of an answer a browser or client could tell apart, `id` (the key asked for) masked. */
async function answerOf(res: Response, id: string) {
  return {
    status: res.status,
    headers: Object.fromEntries(
      [...res.headers].filter(([name]) => !PER_REQUEST_HEADERS.has(name)).sort(),
    ),
    body: (await res.text()).replaceAll(id, '<id>'),
  };
}

/** Posts the approval form as the page does: the flow's fields, a sign-in and a decision. */
function postApproval(fields: Record<string, string>, who: Credentials): Promise<Response> {
  return fetch(`${base}/oauth/authorize`, {
    method: 'POST',
    body: new URLSearchParams({
      ...fields,
      login: who.login,
      password: who.password,
      decision: 'approve',
    }),
    redirect: 'manual',
  });
}

const codeFlow = (clientId: string) => ({
  response_type: 'code',
  client_id: clientId,
  redirect_uri: REDIRECT,
  state: 'xyz',
  code_challenge: CHALLENGE,
  code_challenge_method: 'S256',
});
const implicitFlow = (clientId: string) => ({
  response_type: 'token',
  client_id: clientId,
  redirect_uri: REDIRECT,
  state: 'xyz',
});
const authorizeUrl = (fields: Record<string, string>) =>
  `${base}/oauth/authorize?${new URLSearchParams(fields)}`;

async function register(
  who: Credentials,
  input: Record<string, unknown>,
): Promise<{ key: string; secret: string | null }> {
  const data = await t.gqlOk(
    who,
    'mutation($input: RegisterOAuthClientInput!) { registerOAuthClient(input: $input) { client { key } secret } }',
    { input },
  );
  return { key: data.registerOAuthClient.client.key, secret: data.registerOAuthClient.secret };
}

/** The user a bearer token acts for, or the refusal's status. */
async function bearerLogin(token: string): Promise<string | number> {
  const res = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: '{ viewer { staff { login } } }' }),
  });
  return res.status === 200 ? (await readJson(res)).data.viewer.staff.login : res.status;
}

/** The grants (codes and tokens of both protocols) a user holds. */
async function grantsOf(userId: number): Promise<number> {
  const [row] = await t.db.orm.em.getConnection().execute<{ n: number }[]>(
    `select (select count(*) from oauth2_codes where user_id = ?)
          + (select count(*) from oauth2_tokens where user_id = ?)
          + (select count(*) from oauth1_tokens where user_id = ?) as n`,
    [userId, userId, userId],
  );
  return Number(row!.n);
}

beforeAll(async () => {
  t = await startTestApp();
  base = await t.listen();
  alpha = await t.newAccount();
  alphaStaff = await t.newStaff(alpha, { type: 'STAFF' });
  beta = await t.newAccount();
  betaStaff = await t.newStaff(beta, { type: 'STAFF' });
});
afterAll(() => t?.close());

test("a user of another account gets the unknown-application answer for an account's client, byte for byte, and no grant", async () => {
  const dashboard = await register(alpha, {
    name: '88 Miles CLI',
    protocol: 'OAUTH2',
    redirectUris: [REDIRECT],
  });
  const desk = await register(alpha, {
    name: 'Desk CLI',
    protocol: 'OAUTH2',
    confidential: false,
    redirectUris: [REDIRECT],
  });
  for (const who of [beta, betaStaff]) {
    for (const flow of [codeFlow, implicitFlow]) {
      const client = flow === codeFlow ? dashboard.key : desk.key;
      const unknown = await answerOf(await postApproval(flow(UNKNOWN_CLIENT), who), UNKNOWN_CLIENT);
      expect(unknown.status).toBe(400);
      expect(unknown.body).toContain('Unknown application');
      // Posted directly, and as a person does it from the application's link.
      expect(await answerOf(await postApproval(flow(client), who), client)).toEqual(unknown);
      expect(await answerOf(await submitApproval(authorizeUrl(flow(client)), who), client)).toEqual(
        unknown,
      );
    }
  }
  expect(await grantsOf(beta.ownerLegacyId)).toBe(0);
  expect(await grantsOf(betaStaff.legacyId)).toBe(0);
});

test("the account's own users complete the code flow with PKCE, the token exchange, refresh and revocation", async () => {
  const app = await register(alpha, {
    name: 'Dashboard',
    protocol: 'OAUTH2',
    redirectUris: [REDIRECT],
  });
  const basic = `Basic ${Buffer.from(`${app.key}:${app.secret}`).toString('base64')}`;
  const token = (fields: Record<string, string>) =>
    fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { authorization: basic },
      body: new URLSearchParams(fields),
    });

  const approved = await submitApproval(authorizeUrl(codeFlow(app.key)), alphaStaff);
  expect(approved.status).toBe(303);
  const back = new URL(approved.headers.get('location')!);
  expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
  const issued = await token({
    grant_type: 'authorization_code',
    code: back.searchParams.get('code')!,
    redirect_uri: REDIRECT,
    code_verifier: VERIFIER,
  });
  expect(issued.status).toBe(200);
  const first = await readJson(issued);
  expect(await bearerLogin(first.access_token)).toBe(alphaStaff.login);

  const refreshed = await token({
    grant_type: 'refresh_token',
    refresh_token: first.refresh_token,
  });
  expect(refreshed.status).toBe(200);
  const second = await readJson(refreshed);
  expect(await bearerLogin(first.access_token)).toBe(401);
  expect(await bearerLogin(second.access_token)).toBe(alphaStaff.login);

  const revoked = await fetch(`${base}/oauth/revoke`, {
    method: 'POST',
    headers: { authorization: basic },
    body: new URLSearchParams({ token: second.refresh_token }),
  });
  expect(revoked.status).toBe(200);
  expect(await bearerLogin(second.access_token)).toBe(401);
});

test("the operator's application serves every account's users, and no account lists or revokes it", async () => {
  const operator = await registerForEveryAccount(t, alpha, {
    name: 'Service CLI',
    protocol: OAuthProtocol.OAUTH2,
    confidential: false,
    redirectUris: [REDIRECT],
  });
  for (const who of [alphaStaff, betaStaff]) {
    const approved = await submitApproval(authorizeUrl(implicitFlow(operator.key)), who);
    expect(approved.status).toBe(303);
    const fragment = new URLSearchParams(new URL(approved.headers.get('location')!).hash.slice(1));
    expect(await bearerLogin(fragment.get('access_token')!)).toBe(who.login);
  }
  // Filed under alpha's account, but the operator's: alpha's owner neither sees nor revokes it.
  const listed = await t.gqlOk(alpha, '{ oauthClients { key } }');
  expect(listed.oauthClients.map((c: { key: string }) => c.key)).not.toContain(operator.key);
  const [row] = await t.db.orm.em
    .getConnection()
    .execute<{ uuid: string }[]>('select uuid from oauth_clients where client_key = ?', [
      operator.key,
    ]);
  const revoke = await t.gql(
    alpha,
    'mutation($id: ID!) { revokeOAuthClient(input: { clientId: $id }) { revokedClientId } }',
    { id: row!.uuid },
  );
  expect(revoke.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
});

/** A 1.0a consumer's side of the dance: signed requests, for one consumer key and secret. */
function oauth1Consumer(key: string, secret: string) {
  const consumer = new OAuth({
    consumer: { key, secret },
    signature_method: 'HMAC-SHA1',
    hash_function: (text, k) => createHmac('sha1', k).update(text).digest('base64'),
  });
  const signed = (url: string, data: Record<string, string>, token?: OAuth.Token) =>
    fetch(url, {
      method: 'POST',
      headers: { ...consumer.toHeader(consumer.authorize({ url, method: 'POST', data }, token)) },
    });
  return {
    /** A request token, for an out-of-band verifier. */
    async requestToken(): Promise<OAuth.Token> {
      const requested = new URLSearchParams(
        await (await signed(`${base}/oauth/request_token`, { oauth_callback: 'oob' })).text(),
      );
      return { key: requested.get('oauth_token')!, secret: requested.get('oauth_token_secret')! };
    },
    /** The approval by `who`, the exchange, and a call with the access token: whose staff list it read. */
    async approveAndCall(requestToken: OAuth.Token, who: Credentials): Promise<string> {
      const approved = await submitApproval(
        `${base}/oauth/authorize?oauth_token=${requestToken.key}`,
        who,
      );
      expect(approved.status).toBe(200);
      const verifier = /<code id="verifier">([^<]+)<\/code>/.exec(await approved.text())![1]!;
      const exchanged = await signed(
        `${base}/oauth/access_token`,
        { oauth_verifier: verifier },
        requestToken,
      );
      expect(exchanged.status).toBe(200);
      const access = new URLSearchParams(await exchanged.text());
      const url = `${base}/api/1/staff.json`;
      const call = await fetch(url, {
        headers: {
          ...consumer.toHeader(
            consumer.authorize(
              { url, method: 'GET' },
              { key: access.get('oauth_token')!, secret: access.get('oauth_token_secret')! },
            ),
          ),
        },
      });
      expect(call.status).toBe(200);
      const staff = (await call.json()) as { response: { login: string }[] };
      return staff.response.map((s) => s.login).join(',');
    },
  };
}

test("OAuth 1.0a: an account's consumer is approved by its users only; to others its request token is unknown, byte for byte", async () => {
  const registered = await register(alpha, { name: 'Invoicer', protocol: 'OAUTH1' });
  const consumer = oauth1Consumer(registered.key, registered.secret!);
  const requestToken = await consumer.requestToken();

  const grantsBefore = await grantsOf(betaStaff.legacyId);
  const unknownToken = 'no-such-request-token-0123';
  const unknown = await answerOf(
    await postApproval({ oauth_token: unknownToken }, betaStaff),
    unknownToken,
  );
  expect(unknown.status).toBe(400);
  expect(unknown.body).toContain('Request expired');
  const page = `${base}/oauth/authorize?oauth_token=${requestToken.key}`;
  expect(await answerOf(await submitApproval(page, betaStaff), requestToken.key)).toEqual(unknown);
  expect(await grantsOf(betaStaff.legacyId)).toBe(grantsBefore);

  // The request token is still the account's to approve.
  expect(await consumer.approveAndCall(requestToken, alphaStaff)).toContain(alphaStaff.login);
});

test("OAuth 1.0a: the operator's consumer, filed under one account, is approved by another's user, whose account its tokens are filed under", async () => {
  const operator = await registerForEveryAccount(t, alpha, {
    name: 'Service 1.0a',
    protocol: OAuthProtocol.OAUTH1,
  });
  const consumer = oauth1Consumer(operator.key, operator.secret!);
  const requestToken = await consumer.requestToken();
  const accountOf = async (token: string) =>
    (
      await t.db.orm.em
        .getConnection()
        .execute<{ account_id: number }[]>(
          'select account_id from oauth1_tokens where token_key = ?',
          [token],
        )
    ).map((row) => row.account_id);
  // Until a user approves it, a request token is its consumer's account's.
  expect(await accountOf(requestToken.key)).toEqual([alpha.accountId]);

  const logins = await consumer.approveAndCall(requestToken, betaStaff);
  expect(logins).toContain(betaStaff.login);
  expect(logins).not.toContain(alphaStaff.login);
  const [access] = await t.db.orm.em
    .getConnection()
    .execute<{ account_id: number; user_id: number }[]>(
      "select account_id, user_id from oauth1_tokens where kind = 'access' and client_id = (select id from oauth_clients where client_key = ?)",
      [operator.key],
    );
  expect(access).toEqual({ account_id: beta.accountId, user_id: betaStaff.legacyId });
  // The request token is used up.
  expect(await accountOf(requestToken.key)).toEqual([]);
});

/**
 * The keys of stored grants (1.0a token keys, 2.0 token and code hashes) that `oauth_token_accounts`
 * does not file under their grant's account: OAuth would not find those grants.
 */
async function unfiledKeys(sql: ReturnType<EntityManager['getConnection']>) {
  const [{ grants }] = await sql.execute<{ grants: number }[]>(
    `select (select count(*) from oauth1_tokens) + (select count(*) from oauth2_tokens)
          + (select count(*) from oauth2_codes) as grants`,
  );
  const unfiled = await sql.execute(
    `select g.kind, g.key from (
       select 'oauth1' as kind, token_key as key, account_id from oauth1_tokens
       union all select 'access', access_token_hash, account_id from oauth2_tokens
       union all select 'refresh', refresh_token_hash, account_id from oauth2_tokens where refresh_token_hash is not null
       union all select 'code', code_hash, account_id from oauth2_codes) g
     left join oauth_token_accounts k on k.token = g.key and k.account_id = g.account_id
     where k.token is null`,
  );
  return { grants: Number(grants), unfiled };
}

test("every key of the grants the flows above left is filed under its grant's account", async () => {
  const { grants, unfiled } = await unfiledKeys(t.db.orm.em.getConnection());
  expect(grants).toBeGreaterThan(0);
  expect(unfiled).toEqual([]);
});

test("the database refuses any grant of an account's application to another account's user", async () => {
  const own = await register(alpha, { name: 'Own', protocol: 'OAUTH2', redirectUris: [REDIRECT] });
  const consumer = await register(alpha, { name: 'Own 1.0a', protocol: 'OAUTH1' });
  const shared = await registerForEveryAccount(t, alpha, {
    name: 'Shared',
    protocol: OAuthProtocol.OAUTH2,
  });
  const sql = t.db.orm.em.getConnection();
  const idOf = async (key: string) =>
    (
      await sql.execute<{ id: number }[]>('select id from oauth_clients where client_key = ?', [
        key,
      ])
    )[0]!.id;
  const code = (client: number) =>
    sql.execute(
      `insert into oauth2_codes (client_id, user_id, account_id, code_hash, expires_at)
       values (?, ?, ?, ?, now() + interval '1 minute')`,
      [client, betaStaff.legacyId, beta.accountId, hashSecret(`${client}-code`)],
    );
  const token = (client: number) =>
    sql.execute(
      `insert into oauth2_tokens (client_id, user_id, account_id, access_token_hash, access_expires_at)
       values (?, ?, ?, ?, now() + interval '1 hour')`,
      [client, betaStaff.legacyId, beta.accountId, hashSecret(`${client}-token`)],
    );
  // A request token approved: filed under the approving user's account (OAuth1Provider.approve).
  const approval = (client: number) =>
    sql.execute(
      `insert into oauth1_tokens (client_id, kind, token_key, token_secret, callback, expires_at, user_id, account_id)
       values (?, 'request', ?, 's', 'oob', now() + interval '10 minutes', ?, ?)`,
      [client, `${client}-request`, betaStaff.legacyId, beta.accountId],
    );
  const grantsBefore = await grantsOf(betaStaff.legacyId);
  // The rule's check violation. On Citus it is raised on a worker, and the coordinator passes its
  // code and message on without the constraint's name: the message names the rule there.
  const refused =
    testCitusWorkers().length > 0
      ? {
          code: '23514',
          message: expect.stringContaining(
            "an application registered by an account is authorised by that account's users only",
          ),
        }
      : { code: '23514', constraint: 'oauth_grant_within_client_accounts' };
  await expect(code(await idOf(own.key))).rejects.toMatchObject(refused);
  await expect(token(await idOf(own.key))).rejects.toMatchObject(refused);
  await expect(approval(await idOf(consumer.key))).rejects.toMatchObject(refused);
  // The operator's application may hold grants of any account's users.
  await code(await idOf(shared.key));
  await token(await idOf(shared.key));
  expect(await grantsOf(betaStaff.legacyId)).toBe(grantsBefore + 2);
});

describe('the migration of existing applications', () => {
  const OFFICIAL_ID = 'NjtVKz6Di3ccJjn2AGwZKhSxYBX4QHPJ5w1LrZOR';
  // The form of newKey(): 24 characters of base64url.
  const GENERATED_KEY = 'kVx0aB1cD2eF3gH4iJ5kL6mN';
  const CONSUMER_KEY = 'Zz9yY8xX7wW6vV5uU4tT3sS_';
  let target: TestDatabaseTarget;
  let db: Database;
  let app: App;
  let owners: Record<'alpha' | 'beta', { id: number; accountId: number; login: string }>;

  beforeAll(async () => {
    target = await createTestDatabaseTarget();
    const config = loadConfig({
      NODE_ENV: 'test',
      PASSWORD_HASH_MEMORY_KIB: '1024',
      ...target.env,
    });
    db = await openDatabase(config, { inMemory: target.inMemory, migrate: false });
    // The schema as it was before this change, with rows written under the old rule.
    const mine = migrations.findIndex((m) => m.name === '20261206000000-oauth-client-accounts');
    await db.orm.getMigrator().up({ to: migrations[mine - 1]!.name });
    // Rows as the code of that schema wrote them: today's account opening needs today's tables.
    const sql = db.orm.em.getConnection();
    const passwordHash = await createPasswordHasher(config.auth.hashMemoryKib).hash(
      'owner-password',
    );
    const open = async (login: string) => {
      const [account] = await sql.execute<{ id: number }[]>(
        'insert into accounts (name) values (?) returning id',
        [login],
      );
      const [owner] = await sql.execute<{ id: number }[]>(
        `insert into users (account_id, login, password_hash, email_address, first_name, last_name, type)
         values (?, ?, ?, ?, 'O', 'Owner', 'owner') returning id`,
        [account!.id, login, passwordHash, `${login}@example.com`],
      );
      return { id: owner!.id, accountId: account!.id, login };
    };
    owners = { alpha: await open('migrated-alpha'), beta: await open('migrated-beta') };
    const client = async (key: string, protocol: string) =>
      (
        await sql.execute<{ id: number }[]>(
          `insert into oauth_clients (uuid, account_id, created_by_id, name, protocol, client_key, secret, redirect_uris)
           values (gen_random_uuid(), ?, ?, ?, ?, ?, ?, ?) returning id`,
          [
            owners.alpha.accountId,
            owners.alpha.id,
            key,
            protocol,
            key,
            protocol === 'oauth1' ? 'consumer-secret' : null,
            `{${REDIRECT}}`,
          ],
        )
      )[0]!.id;
    const official = await client(OFFICIAL_ID, 'oauth2');
    const generated = await client(GENERATED_KEY, 'oauth2');
    const consumer = await client(CONSUMER_KEY, 'oauth1');
    const token = (clientId: number, who: keyof typeof owners, name: string) =>
      sql.execute(
        `insert into oauth2_tokens (client_id, user_id, account_id, access_token_hash, access_expires_at, refresh_token_hash, refresh_expires_at)
         values (?, ?, ?, ?, now() + interval '1 hour', ?, now() + interval '30 days')`,
        [
          clientId,
          owners[who].id,
          owners[who].accountId,
          hashSecret(`${name}-access`),
          hashSecret(`${name}-refresh`),
        ],
      );
    await token(official, 'beta', 'official-beta');
    await token(generated, 'alpha', 'generated-alpha');
    await token(generated, 'beta', 'generated-beta');
    await sql.execute(
      `insert into oauth2_codes (client_id, user_id, code_hash, expires_at) values (?, ?, ?, now() + interval '1 minute')`,
      [generated, owners.beta.id, hashSecret('generated-beta-code')],
    );
    await sql.execute(
      `insert into oauth1_tokens (client_id, kind, token_key, token_secret, user_id, account_id)
       values (?, 'access', 'consumer-beta', 's', ?, ?)`,
      [consumer, owners.beta.id, owners.beta.accountId],
    );

    await db.orm.getMigrator().up();
    app = await createApp({ orm: db.orm, config });
  });
  afterAll(async () => {
    await app?.stop();
    await db?.close();
    await target?.drop();
  });

  test('a chosen key keeps serving every account; a generated one serves its account, whose grants to others are gone', async () => {
    const sql = db.orm.em.getConnection();
    // The migration filed the keys of every grant it kept.
    const { grants, unfiled } = await unfiledKeys(sql);
    expect(grants).toBeGreaterThan(0);
    expect(unfiled).toEqual([]);
    expect(
      await sql.execute('select client_key, serves_every_account from oauth_clients order by id'),
    ).toEqual([
      { client_key: OFFICIAL_ID, serves_every_account: true },
      { client_key: GENERATED_KEY, serves_every_account: false },
      { client_key: CONSUMER_KEY, serves_every_account: false },
      // The web app's own client, registered by its migration under the first account.
      { client_key: 'timetrack-web', serves_every_account: true },
    ]);
    const http = request(app.express);
    const login = async (token: string) => {
      const res = await http
        .post('/graphql')
        .set('authorization', `Bearer ${token}`)
        .send({ query: '{ viewer { staff { login } } }' });
      return res.status === 200 ? res.body.data.viewer.staff.login : res.status;
    };
    expect(await login('official-beta-access')).toBe(owners.beta.login);
    expect(await login('generated-alpha-access')).toBe(owners.alpha.login);
    expect(await login('generated-beta-access')).toBe(401);
    expect(
      await sql.execute(
        `select (select count(*) from oauth2_codes)::int as codes,
                (select count(*) from oauth1_tokens)::int as oauth1`,
      ),
    ).toEqual([{ codes: 0, oauth1: 0 }]);

    // At the token endpoint the removed grant is as unknown as one never issued.
    const refresh = async (token: string) => {
      const res = await http
        .post('/oauth/token')
        .type('form')
        .send({ grant_type: 'refresh_token', client_id: GENERATED_KEY, refresh_token: token });
      return { status: res.status, body: res.body };
    };
    const neverIssued = await refresh('never-issued-refresh');
    expect(neverIssued.status).toBe(400);
    expect(await refresh('generated-beta-refresh')).toEqual(neverIssued);
    expect((await refresh('generated-alpha-refresh')).status).toBe(200);
  });
});

test("the web app's client: registered when the first account opened, for every account; once revoked, another account's opening leaves it so", async () => {
  const sql = t.db.orm.em.getConnection();
  const webClient = () =>
    sql.execute<
      {
        account_id: number;
        serves_every_account: boolean;
        redirect_uris: string[];
        secret_hash: string | null;
      }[]
    >(
      `select account_id, serves_every_account, redirect_uris, secret_hash from oauth_clients where client_key = 'timetrack-web'`,
    );
  expect(await webClient()).toEqual([
    {
      account_id: alpha.accountId,
      serves_every_account: true,
      redirect_uris: ['/'],
      secret_hash: null,
    },
  ]);
  const listed = await t.gqlOk(alpha, '{ oauthClients { key } }');
  expect(listed.oauthClients.map((c: { key: string }) => c.key)).not.toContain('timetrack-web');

  // What `timetrack oauth client revoke` does to it; then a new account opens.
  await sql.execute(`delete from oauth_clients where client_key = 'timetrack-web'`);
  await t.newAccount();
  expect(await webClient()).toEqual([]);
});
