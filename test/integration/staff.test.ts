import { randomUUID } from 'node:crypto';
import {
  codes,
  onlyError,
  startTestApp,
  type Credentials,
  type TestApp,
} from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const STAFF_FIELDS =
  'id legacyId login firstName lastName emailAddress timeZone type active hourlyRateCents';

const CREATE = `mutation($input: CreateStaffInput!) { createStaff(input: $input) { staff { ${STAFF_FIELDS} } } }`;
const UPDATE = `mutation($ref: StaffRef!, $input: StaffInput!) {
  updateStaff(input: { staff: $ref, patch: $input }) { staff { ${STAFF_FIELDS} } }
}`;
const GET = `query($id: ID, $legacyId: Int) { staffMember(id: $id, legacyId: $legacyId) { ${STAFF_FIELDS} } }`;
const LIST = `query($filter: StaffFilter, $order: [StaffOrder!], $first: Int, $after: String) {
  staff(filter: $filter, order: $order, first: $first, after: $after) {
    totalCount
    pageInfo { hasNextPage endCursor }
    nodes { id legacyId login }
  }
}`;

/** The one error of a response: its code and the fields it names. */

function unique(prefix: string): string {
  return `${prefix}_${randomUUID().slice(0, 8)}`;
}

async function create(owner: Credentials, input: Record<string, unknown>) {
  const data = await t.gqlOk(owner, CREATE, { input: { password: 'staff-password', ...input } });
  return data.createStaff.staff as Record<string, unknown> & {
    id: string;
    legacyId: number;
    login: string;
  };
}

async function count(owner: Credentials, filter: Record<string, unknown> = {}): Promise<number> {
  const data = await t.gqlOk(owner, LIST, { filter });
  return data.staff.totalCount as number;
}

describe('create and read', () => {
  test('creates a user with defaults and reads it by uuid and by integer id', async () => {
    const owner = await t.newAccount();
    const login = unique('ann');
    const created = await create(owner, { login, firstName: 'Ann', lastName: 'Archer' });
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      legacyId: expect.any(Number),
      login,
      firstName: 'Ann',
      lastName: 'Archer',
      emailAddress: '',
      timeZone: 'UTC',
      type: 'STAFF',
      active: true,
      hourlyRateCents: null,
    });
    const byUuid = await t.gqlOk(owner, GET, { id: created.id });
    expect(byUuid.staffMember).toEqual(created);
    const byLegacy = await t.gqlOk(owner, GET, { legacyId: created.legacyId });
    expect(byLegacy.staffMember).toEqual(created);
  });

  test('creates a user with every field and a caller-supplied uuid', async () => {
    const owner = await t.newAccount();
    const id = randomUUID();
    const login = unique('bob');
    const created = await create(owner, {
      id,
      login,
      firstName: 'Bob',
      lastName: 'Baker',
      emailAddress: 'bob@example.com',
      timeZone: 'Europe/Berlin',
      type: 'MANAGER',
      active: true,
      hourlyRateCents: 4250,
    });
    expect(created).toEqual({
      id,
      legacyId: expect.any(Number),
      login,
      firstName: 'Bob',
      lastName: 'Baker',
      emailAddress: 'bob@example.com',
      timeZone: 'Europe/Berlin',
      type: 'MANAGER',
      active: true,
      hourlyRateCents: 4250,
    });
    const read = await t.gqlOk(owner, GET, { id });
    expect(read.staffMember).toEqual(created);
    // The new user can sign in with the password given.
    const me = await t.gqlOk(
      { login, password: 'staff-password' },
      '{ viewer { staff { id type } } }',
    );
    expect(me.viewer.staff).toEqual({ id, type: 'MANAGER' });
  });

  test('an upper-case supplied uuid is stored and found in lower case', async () => {
    const owner = await t.newAccount();
    const id = randomUUID();
    const created = await create(owner, { id: id.toUpperCase(), login: unique('upper') });
    expect(created.id).toBe(id);
    const read = await t.gqlOk(owner, GET, { id: id.toUpperCase() });
    expect(read.staffMember.id).toBe(id);
  });

  test('the list includes the owner', async () => {
    const owner = await t.newAccount();
    const data = await t.gqlOk(owner, LIST, {});
    expect(data.staff).toEqual({
      totalCount: 1,
      pageInfo: { hasNextPage: false, endCursor: expect.any(String) },
      nodes: [{ id: owner.ownerId, legacyId: owner.ownerLegacyId, login: owner.login }],
    });
  });
});

