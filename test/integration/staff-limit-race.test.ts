import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * The plan's staff maximum (`accounts.staff_max`, set by `account create --staff-max N`; see
 * docs/domain-rules.md "Plan limits") under concurrent activations. The account sits one below
 * its maximum and many requests each try to add an active user at once, over real HTTP: exactly
 * one gets the last place, every other one is refused with PAYMENT_REQUIRED (402 on the legacy
 * JSON facade), and a refused request writes nothing anywhere.
 */
let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await startTestApp();
  base = await t.listen();
});
afterAll(() => t?.close());

const STAFF_MAX = 5;
const CREATE_STAFF =
  'mutation($input: CreateStaffInput!) { createStaff(input: $input) { staff { id login active } } }';

const basic = (who: Credentials) =>
  `Basic ${Buffer.from(`${who.login}:${who.password}`).toString('base64')}`;

interface Answer {
  via: 'graphql' | 'json';
  /** The login it tried to create, when it was a create. */
  login?: string;
  status: number;
  body: any;
}

async function send(
  method: string,
  path: string,
  who: Credentials,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: basic(who) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return { status: res.status, body: text };
  }
}

const createOverJson = async (owner: Credentials, login: string): Promise<Answer> => ({
  via: 'json',
  login,
  ...(await send('POST', '/api/1/staff.json', owner, {
    staff: { login, password: 'race-password', first_name: 'Race', last_name: login },
  })),
});

const createOverGraphQL = async (owner: Credentials, login: string): Promise<Answer> => ({
  via: 'graphql',
  login,
  ...(await send('POST', '/graphql', owner, {
    query: CREATE_STAFF,
    variables: { input: { login, password: 'race-password', firstName: 'Race', lastName: login } },
  })),
});

/** Admitted (true) or refused for the plan (false); any other answer fails the test. */
function admitted(answer: Answer): boolean {
  expect(answer.status).toBeLessThan(500);
  if (answer.via === 'graphql') {
    expect(answer.status).toBe(200);
    if (!answer.body.errors) return true;
    expect(answer.body.errors.map((e: any) => e.extensions?.code)).toEqual(['PAYMENT_REQUIRED']);
    return false;
  }
  if (answer.status === 200) return true;
  expect({ status: answer.status, code: answer.body?.error?.code }).toEqual({
    status: 402,
    code: 'PAYMENT_REQUIRED',
  });
  return false;
}

/** Rows of the account in every table that has an account_id, by table, straight from SQL. */
async function rowsOfAccount(accountId: number): Promise<Record<string, number>> {
  const connection = t.db.orm.em.getConnection();
  const tables = await connection.execute<{ table_name: string }[]>(
    `select table_name from information_schema.columns
      where column_name = 'account_id' and table_schema = current_schema()
        and table_name in (select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE')
      order by table_name`,
  );
  const counts: Record<string, number> = {};
  for (const { table_name: table } of tables) {
    const [row] = await connection.execute(
      `select count(*)::int as n from "${table}" where account_id = ?`,
      [accountId],
    );
    counts[table] = row.n;
  }
  // The account's own row, in case anything wrote a second one or touched its limits.
  const [account] = await connection.execute(
    'select count(*)::int as n, max(staff_max) as staff_max from accounts where id = ?',
    [accountId],
  );
  counts.accounts = account.n;
  counts.accounts_staff_max = account.staff_max;
  return counts;
}

/** Users with any of these logins, in any account (the tenant filter does not apply to SQL). */
async function usersWithLogins(
  logins: string[],
): Promise<{ login: string; account_id: number; active: boolean }[]> {
  return t.db.orm.em
    .getConnection()
    .execute('select login, account_id, active from users where login in (?) order by login', [
      logins,
    ]);
}

async function activeStaffCount(accountId: number): Promise<number> {
  const [row] = await t.db.orm.em
    .getConnection()
    .execute(
      "select count(*)::int as n from users where account_id = ? and active and type <> 'owner'",
      [accountId],
    );
  return row.n;
}

/** An account with a staff maximum of STAFF_MAX and STAFF_MAX - 1 active staff: one place left. */
async function accountOneBelowMaximum() {
  const owner = await t.newAccount({ staffMax: STAFF_MAX });
  for (let i = 0; i < STAFF_MAX - 1; i++) await t.newStaff(owner);
  expect(await activeStaffCount(owner.accountId)).toBe(STAFF_MAX - 1);
  return owner;
}

