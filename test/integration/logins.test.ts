import { randomUUID } from 'node:crypto';
import { onlyError, startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * Signing in finds a login's account in `logins` (migration 20261217000000-logins), which the
 * staff writes keep beside `users` in the same transaction: a login is unique across accounts in
 * any case, a renamed or deleted user's old login signs no one in and is free again, and two
 * accounts racing for one login get one user and one "is already taken", never a 500.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const VIEWER = '{ viewer { staff { id } } }';
const UPDATE =
  'mutation($id: ID!, $login: String!) { updateStaff(input: { staff: { id: $id }, patch: { login: $login } }) { staff { login } } }';
const CREATE =
  'mutation($login: String!) { createStaff(input: { login: $login, password: "staff-password" }) { staff { id } } }';
const DELETE = 'mutation($id: ID!) { deleteStaff(input: { staff: { id: $id } }) { staff { id } } }';

const fresh = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

/** Whom `who` signs in as: a user's id, or the HTTP status of the refusal. */
async function signsInAs(who: Credentials): Promise<string | number> {
  const res = await t.gql<{ viewer: { staff: { id: string } } }>(who, VIEWER);
  return res.data?.viewer?.staff.id ?? res.status;
}

/** `logins` against `users` for the given accounts: each user's lower-cased login, nothing else. */
async function loginsOf(accountIds: number[]) {
  const sql = t.db.orm.em.getConnection();
  const [fromUsers, fromLogins] = await Promise.all([
    sql.execute(
      `select lower(login) as login, account_id, id as user_id from users where account_id in (?) order by 1`,
      [accountIds],
    ),
    sql.execute(
      `select login, account_id, user_id from logins where account_id in (?) order by 1`,
      [accountIds],
    ),
  ]);
  return { fromUsers, fromLogins };
}

test('a renamed user signs in by the new login only, and the old one is free for anyone', async () => {
  const owner = await t.newAccount();
  const other = await t.newAccount();
  const member = await t.newStaff(owner);
  const renamed = fresh('Renamed');
  await t.gqlOk(owner, UPDATE, { id: member.id, login: renamed });

  expect(await signsInAs({ login: renamed.toLowerCase(), password: member.password })).toBe(
    member.id,
  );
  expect(await signsInAs(member)).toBe(401);
  const taker = await t.newStaff(other, { login: member.login });
  expect(await signsInAs(taker)).toBe(taker.id);
  // The new login is taken in every case, in every account.
  expect(onlyError(await t.gql(other, CREATE, { login: renamed.toUpperCase() }))).toEqual({
    code: 'VALIDATION_FAILED',
    fields: ['login'],
  });
  const { fromUsers, fromLogins } = await loginsOf([owner.accountId, other.accountId]);
  expect(fromLogins).toEqual(fromUsers);
});

test("a deleted user's login signs no one in, until a new user takes it", async () => {
  const owner = await t.newAccount();
  const member = await t.newStaff(owner);
  await t.gqlOk(owner, DELETE, { id: member.id });
  expect(await signsInAs(member)).toBe(401);

  const successor = await t.newStaff(owner, { login: member.login, password: member.password });
  expect(await signsInAs(member)).toBe(successor.id);
  const { fromUsers, fromLogins } = await loginsOf([owner.accountId]);
  expect(fromLogins).toEqual(fromUsers);
});

test('two accounts creating one login at once: one user, one "is already taken"', async () => {
  const [a, b] = await Promise.all([t.newAccount(), t.newAccount()]);
  for (let round = 0; round < 5; round += 1) {
    const login = fresh('race');
    const answers = await Promise.all([
      t.gql(a, CREATE, { login }),
      t.gql(b, CREATE, { login: login.toUpperCase() }),
    ]);
    const created = answers.filter((res) => !res.errors);
    expect(created).toHaveLength(1);
    const refused = answers.find((res) => res.errors)!;
    expect(onlyError(refused)).toEqual({ code: 'VALIDATION_FAILED', fields: ['login'] });
  }
  const { fromUsers, fromLogins } = await loginsOf([a.accountId, b.accountId]);
  expect(fromLogins).toEqual(fromUsers);
  expect(fromLogins).toHaveLength(2 + 5);
});