describe('list: filter, order, pages', () => {
  let owner: Credentials & { ownerId: string };
  const made: Record<string, { id: string; legacyId: number; login: string }> = {};
  const tag = randomUUID().slice(0, 6);

  beforeAll(async () => {
    owner = await t.newAccount();
    const rows = [
      {
        key: 'a',
        firstName: 'Alice',
        lastName: 'Smith',
        type: 'MANAGER',
        hourlyRateCents: 1000,
        timeZone: 'Europe/Berlin',
      },
      {
        key: 'b',
        firstName: 'Bruno',
        lastName: 'SMITHERS',
        type: 'STAFF',
        hourlyRateCents: 2000,
        timeZone: 'UTC',
      },
      {
        key: 'c',
        firstName: 'Carla',
        lastName: 'Jones',
        type: 'STAFF',
        hourlyRateCents: null,
        timeZone: 'UTC',
      },
      {
        key: 'd',
        firstName: 'Dmitri',
        lastName: 'Jones',
        type: 'STAFF',
        hourlyRateCents: 3000,
        timeZone: 'Asia/Tokyo',
        active: false,
      },
    ];
    for (const { key, ...rest } of rows) {
      made[key] = await create(owner, { login: `list_${tag}_${key}`, ...rest });
    }
  });

  const logins = (data: Record<string, { nodes: { login: string }[] }>) =>
    data.staff!.nodes.map((n) => n.login);
  const L = (key: string) => `list_${tag}_${key}`;

  test('eq and ne', async () => {
    expect(logins(await t.gqlOk(owner, LIST, { filter: { firstName: { eq: 'Carla' } } }))).toEqual([
      L('c'),
    ]);
    const ne = await t.gqlOk(owner, LIST, {
      filter: { type: { ne: 'STAFF' } },
      order: [{ field: 'LEGACY_ID' }],
    });
    expect(ne.staff.nodes.map((n: { id: string }) => n.id)).toEqual([owner.ownerId, made.a!.id]);
  });

  test('like is case-insensitive', async () => {
    const data = await t.gqlOk(owner, LIST, {
      filter: { lastName: { like: 'smith%' } },
      order: [{ field: 'LOGIN' }],
    });
    expect(logins(data)).toEqual([L('a'), L('b')]);
    const upper = await t.gqlOk(owner, LIST, {
      filter: { login: { like: `%${tag.toUpperCase()}_C` } },
    });
    expect(logins(upper)).toEqual([L('c')]);
  });

  test('lt, gt, in and isNull', async () => {
    const between = await t.gqlOk(owner, LIST, {
      filter: { hourlyRateCents: { gt: 1000, lt: 3000 } },
    });
    expect(logins(between)).toEqual([L('b')]);
    const inList = await t.gqlOk(owner, LIST, {
      filter: { timeZone: { in: ['Asia/Tokyo', 'Europe/Berlin'] } },
      order: [{ field: 'LOGIN' }],
    });
    expect(logins(inList)).toEqual([L('a'), L('d')]);
    const legacyIn = await t.gqlOk(owner, LIST, {
      filter: { legacyId: { in: [made.b!.legacyId, made.d!.legacyId] } },
      order: [{ field: 'LOGIN' }],
    });
    expect(logins(legacyIn)).toEqual([L('b'), L('d')]);
    const isNull = await t.gqlOk(owner, LIST, {
      filter: { hourlyRateCents: { isNull: true } },
      order: [{ field: 'LOGIN' }],
    });
    // The owner has no rate either.
    expect(isNull.staff.nodes.map((n: { id: string }) => n.id).sort()).toEqual(
      [owner.ownerId, made.c!.id].sort(),
    );
    const notNull = await t.gqlOk(owner, LIST, {
      filter: { hourlyRateCents: { isNull: false } },
      order: [{ field: 'LOGIN' }],
    });
    expect(logins(notNull)).toEqual([L('a'), L('b'), L('d')]);
    const typeIn = await t.gqlOk(owner, LIST, {
      filter: { type: { in: ['OWNER', 'MANAGER'] } },
      order: [{ field: 'TYPE', direction: 'DESC' }],
    });
    expect(typeIn.staff.totalCount).toBe(2);
    const ids = await t.gqlOk(owner, LIST, {
      filter: { id: { in: [made.a!.id, made.c!.id] } },
      order: [{ field: 'LOGIN' }],
    });
    expect(logins(ids)).toEqual([L('a'), L('c')]);
  });

  test('and, or, not', async () => {
    const and = await t.gqlOk(owner, LIST, {
      filter: { and: [{ lastName: { eq: 'Jones' } }, { active: { eq: true } }] },
    });
    expect(logins(and)).toEqual([L('c')]);
    const or = await t.gqlOk(owner, LIST, {
      filter: { or: [{ firstName: { eq: 'Alice' } }, { timeZone: { eq: 'Asia/Tokyo' } }] },
      order: [{ field: 'LOGIN' }],
    });
    expect(logins(or)).toEqual([L('a'), L('d')]);
    const not = await t.gqlOk(owner, LIST, {
      filter: {
        and: [{ login: { like: `list_${tag}_%` } }, { not: { lastName: { eq: 'Jones' } } }],
      },
      order: [{ field: 'LOGIN' }],
    });
    expect(logins(not)).toEqual([L('a'), L('b')]);
    const nested = await t.gqlOk(owner, LIST, {
      filter: {
        or: [
          { and: [{ type: { eq: 'STAFF' } }, { not: { active: { eq: true } } }] },
          { type: { eq: 'MANAGER' } },
        ],
      },
      order: [{ field: 'LOGIN' }],
    });
    expect(logins(nested)).toEqual([L('a'), L('d')]);
  });

  test('orders ascending and descending, with a tie-break on the id', async () => {
    const filter = { login: { like: `list_${tag}_%` } };
    const asc = await t.gqlOk(owner, LIST, {
      filter,
      order: [{ field: 'FIRST_NAME', direction: 'ASC' }],
    });
    expect(logins(asc)).toEqual([L('a'), L('b'), L('c'), L('d')]);
    const desc = await t.gqlOk(owner, LIST, {
      filter,
      order: [{ field: 'FIRST_NAME', direction: 'DESC' }],
    });
    expect(logins(desc)).toEqual([L('d'), L('c'), L('b'), L('a')]);
    const twoKeys = await t.gqlOk(owner, LIST, {
      filter,
      order: [
        { field: 'LAST_NAME', direction: 'ASC' },
        { field: 'FIRST_NAME', direction: 'DESC' },
      ],
    });
    // The Joneses come first, Dmitri before Carla; Smith and SMITHERS sort by the server's collation.
    expect(logins(twoKeys).slice(0, 2)).toEqual([L('d'), L('c')]);
    expect(logins(twoKeys).slice(2).sort()).toEqual([L('a'), L('b')]);
    const byRate = await t.gqlOk(owner, LIST, {
      filter: { and: [filter, { hourlyRateCents: { isNull: false } }] },
      order: [{ field: 'HOURLY_RATE_CENTS', direction: 'DESC' }],
    });
    expect(logins(byRate)).toEqual([L('d'), L('b'), L('a')]);
  });

  test('pages with first/after, totalCount and pageInfo', async () => {
    const filter = { login: { like: `list_${tag}_%` } };
    const order = [{ field: 'LOGIN', direction: 'ASC' }];
    const page1 = await t.gqlOk(owner, LIST, { filter, order, first: 3 });
    expect(page1.staff.totalCount).toBe(4);
    expect(logins(page1)).toEqual([L('a'), L('b'), L('c')]);
    expect(page1.staff.pageInfo.hasNextPage).toBe(true);
    expect(typeof page1.staff.pageInfo.endCursor).toBe('string');
    const page2 = await t.gqlOk(owner, LIST, {
      filter,
      order,
      first: 3,
      after: page1.staff.pageInfo.endCursor,
    });
    expect(page2.staff.totalCount).toBe(4);
    expect(logins(page2)).toEqual([L('d')]);
    expect(page2.staff.pageInfo.hasNextPage).toBe(false);
    const page3 = await t.gqlOk(owner, LIST, {
      filter,
      order,
      first: 3,
      after: page2.staff.pageInfo.endCursor,
    });
    expect(page3.staff).toEqual({
      totalCount: 4,
      pageInfo: { hasNextPage: false, endCursor: null },
      nodes: [],
    });
  });

  test('a bad page request or a malformed filter id is a validation error', async () => {
    expect(onlyError(await t.gql(owner, LIST, { first: -1 }))).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['first'],
    });
    expect(onlyError(await t.gql(owner, LIST, { after: 'not-a-cursor' }))).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['after'],
    });
    expect(onlyError(await t.gql(owner, LIST, { filter: { id: { eq: 'nope' } } }))).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['filter.id.eq'],
    });
    expect(onlyError(await t.gql(owner, LIST, { filter: { login: { eq: 'a\u0000b' } } }))).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['filter.login.eq'],
    });
  });
});

