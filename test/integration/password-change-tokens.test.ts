import { createHash, createHmac, randomBytes } from 'node:crypto';
import OAuth from 'oauth-1.0a';
import { Client } from 'pg';
import request from 'supertest';
import { CredentialCheck } from '../../src/auth/credential-check';
import { withLockHolder as withHeldLocks } from '../support/lock-holder';
import { testCitusWorkers } from '../support/test-database';
import { readJson, submitApproval } from '../support/oauth-approval';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * Issue 20, finding 11: setting a user's password (a reset by the owner or a manager, or the user's
 * own change) ends every authorisation that user gave: OAuth 2.0 access and refresh tokens and
 * unexchanged codes, OAuth 1.0a access tokens and approved request tokens. Before, they kept
 * working for up to 14 days (1.0a tokens for ever). Other users' tokens, and changes that do not
 * touch the password, leave tokens alone.
 *
 * The security review after it: the reset's DELETE missed grants written concurrently, by
 * statements that did not see its transaction (an approval that had verified the old password, a
 * refresh or a 1.0a exchange between reading the old grant and writing the new one). Each grant now
 * carries the credentials version of the password it was given with; a reset raises the user's, and
 * no lookup honours an older one. The races below are made deterministic with row locks held from a
 * session of the test's own (PostgreSQL only: the embedded database has one connection).
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
  // The OAuth 1.0a parameters in the query string (docs/authentication.md, "OAuth 1.0a").
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

/** The owner sets `who`'s password through the JSON interface, as in a reset. */
async function resetPassword(who: { id: string }, password = 'a-reset-password'): Promise<void> {
  const reset = await request(t.app.express)
    .put(`/api/1/staff/${who.id}.json`)
    .auth(owner.login, owner.password)
    .send({ staff: { password } });
  expect(reset.status).toBe(200);
}

/** A session holding rows in a transaction it has begun (test/support/lock-holder.ts). */
function withLockHolder(
  work: (holder: Client, lockWaiters: (n: number) => Promise<void>) => Promise<void>,
): Promise<void> {
  return withHeldLocks((t.config.database as { url: string }).url, async (holder, lockWaiters) => {
    await holder.query('begin');
    await work(holder, lockWaiters);
  });
}

/**
 * Holds the application's row: a grant's insert checks its foreign key to it (FOR KEY SHARE), so
 * the insert waits, not yet visible to anyone, while everything before it has run.
 */
async function holdClient(holder: Client, key: string): Promise<void> {
  await holder.query('select id from oauth_clients where client_key = $1 for update', [key]);
}

// The races are staged by holding the application's row, which the grant's insert checks its
// foreign key against. On Citus that row is a reference table's, copied to every node, and the
// insert checks the copy on its worker, which the holder's lock on the coordinator does not hold.
const onPostgres =
  process.env.TEST_DATABASE_URL && testCitusWorkers().length === 0 ? test : test.skip;

describe('grants issued while a password reset runs are refused', () => {
  onPostgres(
    'a refresh whose new pair is written after the reset deleted the old one: the new pair is refused',
    async () => {
      const member = await t.newStaff(owner);
      const issued = await exchange(await authorizationCode(member));
      expect(issued.status).toBe(200);
      let refreshed: Awaited<ReturnType<typeof tokenEndpoint>> | undefined;
      await withLockHolder(async (holder, lockWaiters) => {
        await holdClient(holder, oauth2.key);
        // The refresh has read the old pair and deleted it; its insert of the new pair waits.
        const refreshing = tokenEndpoint({
          grant_type: 'refresh_token',
          refresh_token: issued.body.refresh_token,
        });
        await lockWaiters(1);
        // The reset commits meanwhile; its DELETE cannot see the pair not yet written.
        await resetPassword(member);
        await holder.query('rollback');
        refreshed = await refreshing;
      });
      expect(refreshed!.status).toBe(200);
      expect(await withBearer(refreshed!.body.access_token)).toBe(401);
      const again = await tokenEndpoint({
        grant_type: 'refresh_token',
        refresh_token: refreshed!.body.refresh_token,
      });
      expect(again).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    },
  );

  onPostgres(
    'an OAuth 2.0 code issued by an approval that verified the old password before the reset is refused',
    async () => {
      const member = await t.newStaff(owner);
      let code: { code: string; verifier: string } | undefined;
      await withLockHolder(async (holder, lockWaiters) => {
        await holdClient(holder, oauth2.key);
        // The approval has signed the user in with the old password; its insert of the code waits.
        const approving = authorizationCode(member);
        await lockWaiters(1);
        await resetPassword(member);
        await holder.query('rollback');
        code = await approving;
      });
      expect(await exchange(code!)).toMatchObject({
        status: 400,
        body: { error: 'invalid_grant' },
      });
    },
  );

  onPostgres(
    'an OAuth 1.0a approval that verified the old password before the reset cannot be exchanged',
    async () => {
      const member = await t.newStaff(owner);
      const url = `${base}/oauth/request_token`;
      const data = { oauth_callback: 'oob' };
      const body = new URLSearchParams(
        await (
          await fetch(url, {
            method: 'POST',
            headers: { ...oauth1.toHeader(oauth1.authorize({ url, method: 'POST', data })) },
          })
        ).text(),
      );
      const token = { key: body.get('oauth_token')!, secret: body.get('oauth_token_secret')! };
      let verifier: string | undefined;
      await withLockHolder(async (holder, lockWaiters) => {
        // The request token's row: the approval binds it to the user with an UPDATE, which waits.
        await holder.query('select id from oauth1_tokens where token_key = $1 for update', [
          token.key,
        ]);
        const approving = submitApproval(
          `${base}/oauth/authorize?oauth_token=${token.key}`,
          member,
        );
        await lockWaiters(1);
        // The reset's DELETE passes the request token by: it has no user yet.
        await resetPassword(member);
        await holder.query('rollback');
        const page = await approving;
        expect(page.status).toBe(200);
        verifier = /<code id="verifier">([^<]+)<\/code>/.exec(await page.text())![1]!;
      });
      expect((await oauth1Exchange({ token, verifier: verifier! })).status).toBe(401);
    },
  );

  onPostgres(
    'an OAuth 1.0a exchange that holds the request token while the reset waits for it: the access token is refused',
    async () => {
      const member = await t.newStaff(owner);
      const approved = await approvedRequestToken(member);
      let exchanged: Awaited<ReturnType<typeof oauth1Exchange>> | undefined;
      await withLockHolder(async (holder, lockWaiters) => {
        await holdClient(holder, oauth1.consumer.key);
        // The exchange has deleted (and so locked) the request token; its insert of the access
        // token waits.
        const exchanging = oauth1Exchange(approved);
        await lockWaiters(1);
        // The reset's DELETE waits for the request token, and then finds it gone.
        const resetting = resetPassword(member);
        await lockWaiters(2);
        await holder.query('rollback');
        [exchanged] = await Promise.all([exchanging, resetting]);
      });
      expect(exchanged!.status).toBe(200);
      expect(await withOAuth1(exchanged!.token)).toBe(401);
    },
  );
});