test('50 concurrent creates over the JSON facade with one place left: one is created, 49 are 402, nothing else is written', async () => {
  const owner = await accountOneBelowMaximum();
  const before = await rowsOfAccount(owner.accountId);
  const logins = Array.from({ length: 50 }, (_, i) => `race_json_${owner.accountId}_${i}`);

  const answers = await Promise.all(logins.map((login) => createOverJson(owner, login)));

  const won = answers.filter(admitted);
  expect(won).toHaveLength(1);
  expect(answers.filter((a) => a.status === 402)).toHaveLength(49);
  const winner = won[0]!;
  expect(winner.body.response).toMatchObject({
    login: winner.login,
    active: 'true',
    type: 'staff',
  });

  // Exactly the winner's rows: its user, its login and (a paid plan) its owner's confirmation e-mail.
  const after = await rowsOfAccount(owner.accountId);
  expect(after).toEqual({
    ...before,
    users: before.users! + 1,
    logins: before.logins! + 1,
    outbox: before.outbox! + 1,
  });
  expect(await usersWithLogins(logins)).toEqual([
    { login: winner.login, account_id: owner.accountId, active: true },
  ]);
  expect(await activeStaffCount(owner.accountId)).toBe(STAFF_MAX);
  const [mail] = await t.db.orm.em
    .getConnection()
    .execute(
      "select payload->>'subject' as subject from outbox where account_id = ? order by id desc limit 1",
      [owner.accountId],
    );
  // The e-mail names the winner (its last name is its login).
  expect(mail.subject).toContain(winner.login);

  // The API agrees: the list shows the owner and the STAFF_MAX staff members.
  const listed = await send('GET', '/api/1/staff.json', owner);
  expect(listed.status).toBe(200);
  expect(listed.body.count).toBe(STAFF_MAX + 1);
  // And the account is full: one more is refused.
  expect((await createOverJson(owner, `race_json_${owner.accountId}_late`)).status).toBe(402);
});

test('50 concurrent creates mixed over GraphQL and the JSON facade: one is created, the rest PAYMENT_REQUIRED / 402', async () => {
  const owner = await accountOneBelowMaximum();
  const before = await rowsOfAccount(owner.accountId);
  const logins = Array.from({ length: 50 }, (_, i) => `race_mixed_${owner.accountId}_${i}`);

  const answers = await Promise.all(
    logins.map((login, i) =>
      i % 2 ? createOverGraphQL(owner, login) : createOverJson(owner, login),
    ),
  );

  const won = answers.filter(admitted);
  expect(won).toHaveLength(1);
  const refused = answers.filter((a) => !won.includes(a));
  expect(refused.filter((a) => a.via === 'json').every((a) => a.status === 402)).toBe(true);
  expect(
    refused
      .filter((a) => a.via === 'graphql')
      .every((a) => a.body.errors[0].extensions.code === 'PAYMENT_REQUIRED'),
  ).toBe(true);

  const after = await rowsOfAccount(owner.accountId);
  expect(after).toEqual({
    ...before,
    users: before.users! + 1,
    logins: before.logins! + 1,
    outbox: before.outbox! + 1,
  });
  expect((await usersWithLogins(logins)).map((u) => u.login)).toEqual([won[0]!.login]);
  expect(await activeStaffCount(owner.accountId)).toBe(STAFF_MAX);
});

test('every road to an active user at once (create, enable, update to active) with one place left: exactly one gets it', async () => {
  const owner = await accountOneBelowMaximum();
  // Parked users cost nothing until they are activated.
  const parked: { id: string; login: string }[] = [];
  for (let i = 0; i < 30; i++) parked.push(await t.newStaff(owner, { active: false }));
  const before = await rowsOfAccount(owner.accountId);
  const logins = Array.from({ length: 20 }, (_, i) => `race_roads_${owner.accountId}_${i}`);

  const answers = await Promise.all([
    ...logins.map((login, i) =>
      i % 2 ? createOverGraphQL(owner, login) : createOverJson(owner, login),
    ),
    ...parked.slice(0, 10).map(async (p): Promise<Answer> => ({
      via: 'json',
      ...(await send('POST', `/api/1/staff/${p.id}/enable.json`, owner, {})),
    })),
    ...parked.slice(10, 20).map(async (p): Promise<Answer> => ({
      via: 'json',
      ...(await send('PUT', `/api/1/staff/${p.id}.json`, owner, { staff: { active: 'true' } })),
    })),
    ...parked.slice(20).map(async (p): Promise<Answer> => ({
      via: 'graphql',
      ...(await send('POST', '/graphql', owner, {
        query:
          'mutation($id: ID!) { enableStaff(input: { staff: { id: $id } }) { staff { id active } } }',
        variables: { id: p.id },
      })),
    })),
  ]);

  expect(answers.filter(admitted)).toHaveLength(1);
  expect(await activeStaffCount(owner.accountId)).toBe(STAFF_MAX);
  const after = await rowsOfAccount(owner.accountId);
  const created = (await usersWithLogins(logins)).length;
  expect(created).toBeLessThanOrEqual(1);
  expect(after).toEqual({
    ...before,
    users: before.users! + created,
    logins: before.logins! + created,
    outbox: before.outbox! + 1,
  });
});