describe('update', () => {
  test('merges: omitted fields are kept, explicit null clears the rate', async () => {
    const owner = await t.newAccount();
    const login = unique('merge');
    const s = await create(owner, {
      login,
      firstName: 'Mia',
      lastName: 'Miller',
      emailAddress: 'mia@example.com',
      timeZone: 'Europe/Paris',
      hourlyRateCents: 5000,
    });
    const updated = await t.gqlOk(owner, UPDATE, {
      ref: { id: s.id },
      input: { lastName: 'Moore' },
    });
    expect(updated.updateStaff.staff).toEqual({ ...s, lastName: 'Moore' });
    const cleared = await t.gqlOk(owner, UPDATE, {
      ref: { legacyId: s.legacyId },
      input: { hourlyRateCents: null, type: 'MANAGER' },
    });
    expect(cleared.updateStaff.staff).toEqual({
      ...s,
      lastName: 'Moore',
      hourlyRateCents: null,
      type: 'MANAGER',
    });
    const read = await t.gqlOk(owner, GET, { id: s.id });
    expect(read.staffMember).toEqual({
      ...s,
      lastName: 'Moore',
      hourlyRateCents: null,
      type: 'MANAGER',
    });
  });

  test('null for a required field is refused and changes nothing', async () => {
    const owner = await t.newAccount();
    const s = await create(owner, { login: unique('req'), firstName: 'Kim' });
    const res = await t.gql(owner, UPDATE, {
      ref: { id: s.id },
      input: { firstName: null, timeZone: null },
    });
    const err = onlyError(res);
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(err.fields.sort()).toEqual(['firstName', 'timeZone']);
    expect((await t.gqlOk(owner, GET, { id: s.id })).staffMember).toEqual(s);
  });

  test('changing the login to one taken (in any case, in any account) is refused', async () => {
    const owner = await t.newAccount();
    const other = await t.newAccount();
    const s = await create(owner, { login: unique('ren') });
    const res = await t.gql(owner, UPDATE, {
      ref: { id: s.id },
      input: { login: other.login.toUpperCase() },
    });
    expect(onlyError(res)).toEqual({ code: 'VALIDATION_FAILED', fields: ['login'] });
    expect((await t.gqlOk(owner, GET, { id: s.id })).staffMember.login).toBe(s.login);
    // Changing only the case of one's own login is fine.
    const recased = await t.gqlOk(owner, UPDATE, {
      ref: { id: s.id },
      input: { login: s.login.toUpperCase() },
    });
    expect(recased.updateStaff.staff.login).toBe(s.login.toUpperCase());
  });

  test('password change: the old password fails at once, the new one works', async () => {
    const owner = await t.newAccount();
    const member = await t.newStaff(owner, { password: 'first-password' });
    // Warm the authentication cache with the old password.
    expect((await t.gqlOk(member, '{ viewer { staff { id } } }')).viewer.staff.id).toBe(member.id);
    await t.gqlOk(owner, UPDATE, {
      ref: { id: member.id },
      input: { password: 'second-password' },
    });
    const old = await t.gql(member, '{ viewer { staff { id } } }');
    expect(old.status).toBe(401);
    expect(codes(old)).toEqual(['UNAUTHENTICATED']);
    const fresh = await t.gqlOk(
      { login: member.login, password: 'second-password' },
      '{ viewer { staff { id } } }',
    );
    expect(fresh.viewer.staff.id).toBe(member.id);
  });

  test('a staff member may change their own password but not their type', async () => {
    const owner = await t.newAccount();
    const member = await t.newStaff(owner);
    const denied = await t.gql(member, UPDATE, {
      ref: { id: member.id },
      input: { type: 'MANAGER' },
    });
    expect(codes(denied)).toEqual(['UPDATE_DENIED']);
    await t.gqlOk(member, UPDATE, {
      ref: { id: member.id },
      input: { password: 'my-own-password' },
    });
    expect((await t.gql(member, '{ viewer { staff { id } } }')).status).toBe(401);
    const me = await t.gqlOk(
      { login: member.login, password: 'my-own-password' },
      '{ viewer { staff { type } } }',
    );
    expect(me.viewer.staff.type).toBe('STAFF');
  });

  test('a too-short password is refused and the old one keeps working', async () => {
    const owner = await t.newAccount();
    const member = await t.newStaff(owner);
    const res = await t.gql(owner, UPDATE, {
      ref: { id: member.id },
      input: { password: 'short' },
    });
    expect(onlyError(res)).toEqual({ code: 'VALIDATION_FAILED', fields: ['password'] });
    expect((await t.gql(member, '{ viewer { staff { id } } }')).status).toBe(200);
  });
});