test('a grant left with the credentials version of a password since changed is refused everywhere, as an unknown one is', async () => {
  const member = await t.newStaff(owner);
  const grants = await grantEverything(member);
  const db = t.db.orm.em.getConnection();
  const tables = ['oauth2_tokens', 'oauth2_codes', 'oauth1_tokens'];
  const rowsOf = async (table: string) =>
    db.execute<{ row: object }[]>(`select to_jsonb(g) as row from ${table} g where user_id = ?`, [
      member.legacyId,
    ]);
  const saved = await Promise.all(tables.map(rowsOf));
  // A reset through the XML interface deletes them.
  const reset = await request(t.app.express)
    .put(`/staff/${member.legacyId}.xml`)
    .auth(owner.login, owner.password)
    .type('application/xml')
    .send('<user><password>an-xml-reset-password</password></user>');
  expect(reset.status).toBe(200);
  // Written back as a grant issued concurrently with the reset survives its DELETE: unchanged.
  for (const [i, table] of tables.entries())
    for (const { row } of saved[i]!)
      await db.execute(
        `insert into ${table} select * from jsonb_populate_record(null::${table}, ?::jsonb)`,
        [JSON.stringify(row)],
      );
  expect((await Promise.all(tables.map(rowsOf))).map((rows) => rows.length)).toEqual(
    saved.map((rows) => rows.length),
  );

  const madeUp = {
    bearer: randomBytes(32).toString('base64url'),
    oauth1: { key: 'x', secret: 'y' },
  };
  /** Status, challenge and body of a request with each credential, on each interface. */
  const answers = async (bearer: string, oauth1Token: Pair) => {
    const call = async (path: string, init: RequestInit = {}) => {
      const url = `${base}${path}`;
      const method = init.method ?? 'GET';
      const withToken = async (headers: Record<string, string>) => {
        const res = await fetch(url, { ...init, headers: { ...init.headers, ...headers } });
        return {
          status: res.status,
          challenge: res.headers.get('www-authenticate'),
          body: await res.text(),
        };
      };
      return {
        bearer: await withToken({ authorization: `Bearer ${bearer}` }),
        oauth1: await withToken({
          ...oauth1.toHeader(oauth1.authorize({ url, method }, oauth1Token)),
        }),
      };
    };
    return {
      json: await call('/api/1/projects.json'),
      xml: await call('/projects.xml'),
      graphql: await call('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ viewer { staff { login } } }' }),
      }),
    };
  };
  const stale = await answers(grants.bearer, grants.oauth1Access);
  for (const answer of Object.values(stale)) {
    expect(answer.bearer.status).toBe(401);
    expect(answer.oauth1.status).toBe(401);
  }
  expect(stale).toEqual(await answers(madeUp.bearer, madeUp.oauth1));

  // The token endpoint and the 1.0a exchange.
  expect(
    await tokenEndpoint({ grant_type: 'refresh_token', refresh_token: grants.refresh }),
  ).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  expect(await exchange(grants.code)).toMatchObject({
    status: 400,
    body: { error: 'invalid_grant' },
  });
  expect((await oauth1Exchange(grants.oauth1Approved)).status).toBe(401);

  // A WebSocket's check again of its credentials.
  const check = new CredentialCheck(t.db.orm);
  expect(
    await check.current({
      scheme: 'oauth2',
      tokenHash: createHash('sha256').update(grants.bearer).digest('hex'),
    }),
  ).toBeUndefined();
  expect(
    await check.current({ scheme: 'oauth1', tokenKey: grants.oauth1Access.key }),
  ).toBeUndefined();

  // The new password's grants work.
  const renewed = { login: member.login, password: 'an-xml-reset-password' };
  expect(await outcomes(await grantEverything(renewed))).toEqual(WORKING);
});