describe('enable and disable', () => {
  test('a disabled user gets 401 on their next request; enabling lets them back in', async () => {
    const owner = await t.newAccount();
    const member = await t.newStaff(owner);
    expect((await t.gqlOk(member, '{ viewer { staff { active } } }')).viewer.staff.active).toBe(
      true,
    );
    const disabled = await t.gqlOk(
      owner,
      `mutation($id: ID!) { disableStaff(input: { staff: { id: $id } }) { staff { id active } } }`,
      { id: member.id },
    );
    expect(disabled.disableStaff.staff).toEqual({ id: member.id, active: false });
    const res = await t.gql(member, '{ viewer { staff { id } } }');
    expect(res.status).toBe(401);
    expect(codes(res)).toEqual(['UNAUTHENTICATED']);
    const enabled = await t.gqlOk(
      owner,
      `mutation($legacyId: Int!) { enableStaff(input: { staff: { legacyId: $legacyId } }) { staff { id active } } }`,
      {
        legacyId: member.legacyId,
      },
    );
    expect(enabled.enableStaff.staff).toEqual({ id: member.id, active: true });
    expect((await t.gqlOk(member, '{ viewer { staff { active } } }')).viewer.staff.active).toBe(
      true,
    );
  });

  test('updateStaff active:false also locks the user out', async () => {
    const owner = await t.newAccount();
    const member = await t.newStaff(owner);
    await t.gqlOk(owner, UPDATE, { ref: { id: member.id }, input: { active: false } });
    expect((await t.gql(member, '{ viewer { staff { id } } }')).status).toBe(401);
  });

  test('the owner cannot be disabled and cannot disable themselves', async () => {
    const owner = await t.newAccount();
    const res = await t.gql(
      owner,
      `mutation($id: ID!) { disableStaff(input: { staff: { id: $id } }) { staff { id } } }`,
      {
        id: owner.ownerId,
      },
    );
    expect(codes(res)).toEqual(['UPDATE_DENIED']);
    expect((await t.gqlOk(owner, GET, { id: owner.ownerId })).staffMember.active).toBe(true);
  });

  test('a staff member cannot disable another user', async () => {
    const owner = await t.newAccount();
    const a = await t.newStaff(owner);
    const b = await t.newStaff(owner);
    const res = await t.gql(
      a,
      `mutation($id: ID!) { disableStaff(input: { staff: { id: $id } }) { staff { id } } }`,
      { id: b.id },
    );
    expect(codes(res)).toEqual(['UPDATE_DENIED']);
    expect((await t.gql(b, '{ viewer { staff { id } } }')).status).toBe(200);
  });
});

describe('plan limit', () => {
  test('a second active user over staffMax 1 is PAYMENT_REQUIRED and nothing is stored', async () => {
    const owner = await t.newAccount({ staffMax: 1 });
    await create(owner, { login: unique('first') });
    const second = unique('second');
    const res = await t.gql(owner, CREATE, {
      input: { login: second, password: 'staff-password' },
    });
    expect(onlyError(res).code).toBe('PAYMENT_REQUIRED');
    expect(res.errors?.[0]?.extensions?.entity).toBe('Staff');
    expect(await count(owner, { login: { eq: second } })).toBe(0);
    expect(await count(owner)).toBe(2);
    // Nor can the refused login sign in.
    expect(
      (await t.gql({ login: second, password: 'staff-password' }, '{ viewer { staff { id } } }'))
        .status,
    ).toBe(401);
  });

  test('an inactive user may be created, but enabling it over the limit is PAYMENT_REQUIRED', async () => {
    const owner = await t.newAccount({ staffMax: 1 });
    await create(owner, { login: unique('active') });
    const idle = await create(owner, { login: unique('idle'), active: false });
    expect(idle.active).toBe(false);
    const viaEnable = await t.gql(
      owner,
      `mutation($id: ID!) { enableStaff(input: { staff: { id: $id } }) { staff { id active } } }`,
      { id: idle.id },
    );
    expect(onlyError(viaEnable).code).toBe('PAYMENT_REQUIRED');
    const viaUpdate = await t.gql(owner, UPDATE, { ref: { id: idle.id }, input: { active: true } });
    expect(onlyError(viaUpdate).code).toBe('PAYMENT_REQUIRED');
    expect((await t.gqlOk(owner, GET, { id: idle.id })).staffMember.active).toBe(false);
    expect(await count(owner, { active: { eq: true } })).toBe(2);
  });

  test('disabling one user makes room for another', async () => {
    const owner = await t.newAccount({ staffMax: 1 });
    const first = await create(owner, { login: unique('one') });
    const idle = await create(owner, { login: unique('two'), active: false });
    await t.gqlOk(
      owner,
      `mutation($id: ID!) { disableStaff(input: { staff: { id: $id } }) { staff { id } } }`,
      { id: first.id },
    );
    const enabled = await t.gqlOk(
      owner,
      `mutation($id: ID!) { enableStaff(input: { staff: { id: $id } }) { staff { active } } }`,
      {
        id: idle.id,
      },
    );
    expect(enabled.enableStaff.staff.active).toBe(true);
    // Enabling an already active user is no change and needs no room.
    const again = await t.gqlOk(
      owner,
      `mutation($id: ID!) { enableStaff(input: { staff: { id: $id } }) { staff { active } } }`,
      {
        id: idle.id,
      },
    );
    expect(again.enableStaff.staff.active).toBe(true);
  });

  test('staffMax 0 allows no staff at all', async () => {
    const owner = await t.newAccount({ staffMax: 0 });
    const res = await t.gql(owner, CREATE, {
      input: { login: unique('none'), password: 'staff-password' },
    });
    expect(onlyError(res).code).toBe('STAFF_NOT_ALLOWED');
    expect(await count(owner)).toBe(1);
  });
});

describe('delete', () => {
  test('deletes a user; reading it then is NOT_FOUND and it can no longer sign in', async () => {
    const owner = await t.newAccount();
    const member = await t.newStaff(owner);
    const deleted = await t.gqlOk(
      owner,
      `mutation($id: ID!) { deleteStaff(input: { staff: { id: $id } }) { staff { id login } } }`,
      { id: member.id },
    );
    expect(deleted.deleteStaff.staff).toEqual({ id: member.id, login: member.login });
    expect(codes(await t.gql(owner, GET, { id: member.id }))).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(owner, GET, { legacyId: member.legacyId }))).toEqual(['NOT_FOUND']);
    expect((await t.gql(member, '{ viewer { staff { id } } }')).status).toBe(401);
    expect(
      codes(
        await t.gql(
          owner,
          `mutation($id: ID!) { deleteStaff(input: { staff: { id: $id } }) { staff { id } } }`,
          { id: member.id },
        ),
      ),
    ).toEqual(['NOT_FOUND']);
  });

  test('deletes by integer id', async () => {
    const owner = await t.newAccount();
    const member = await t.newStaff(owner);
    const deleted = await t.gqlOk(
      owner,
      `mutation($legacyId: Int!) { deleteStaff(input: { staff: { legacyId: $legacyId } }) { staff { legacyId } } }`,
      { legacyId: member.legacyId },
    );
    expect(deleted.deleteStaff.staff.legacyId).toBe(member.legacyId);
    expect(codes(await t.gql(owner, GET, { id: member.id }))).toEqual(['NOT_FOUND']);
  });

  test('the owner cannot be deleted', async () => {
    const owner = await t.newAccount();
    const res = await t.gql(
      owner,
      `mutation($id: ID!) { deleteStaff(input: { staff: { id: $id } }) { staff { id } } }`,
      {
        id: owner.ownerId,
      },
    );
    expect(codes(res)).toEqual(['DELETE_DENIED']);
    expect((await t.gqlOk(owner, GET, { id: owner.ownerId })).staffMember.id).toBe(owner.ownerId);
  });
});

describe('bad input', () => {
  let owner: Credentials & { ownerId: string };
  beforeAll(async () => {
    owner = await t.newAccount();
  });

  test('a blank login is VALIDATION_FAILED naming login', async () => {
    const res = await t.gql(owner, CREATE, { input: { login: '   ', password: 'staff-password' } });
    expect(onlyError(res)).toEqual({ code: 'VALIDATION_FAILED', fields: ['login'] });
    expect(res.errors?.[0]?.extensions?.entity).toBe('Staff');
  });

  test('login and password are non-null: a document without one does not validate; a variable without one is VALIDATION_FAILED "is required"', async () => {
    const inline = await t.gql(
      owner,
      'mutation { createStaff(input: { password: "staff-password" }) { staff { id } } }',
    );
    expect(codes(inline)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(inline.errors?.[0]?.message).toMatch(/login.*String!.*not provided/);
    const viaVariables = await t.gql(owner, CREATE, { input: { login: 'no-password' } });
    expect(onlyError(viaVariables)).toEqual({ code: 'VALIDATION_FAILED', fields: ['password'] });
    expect(viaVariables.errors?.[0]?.message).toBe('Invalid staff: password is required');
    const nullLogin = await t.gql(owner, CREATE, {
      input: { login: null, password: 'staff-password' },
    });
    expect(nullLogin.errors?.[0]?.extensions?.fieldErrors).toEqual([
      { field: 'login', message: "can't be blank" },
    ]);
  });

  test('wrong GraphQL types are GRAPHQL_VALIDATION_FAILED or BAD_USER_INPUT', async () => {
    const inline = await t.gql(
      owner,
      'mutation { createStaff(input: { login: 5, password: "staff-password" }) { staff { id } } }',
    );
    expect(codes(inline)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    const rate = await t.gql(owner, CREATE, {
      input: { login: unique('x'), password: 'staff-password', hourlyRateCents: 'ten' },
    });
    expect(codes(rate)).toEqual(['BAD_USER_INPUT']);
    const ownerType = await t.gql(owner, CREATE, {
      input: { login: unique('x'), password: 'staff-password', type: 'OWNER' },
    });
    expect(codes(ownerType)).toEqual(['BAD_USER_INPUT']);
    const bigInt = await t.gql(owner, CREATE, {
      input: { login: unique('x'), password: 'staff-password', hourlyRateCents: 3_000_000_000 },
    });
    expect(codes(bigInt)).toEqual(['BAD_USER_INPUT']);
    const legacy = await t.gql(owner, GET, { legacyId: 'one' });
    expect(codes(legacy)).toEqual(['BAD_USER_INPUT']);
  });

  test('unknown, malformed and impossible ids are NOT_FOUND', async () => {
    expect(codes(await t.gql(owner, GET, { id: randomUUID() }))).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(owner, GET, { id: 'not-a-uuid' }))).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(owner, GET, { id: "'; drop table users; --" }))).toEqual([
      'NOT_FOUND',
    ]);
    expect(codes(await t.gql(owner, GET, { legacyId: 2_000_000_000 }))).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(owner, GET, { legacyId: 0 }))).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(owner, GET, { legacyId: -5 }))).toEqual(['NOT_FOUND']);
    expect(
      codes(await t.gql(owner, UPDATE, { ref: { id: randomUUID() }, input: { firstName: 'X' } })),
    ).toEqual(['NOT_FOUND']);
    expect(
      codes(await t.gql(owner, UPDATE, { ref: { id: 'zzz' }, input: { firstName: 'X' } })),
    ).toEqual(['NOT_FOUND']);
    expect(
      codes(
        await t.gql(
          owner,
          `mutation($id: ID!) { deleteStaff(input: { staff: { id: $id } }) { staff { id } } }`,
          { id: 'zzz' },
        ),
      ),
    ).toEqual(['NOT_FOUND']);
    expect(
      codes(
        await t.gql(
          owner,
          `mutation($id: ID!) { enableStaff(input: { staff: { id: $id } }) { staff { id } } }`,
          {
            id: randomUUID(),
          },
        ),
      ),
    ).toEqual(['NOT_FOUND']);
  });

  test('a user of another account is NOT_FOUND', async () => {
    const other = await t.newAccount();
    expect(codes(await t.gql(owner, GET, { id: other.ownerId }))).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(owner, GET, { legacyId: other.ownerLegacyId }))).toEqual([
      'NOT_FOUND',
    ]);
    expect(
      codes(
        await t.gql(owner, UPDATE, { ref: { id: other.ownerId }, input: { firstName: 'Hacked' } }),
      ),
    ).toEqual(['NOT_FOUND']);
  });

  test('naming both or neither of id and legacyId is VALIDATION_FAILED', async () => {
    expect(onlyError(await t.gql(owner, GET, {}))).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['id'],
    });
    expect(onlyError(await t.gql(owner, GET, { id: owner.ownerId, legacyId: 1 }))).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['id'],
    });
  });

  test('an invalid time zone is VALIDATION_FAILED naming timeZone', async () => {
    const res = await t.gql(owner, CREATE, {
      input: { login: unique('tz'), password: 'staff-password', timeZone: 'Mars/Olympus_Mons' },
    });
    expect(onlyError(res)).toEqual({ code: 'VALIDATION_FAILED', fields: ['timeZone'] });
    const s = await create(owner, { login: unique('tz2') });
    const upd = await t.gql(owner, UPDATE, { ref: { id: s.id }, input: { timeZone: 'Not/AZone' } });
    expect(onlyError(upd)).toEqual({ code: 'VALIDATION_FAILED', fields: ['timeZone'] });
    expect((await t.gqlOk(owner, GET, { id: s.id })).staffMember.timeZone).toBe('UTC');
  });

  test('a duplicate login (any case, any account) is VALIDATION_FAILED naming login', async () => {
    const login = unique('dup');
    await create(owner, { login });
    const same = await t.gql(owner, CREATE, { input: { login, password: 'staff-password' } });
    expect(onlyError(same)).toEqual({ code: 'VALIDATION_FAILED', fields: ['login'] });
    const upper = await t.gql(owner, CREATE, {
      input: { login: login.toUpperCase(), password: 'staff-password' },
    });
    expect(onlyError(upper)).toEqual({ code: 'VALIDATION_FAILED', fields: ['login'] });
    const other = await t.newAccount();
    const elsewhere = await t.gql(other, CREATE, { input: { login, password: 'staff-password' } });
    expect(onlyError(elsewhere)).toEqual({ code: 'VALIDATION_FAILED', fields: ['login'] });
    expect(await count(owner, { login: { like: login } })).toBe(1);
  });

  test('a supplied uuid that exists is VALIDATION_FAILED and the existing user is unchanged', async () => {
    const existing = await create(owner, { login: unique('orig'), firstName: 'Original' });
    const res = await t.gql(owner, CREATE, {
      input: {
        id: existing.id,
        login: unique('copy'),
        password: 'staff-password',
        firstName: 'Copy',
      },
    });
    expect(onlyError(res)).toEqual({ code: 'VALIDATION_FAILED', fields: ['id'] });
    expect((await t.gqlOk(owner, GET, { id: existing.id })).staffMember).toEqual(existing);
    // Also when the uuid belongs to a user of another account.
    const other = await t.newAccount();
    const cross = await t.gql(other, CREATE, {
      input: { id: existing.id, login: unique('cross'), password: 'staff-password' },
    });
    expect(onlyError(cross)).toEqual({ code: 'VALIDATION_FAILED', fields: ['id'] });
    expect((await t.gqlOk(owner, GET, { id: existing.id })).staffMember).toEqual(existing);
  });

  test('a malformed supplied uuid is VALIDATION_FAILED naming id', async () => {
    const res = await t.gql(owner, CREATE, {
      input: { id: 'not-a-uuid', login: unique('bad'), password: 'staff-password' },
    });
    expect(onlyError(res)).toEqual({ code: 'VALIDATION_FAILED', fields: ['id'] });
  });

  test('NUL characters are VALIDATION_FAILED', async () => {
    const login = unique('nul');
    const inName = await t.gql(owner, CREATE, {
      input: { login, password: 'staff-password', firstName: 'A\u0000B' },
    });
    expect(onlyError(inName)).toEqual({ code: 'VALIDATION_FAILED', fields: ['firstName'] });
    const inLogin = await t.gql(owner, CREATE, {
      input: { login: `${login}\u0000`, password: 'staff-password' },
    });
    expect(onlyError(inLogin)).toEqual({ code: 'VALIDATION_FAILED', fields: ['login'] });
    const inPassword = await t.gql(owner, CREATE, {
      input: { login, password: 'staff\u0000password' },
    });
    expect(onlyError(inPassword)).toEqual({ code: 'VALIDATION_FAILED', fields: ['password'] });
    const s = await create(owner, { login: unique('nul2'), lastName: 'Clean' });
    const upd = await t.gql(owner, UPDATE, {
      ref: { id: s.id },
      input: { lastName: 'Dirty\u0000' },
    });
    expect(onlyError(upd)).toEqual({ code: 'VALIDATION_FAILED', fields: ['lastName'] });
    expect((await t.gqlOk(owner, GET, { id: s.id })).staffMember.lastName).toBe('Clean');
    expect(await count(owner, { login: { eq: login } })).toBe(0);
  });

  test('too-long strings are VALIDATION_FAILED', async () => {
    const long = 'x'.repeat(256);
    const name = await t.gql(owner, CREATE, {
      input: { login: unique('long'), password: 'staff-password', firstName: long },
    });
    expect(onlyError(name)).toEqual({ code: 'VALIDATION_FAILED', fields: ['firstName'] });
    const login = await t.gql(owner, CREATE, {
      input: { login: long, password: 'staff-password' },
    });
    expect(onlyError(login)).toEqual({ code: 'VALIDATION_FAILED', fields: ['login'] });
    const password = await t.gql(owner, CREATE, {
      input: { login: unique('longpw'), password: 'p'.repeat(5000) },
    });
    expect(onlyError(password)).toEqual({ code: 'VALIDATION_FAILED', fields: ['password'] });
    // 255 is still fine.
    const ok = await create(owner, { login: unique('fits'), firstName: 'y'.repeat(255) });
    expect(ok.firstName).toBe('y'.repeat(255));
  });

  test('other field rules: e-mail address, login with a colon, short password, negative rate', async () => {
    const res = await t.gql(owner, CREATE, {
      input: {
        login: 'has:colon',
        password: 'short',
        emailAddress: 'not an address',
        hourlyRateCents: -1,
      },
    });
    const err = onlyError(res);
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(err.fields.sort()).toEqual(['emailAddress', 'hourlyRateCents', 'login', 'password']);
  });

  test('a staff member lists only themselves, and may not create staff nor read another user', async () => {
    const member = await t.newStaff(owner);
    const listed = await t.gqlOk(member, LIST, {});
    expect(listed.staff.nodes.map((n: { id: string }) => n.id)).toEqual([member.id]);
    expect(listed.staff.totalCount).toBe(1);
    expect(
      codes(
        await t.gql(member, CREATE, {
          input: { login: unique('nope'), password: 'staff-password' },
        }),
      ),
    ).toEqual(['CREATE_DENIED']);
    expect(codes(await t.gql(member, GET, { id: owner.ownerId }))).toEqual(['READ_DENIED']);
    expect((await t.gqlOk(member, GET, { id: member.id })).staffMember.id).toBe(member.id);
  });
});
