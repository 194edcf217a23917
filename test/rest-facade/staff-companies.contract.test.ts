/**
 * Contract tests of the JSON facade (/api/1) for staff and companies, through HTTP only.
 *
 * The contract is docs/json-api.md (its "Legacy compatibility notes" settle what the old interface
 * left open); roles follow docs/permissions.md. Wire objects are checked against key lists written
 * here from the resource tables of docs/json-api.md, and additionally against the facade's own
 * (strict) zod schemas.
 */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { companyResource } from '../../rest-facade/routes/companies.routes';
import { staffResource } from '../../rest-facade/routes/staff.routes';
import { expectError, expectJson, list } from '../support/legacy-answers';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The Staff table of docs/json-api.md (password is write-only, never returned). */
const STAFF_KEYS = [
  'uuid',
  'login',
  'first_name',
  'last_name',
  'email_address',
  'time_zone',
  'active',
  'type',
  'hourly_rate_cents',
];

/** The Company table of docs/json-api.md. */
const COMPANY_KEYS = [
  'uuid',
  'name',
  'visibility',
  'user_uuids',
  'contact_salutation',
  'contact_first_name',
  'contact_last_name',
  'contact_email_address',
  'contact_position',
  'contact_home_phone',
  'contact_mobile_phone',
  'website',
  'main_phone',
  'fax_phone',
  'main_address',
  'main_city',
  'main_state',
  'main_postcode',
  'main_country',
  'notes',
  'longitude',
  'latitude',
];
const COMPANY_NULLABLE_TEXT = COMPANY_KEYS.filter(
  (k) =>
    k.startsWith('contact_') ||
    k.startsWith('main_') ||
    ['website', 'fax_phone', 'notes'].includes(k),
);

type Method = 'get' | 'post' | 'put' | 'delete';

/** One HTTP call to the JSON facade with Basic credentials (or none). */
function call(who: Credentials | undefined, method: Method, path: string, body?: unknown) {
  let req = request(t.app.express)[method](`/api/1${path}`);
  if (who) req = req.auth(who.login, who.password);
  if (body !== undefined)
    req = req.set('content-type', 'application/json').send(JSON.stringify(body));
  return req;
}

function unique(prefix: string): string {
  return `${prefix}_${randomUUID().slice(0, 8)}`;
}

function expectStaffObject(obj: any): void {
  expect(Object.keys(obj).sort()).toEqual([...STAFF_KEYS].sort());
  expect(obj).toEqual({
    uuid: expect.stringMatching(UUID_RE),
    login: expect.any(String),
    first_name: expect.any(String),
    last_name: expect.any(String),
    email_address: expect.any(String),
    time_zone: expect.any(String),
    // A string, not a boolean.
    active: expect.stringMatching(/^(true|false)$/),
    type: expect.stringMatching(/^(owner|manager|staff)$/),
    hourly_rate_cents: obj.hourly_rate_cents === null ? null : expect.any(Number),
  });
  if (obj.hourly_rate_cents !== null) expect(Number.isInteger(obj.hourly_rate_cents)).toBe(true);
  expect(() => staffResource.wire.parse(obj)).not.toThrow();
}

function expectCompanyObject(obj: any): void {
  expect(Object.keys(obj).sort()).toEqual([...COMPANY_KEYS].sort());
  expect(obj.uuid).toMatch(UUID_RE);
  expect(typeof obj.name).toBe('string');
  expect(['public', 'private', 'custom']).toContain(obj.visibility);
  expect(Array.isArray(obj.user_uuids)).toBe(true);
  for (const u of obj.user_uuids) expect(u).toMatch(UUID_RE);
  for (const key of COMPANY_NULLABLE_TEXT)
    expect(obj[key] === null || typeof obj[key] === 'string').toBe(true);
  for (const key of ['longitude', 'latitude'])
    expect(obj[key] === null || typeof obj[key] === 'number').toBe(true);
  expect(() => companyResource.wire.parse(obj)).not.toThrow();
}

/** `{response: <object>}` with status 200, and the object. */
function single(res: request.Response): any {
  if (res.status !== 200)
    throw new Error(`expected 200, got ${res.status}: ${JSON.stringify(res.body)}`);
  expectJson(res);
  expect(Object.keys(res.body)).toEqual(['response']);
  expect(res.body.response).not.toBeNull();
  expect(typeof res.body.response).toBe('object');
  expect(Array.isArray(res.body.response)).toBe(false);
  return res.body.response;
}

function fieldNames(error: any): string[] {
  expect(Array.isArray(error.field_errors)).toBe(true);
  for (const fe of error.field_errors) {
    expect(Object.keys(fe).sort()).toEqual(['field', 'message']);
    expect(typeof fe.message).toBe('string');
  }
  return error.field_errors.map((fe: { field: string }) => fe.field);
}

async function createStaff(
  owner: Credentials,
  fields: Record<string, unknown> = {},
): Promise<any & Credentials> {
  const login = (fields.login as string | undefined) ?? unique('staff');
  const password = (fields.password as string | undefined) ?? 'staff-password-1';
  const obj = single(
    await call(owner, 'post', '/staff.json', {
      staff: { login, password, first_name: 'Sam', last_name: 'Staff', ...fields },
    }),
  );
  return { ...obj, password };
}

async function createCompany(who: Credentials, fields: Record<string, unknown> = {}): Promise<any> {
  return single(
    await call(who, 'post', '/companies.json', { company: { name: unique('Company'), ...fields } }),
  );
}

// ---------------------------------------------------------------------------------------------
// Staff
// ---------------------------------------------------------------------------------------------

describe('GET /staff (list)', () => {
  test('lists the staff of the account, the caller included, with count; wire objects match the document', async () => {
    const owner = await t.newAccount({ firstName: 'Olga', lastName: 'Owner' });
    const a = await createStaff(owner, { first_name: 'Ann' });
    const b = await createStaff(owner, {
      first_name: 'Bob',
      type: 'manager',
      hourly_rate_cents: 4200,
    });

    const { items, count } = list(await call(owner, 'get', '/staff.json'));
    expect(count).toBe(3);
    expect(items).toHaveLength(3);
    items.forEach(expectStaffObject);
    expect(items.map((s) => s.uuid).sort()).toEqual([owner.ownerId, a.uuid, b.uuid].sort());

    const me = items.find((s) => s.uuid === owner.ownerId);
    expect(me).toMatchObject({
      login: owner.login,
      first_name: 'Olga',
      last_name: 'Owner',
      active: 'true',
      type: 'owner',
    });
    expect(items.find((s) => s.uuid === b.uuid)).toMatchObject({
      type: 'manager',
      hourly_rate_cents: 4200,
      active: 'true',
    });
    for (const s of items) expect(s).not.toHaveProperty('password');
  });

  test('the path works without the .json suffix and gives the same answer', async () => {
    const owner = await t.newAccount();
    await createStaff(owner);
    const withSuffix = list(await call(owner, 'get', '/staff.json'));
    const without = list(await call(owner, 'get', '/staff'));
    expect(without).toEqual(withSuffix);
  });

  test('does not list staff of another account', async () => {
    const owner = await t.newAccount();
    const other = await t.newAccount();
    const foreign = await createStaff(other);
    const { items, count } = list(await call(owner, 'get', '/staff.json'));
    expect(count).toBe(1);
    expect(items.map((s) => s.uuid)).toEqual([owner.ownerId]);
    expect(items.map((s) => s.uuid)).not.toContain(foreign.uuid);
  });

  test('a manager lists staff (allowed by docs/permissions.md) and sees itself', async () => {
    const owner = await t.newAccount();
    const manager = await t.newStaff(owner, { type: 'MANAGER' });
    const { items, count } = list(await call(manager, 'get', '/staff.json'));
    expect(count).toBe(2);
    expect(items.map((s) => s.uuid)).toEqual(expect.arrayContaining([manager.id, owner.ownerId]));
  });

  // A staff list includes the caller, and a staff member's list is exactly that
  // (docs/permissions.md, "Roles"); the official CLI lists staff during setup for every user.
  test('a staff member lists staff and sees only themselves', async () => {
    const owner = await t.newAccount();
    const member = await t.newStaff(owner, { type: 'STAFF' });
    await t.newStaff(owner, { type: 'STAFF' });
    const { items, count } = list(await call(member, 'get', '/staff.json'));
    expect(count).toBe(1);
    expect(items.map((s) => s.uuid)).toEqual([member.id]);
    expectStaffObject(items[0]);
    const filtered = list(
      await call(member, 'get', `/staff.json?where=${encodeURIComponent('type = "owner"')}`),
    );
    expect(filtered).toEqual({ items: [], count: 0 });
  });
});

describe('GET /staff/:uuid (show)', () => {
  test('shows one staff member with and without suffix', async () => {
    const owner = await t.newAccount();
    const s = await createStaff(owner, {
      first_name: 'Cleo',
      last_name: 'Clark',
      email_address: 'cleo@example.com',
      time_zone: 'Europe/Berlin',
      hourly_rate_cents: 1500,
    });
    const shown = single(await call(owner, 'get', `/staff/${s.uuid}.json`));
    expectStaffObject(shown);
    expect(shown).toEqual({
      uuid: s.uuid,
      login: s.login,
      first_name: 'Cleo',
      last_name: 'Clark',
      email_address: 'cleo@example.com',
      time_zone: 'Europe/Berlin',
      active: 'true',
      type: 'staff',
      hourly_rate_cents: 1500,
    });
    expect(single(await call(owner, 'get', `/staff/${s.uuid}`))).toEqual(shown);
  });

  test('the owner reads itself with type "owner"', async () => {
    const owner = await t.newAccount();
    const me = single(await call(owner, 'get', `/staff/${owner.ownerId}.json`));
    expectStaffObject(me);
    expect(me).toMatchObject({
      uuid: owner.ownerId,
      login: owner.login,
      type: 'owner',
      active: 'true',
    });
  });

  test("404 for a missing uuid and for another account's staff member", async () => {
    const owner = await t.newAccount();
    const other = await t.newAccount();
    const foreign = await createStaff(other);
    const missing = expectError(
      await call(owner, 'get', `/staff/${randomUUID()}.json`),
      404,
      'NOT_FOUND',
    );
    const cross = expectError(
      await call(owner, 'get', `/staff/${foreign.uuid}.json`),
      404,
      'NOT_FOUND',
    );
    expect(cross).toEqual(missing);
  });

  test('a staff member reads itself, but gets 403 Read Denied for another user', async () => {
    const owner = await t.newAccount();
    const member = await t.newStaff(owner, { type: 'STAFF' });
    const self = single(await call(member, 'get', `/staff/${member.id}.json`));
    expect(self).toMatchObject({ uuid: member.id, login: member.login, type: 'staff' });
    expectError(
      await call(member, 'get', `/staff/${owner.ownerId}.json`),
      403,
      'READ_DENIED',
      'Read Denied',
    );
  });
});

describe('POST /staff (create)', () => {
  test('creates a staff member with defaults; the password is write-only and the new user can sign in', async () => {
    const owner = await t.newAccount();
    const login = unique('newbie');
    const res = await call(owner, 'post', '/staff.json', {
      staff: {
        login,
        password: 'initial-pass-1',
        first_name: 'Nina',
        last_name: 'New',
        email_address: 'nina@example.com',
      },
    });
    const created = single(res);
    expectStaffObject(created);
    expect(created).toEqual({
      uuid: expect.stringMatching(UUID_RE),
      login,
      first_name: 'Nina',
      last_name: 'New',
      email_address: 'nina@example.com',
      time_zone: 'UTC',
      active: 'true',
      type: 'staff',
      hourly_rate_cents: null,
    });
    expect(res.text).not.toContain('initial-pass-1');
    expect(res.text).not.toMatch(/password/i);

    // The new user signs in with the password it was given.
    const self = single(
      await call({ login, password: 'initial-pass-1' }, 'get', `/staff/${created.uuid}.json`),
    );
    expect(self).toEqual(created);
    expect(JSON.stringify(self)).not.toMatch(/password/i);
    // And it shows in the owner's list.
    const { items } = list(await call(owner, 'get', '/staff.json'));
    expect(items.map((s) => s.uuid)).toContain(created.uuid);
    for (const s of items) expect(s).not.toHaveProperty('password');
  });

  test('a supplied uuid is used', async () => {
    const owner = await t.newAccount();
    const uuid = randomUUID();
    const created = await createStaff(owner, { uuid });
    expect(created.uuid).toBe(uuid);
    expect(single(await call(owner, 'get', `/staff/${uuid}.json`)).uuid).toBe(uuid);
  });

  test('a supplied uuid that already exists is 422 and overwrites nothing', async () => {
    const owner = await t.newAccount();
    const existing = await createStaff(owner, { first_name: 'Keep' });
    const login = unique('dupuuid');
    const error = expectError(
      await call(owner, 'post', '/staff.json', {
        staff: { uuid: existing.uuid, login, password: 'whatever-1', first_name: 'Intruder' },
      }),
      422,
      'VALIDATION_FAILED',
    );
    expect(fieldNames(error)).toContain('uuid');
    expect(single(await call(owner, 'get', `/staff/${existing.uuid}.json`))).toMatchObject({
      first_name: 'Keep',
      login: existing.login,
    });
    expect(
      list(
        await call(owner, 'get', `/staff.json?where=${encodeURIComponent(`login = "${login}"`)}`),
      ).count,
    ).toBe(0);
  });

  test('accepts a form-encoded Rails-nested body (staff[login]=...)', async () => {
    const owner = await t.newAccount();
    const login = unique('formed');
    const res = await request(t.app.express)
      .post('/api/1/staff.json')
      .auth(owner.login, owner.password)
      .type('form')
      .send(
        `staff[login]=${login}&staff[password]=form-pass-1&staff[first_name]=Form&staff[active]=false&staff[hourly_rate_cents]=1200`,
      );
    const created = single(res);
    expectStaffObject(created);
    expect(created).toMatchObject({
      login,
      first_name: 'Form',
      active: 'false',
      hourly_rate_cents: 1200,
      type: 'staff',
    });
  });

  test('active "false" on create stores an inactive user; type manager is accepted', async () => {
    const owner = await t.newAccount();
    const inactive = await createStaff(owner, { active: 'false' });
    expect(inactive.active).toBe('false');
    const manager = await createStaff(owner, { type: 'manager' });
    expect(manager.type).toBe('manager');
    expect(single(await call(owner, 'get', `/staff/${inactive.uuid}.json`)).active).toBe('false');
  });

  test('a duplicate login is 422 with field_errors naming login, also in another case and across accounts', async () => {
    const owner = await t.newAccount();
    const first = await createStaff(owner, { first_name: 'Original' });
    const before = list(await call(owner, 'get', '/staff.json')).count;

    const error = expectError(
      await call(owner, 'post', '/staff.json', {
        staff: { login: first.login, password: 'another-pass-1', first_name: 'Copy' },
      }),
      422,
      'VALIDATION_FAILED',
      'Invalid Record',
    );
    expect(fieldNames(error)).toEqual(['login']);

    const upper = expectError(
      await call(owner, 'post', '/staff.json', {
        staff: { login: first.login.toUpperCase(), password: 'another-pass-1' },
      }),
      422,
      'VALIDATION_FAILED',
    );
    expect(fieldNames(upper)).toEqual(['login']);

    // Logins are unique across the whole service.
    const other = await t.newAccount();
    const cross = expectError(
      await call(other, 'post', '/staff.json', {
        staff: { login: first.login, password: 'another-pass-1' },
      }),
      422,
      'VALIDATION_FAILED',
    );
    expect(fieldNames(cross)).toEqual(['login']);
    expectError(
      await call(other, 'post', '/staff.json', {
        staff: { login: owner.login, password: 'another-pass-1' },
      }),
      422,
      'VALIDATION_FAILED',
    );

    expect(list(await call(owner, 'get', '/staff.json')).count).toBe(before);
    expect(single(await call(owner, 'get', `/staff/${first.uuid}.json`)).first_name).toBe(
      'Original',
    );
    // The original password still works: nothing was overwritten.
    expect((await call(first, 'get', `/staff/${first.uuid}.json`)).status).toBe(200);
  });

  test('invalid values are 422 with field_errors in legacy names', async () => {
    const owner = await t.newAccount();
    const typeError = expectError(
      await call(owner, 'post', '/staff.json', {
        staff: { login: unique('x'), password: 'password-1', type: 'owner' },
      }),
      422,
      'VALIDATION_FAILED',
    );
    expect(fieldNames(typeError)).toEqual(['type']);

    const missing = expectError(
      await call(owner, 'post', '/staff.json', { staff: { first_name: 'No Login' } }),
      422,
      'VALIDATION_FAILED',
    );
    expect(missing.field_errors === undefined || Array.isArray(missing.field_errors)).toBe(true);

    const tz = expectError(
      await call(owner, 'post', '/staff.json', {
        staff: { login: unique('x'), password: 'password-1', time_zone: 'Mars/Olympus_Mons' },
      }),
      422,
      'VALIDATION_FAILED',
    );
    expect(fieldNames(tz)).toEqual(['time_zone']);

    const rate = expectError(
      await call(owner, 'post', '/staff.json', {
        staff: { login: unique('x'), password: 'password-1', hourly_rate_cents: 'lots' },
      }),
      422,
      'VALIDATION_FAILED',
    );
    expect(fieldNames(rate)).toEqual(['hourly_rate_cents']);
    expect(list(await call(owner, 'get', '/staff.json')).count).toBe(1);
  });

  test('a staff member gets 403 Create Denied', async () => {
    const owner = await t.newAccount();
    const member = await t.newStaff(owner, { type: 'STAFF' });
    const login = unique('nope');
    expectError(
      await call(member, 'post', '/staff.json', { staff: { login, password: 'password-12' } }),
      403,
      'CREATE_DENIED',
      'Create Denied',
    );
    expect(
      list(
        await call(owner, 'get', `/staff.json?where=${encodeURIComponent(`login = "${login}"`)}`),
      ).count,
    ).toBe(0);
  });
});

describe('PUT /staff/:uuid (update)', () => {
  test('merges: omitted fields are kept; the answer is 200 with the object', async () => {
    const owner = await t.newAccount();
    const s = await createStaff(owner, {
      first_name: 'Dora',
      last_name: 'Dunn',
      email_address: 'dora@example.com',
      time_zone: 'Asia/Tokyo',
      hourly_rate_cents: 2500,
    });
    const updated = single(
      await call(owner, 'put', `/staff/${s.uuid}.json`, { staff: { last_name: 'Dunn-Smith' } }),
    );
    expectStaffObject(updated);
    const expected = {
      uuid: s.uuid,
      login: s.login,
      first_name: 'Dora',
      last_name: 'Dunn-Smith',
      email_address: 'dora@example.com',
      time_zone: 'Asia/Tokyo',
      active: 'true',
      type: 'staff',
      hourly_rate_cents: 2500,
    };
    expect(updated).toEqual(expected);
    expect(single(await call(owner, 'get', `/staff/${s.uuid}.json`))).toEqual(expected);

    // Without suffix, several fields at once; an empty wrapper changes nothing.
    const again = single(
      await call(owner, 'put', `/staff/${s.uuid}`, {
        staff: { first_name: 'Dorothy', hourly_rate_cents: null },
      }),
    );
    expect(again).toEqual({ ...expected, first_name: 'Dorothy', hourly_rate_cents: null });
    expect(single(await call(owner, 'put', `/staff/${s.uuid}.json`, { staff: {} }))).toEqual(again);
    // The password still works after updates that did not touch it.
    expect((await call(s, 'get', `/staff/${s.uuid}.json`)).status).toBe(200);
  });

  test('active "false" / "true" strings on update; type staff → manager', async () => {
    const owner = await t.newAccount();
    const s = await createStaff(owner);
    expect(
      single(await call(owner, 'put', `/staff/${s.uuid}.json`, { staff: { active: 'false' } }))
        .active,
    ).toBe('false');
    expect(single(await call(owner, 'get', `/staff/${s.uuid}.json`)).active).toBe('false');
    expect(
      single(await call(owner, 'put', `/staff/${s.uuid}.json`, { staff: { active: 'true' } }))
        .active,
    ).toBe('true');
    expect(
      single(await call(owner, 'put', `/staff/${s.uuid}.json`, { staff: { type: 'manager' } }))
        .type,
    ).toBe('manager');
  });

  test('changing login to a taken one is 422 naming login and changes nothing', async () => {
    const owner = await t.newAccount();
    const a = await createStaff(owner);
    const b = await createStaff(owner, { first_name: 'Bee' });
    const error = expectError(
      await call(owner, 'put', `/staff/${b.uuid}.json`, {
        staff: { login: a.login, first_name: 'Changed' },
      }),
      422,
      'VALIDATION_FAILED',
    );
    expect(fieldNames(error)).toEqual(['login']);
    expect(single(await call(owner, 'get', `/staff/${b.uuid}.json`))).toMatchObject({
      login: b.login,
      first_name: 'Bee',
    });
  });

  test('a password change by the owner takes effect at once: the old password is 401 on the next request', async () => {
    const owner = await t.newAccount();
    const s = await createStaff(owner, { password: 'old-password-1' });
    // Sign in once, so any cache of verified credentials holds the old password.
    expect((await call(s, 'get', `/staff/${s.uuid}.json`)).status).toBe(200);

    const res = await call(owner, 'put', `/staff/${s.uuid}.json`, {
      staff: { password: 'new-password-2' },
    });
    const updated = single(res);
    expectStaffObject(updated);
    expect(res.text).not.toContain('new-password-2');

    const old = await call(
      { login: s.login, password: 'old-password-1' },
      'get',
      `/staff/${s.uuid}.json`,
    );
    expectError(old, 401, 'UNAUTHENTICATED');
    expect(old.headers['www-authenticate']).toMatch(/^Basic /);
    expect(
      (await call({ login: s.login, password: 'new-password-2' }, 'get', `/staff/${s.uuid}.json`))
        .status,
    ).toBe(200);
  });

  test('a staff member changes its own password; the old one is 401 at once', async () => {
    const owner = await t.newAccount();
    const member = await t.newStaff(owner, { type: 'STAFF', password: 'mine-old-pass' });
    expect((await call(member, 'get', `/staff/${member.id}.json`)).status).toBe(200);
    single(
      await call(member, 'put', `/staff/${member.id}.json`, {
        staff: { password: 'mine-new-pass' },
      }),
    );
    expectError(await call(member, 'get', `/staff/${member.id}.json`), 401, 'UNAUTHENTICATED');
    expect(
      (
        await call(
          { login: member.login, password: 'mine-new-pass' },
          'get',
          `/staff/${member.id}.json`,
        )
      ).status,
    ).toBe(200);
  });

  test('the object as shown can be sent back with one change (clients PUT whole objects)', async () => {
    const owner = await t.newAccount();
    const s = await createStaff(owner, { first_name: 'Round', hourly_rate_cents: 700 });
    const shown = single(await call(owner, 'get', `/staff/${s.uuid}.json`));
    const updated = single(
      await call(owner, 'put', `/staff/${s.uuid}.json`, {
        staff: { ...shown, first_name: 'Trip' },
      }),
    );
    expect(updated).toEqual({ ...shown, first_name: 'Trip' });
  });

  test('a staff member may edit its profile but gets 403 Update Denied for its type and for other users', async () => {
    const owner = await t.newAccount();
    const member = await t.newStaff(owner, { type: 'STAFF' });
    expect(
      single(
        await call(member, 'put', `/staff/${member.id}.json`, { staff: { first_name: 'Selfie' } }),
      ).first_name,
    ).toBe('Selfie');
    expectError(
      await call(member, 'put', `/staff/${member.id}.json`, { staff: { type: 'manager' } }),
      403,
      'UPDATE_DENIED',
      'Update Denied',
    );
    expectError(
      await call(member, 'put', `/staff/${owner.ownerId}.json`, {
        staff: { first_name: 'Hacked' },
      }),
      403,
      'UPDATE_DENIED',
      'Update Denied',
    );
    expect(single(await call(owner, 'get', `/staff/${owner.ownerId}.json`)).first_name).not.toBe(
      'Hacked',
    );
    expect(single(await call(owner, 'get', `/staff/${member.id}.json`)).type).toBe('staff');
  });

  test("404 for a missing uuid and for another account's staff member, which stays unchanged", async () => {
    const owner = await t.newAccount();
    const other = await t.newAccount();
    const foreign = await createStaff(other, { first_name: 'Foreign' });
    expectError(
      await call(owner, 'put', `/staff/${randomUUID()}.json`, { staff: { first_name: 'X' } }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await call(owner, 'put', `/staff/${foreign.uuid}.json`, {
        staff: { first_name: 'X', password: 'taken-over-1' },
      }),
      404,
      'NOT_FOUND',
    );
    expect(single(await call(other, 'get', `/staff/${foreign.uuid}.json`)).first_name).toBe(
      'Foreign',
    );
    expect((await call(foreign, 'get', `/staff/${foreign.uuid}.json`)).status).toBe(200);
  });
});

describe('a manager caller (docs/permissions.md)', () => {
  test('manages staff members, but not managers or the owner', async () => {
    const owner = await t.newAccount();
    const manager = await t.newStaff(owner, { type: 'MANAGER' });
    const otherManager = await t.newStaff(owner, { type: 'MANAGER' });

    const s = await createStaff(manager, { first_name: 'ByManager' });
    expect(s.type).toBe('staff');
    expect(
      single(
        await call(manager, 'put', `/staff/${s.uuid}.json`, { staff: { last_name: 'Edited' } }),
      ).last_name,
    ).toBe('Edited');
    expect(single(await call(manager, 'post', `/staff/${s.uuid}/disable.json`, {})).active).toBe(
      'false',
    );
    expect(single(await call(manager, 'post', `/staff/${s.uuid}/enable.json`, {})).active).toBe(
      'true',
    );

    const login = unique('mgr');
    expectError(
      await call(manager, 'post', '/staff.json', {
        staff: { login, password: 'password-12', type: 'manager' },
      }),
      403,
      'CREATE_DENIED',
      'Create Denied',
    );
    expectError(
      await call(manager, 'put', `/staff/${s.uuid}.json`, { staff: { type: 'manager' } }),
      403,
      'UPDATE_DENIED',
    );
    expectError(
      await call(manager, 'put', `/staff/${otherManager.id}.json`, { staff: { first_name: 'X' } }),
      403,
      'UPDATE_DENIED',
    );
    expectError(
      await call(manager, 'put', `/staff/${owner.ownerId}.json`, { staff: { first_name: 'X' } }),
      403,
      'UPDATE_DENIED',
    );
    expectError(
      await call(manager, 'post', `/staff/${otherManager.id}/disable.json`, {}),
      403,
      'UPDATE_DENIED',
    );
    expectError(
      await call(manager, 'delete', `/staff/${otherManager.id}.json`),
      403,
      'DELETE_DENIED',
      'Delete Denied',
    );
    expectError(
      await call(manager, 'delete', `/staff/${owner.ownerId}.json`),
      403,
      'DELETE_DENIED',
    );

    expect(single(await call(manager, 'delete', `/staff/${s.uuid}.json`)).uuid).toBe(s.uuid);
    const { items } = list(await call(owner, 'get', '/staff.json'));
    expect(items.map((x) => x.uuid).sort()).toEqual(
      [owner.ownerId, manager.id, otherManager.id].sort(),
    );
    expect(items.find((x) => x.uuid === otherManager.id)).toMatchObject({
      active: 'true',
      type: 'manager',
    });
    expect(
      list(
        await call(owner, 'get', `/staff.json?where=${encodeURIComponent(`login = "${login}"`)}`),
      ).count,
    ).toBe(0);
  });
});

describe('DELETE /staff/:uuid', () => {
  test('deletes a staff member: 200 with the object, then 404 and gone from the list', async () => {
    const owner = await t.newAccount();
    const s = await createStaff(owner, { first_name: 'Gone' });
    const deleted = single(await call(owner, 'delete', `/staff/${s.uuid}.json`));
    expectStaffObject(deleted);
    expect(deleted).toMatchObject({ uuid: s.uuid, first_name: 'Gone' });
    expectError(await call(owner, 'get', `/staff/${s.uuid}.json`), 404, 'NOT_FOUND');
    expect(list(await call(owner, 'get', '/staff.json')).items.map((x) => x.uuid)).not.toContain(
      s.uuid,
    );
    // The deleted user can no longer sign in.
    expectError(await call(s, 'get', `/staff/${s.uuid}.json`), 401, 'UNAUTHENTICATED');
    // Deleting again is 404.
    expectError(await call(owner, 'delete', `/staff/${s.uuid}`), 404, 'NOT_FOUND');
  });

  test('the owner cannot delete itself; a staff member cannot delete others (403 Delete Denied)', async () => {
    const owner = await t.newAccount();
    const member = await t.newStaff(owner, { type: 'STAFF' });
    const victim = await t.newStaff(owner, { type: 'STAFF' });
    expectError(
      await call(owner, 'delete', `/staff/${owner.ownerId}.json`),
      403,
      'DELETE_DENIED',
      'Delete Denied',
    );
    expectError(
      await call(member, 'delete', `/staff/${victim.id}.json`),
      403,
      'DELETE_DENIED',
      'Delete Denied',
    );
    expect(single(await call(owner, 'get', `/staff/${victim.id}.json`)).uuid).toBe(victim.id);
  });

  test("404 for another account's staff member, which survives", async () => {
    const owner = await t.newAccount();
    const other = await t.newAccount();
    const foreign = await createStaff(other);
    expectError(await call(owner, 'delete', `/staff/${foreign.uuid}.json`), 404, 'NOT_FOUND');
    expect(single(await call(other, 'get', `/staff/${foreign.uuid}.json`)).uuid).toBe(foreign.uuid);
  });
});

describe('POST /staff/:uuid/enable and /disable', () => {
  test('disable then enable, with active as the strings "false" and "true"', async () => {
    const owner = await t.newAccount();
    const s = await createStaff(owner);
    const disabled = single(await call(owner, 'post', `/staff/${s.uuid}/disable.json`, {}));
    expectStaffObject(disabled);
    expect(disabled).toMatchObject({ uuid: s.uuid, active: 'false' });
    expect(single(await call(owner, 'get', `/staff/${s.uuid}.json`)).active).toBe('false');

    const enabled = single(await call(owner, 'post', `/staff/${s.uuid}/enable.json`, {}));
    expectStaffObject(enabled);
    expect(enabled).toMatchObject({ uuid: s.uuid, active: 'true' });
    // Without suffix and without a body.
    expect(single(await call(owner, 'post', `/staff/${s.uuid}/disable`)).active).toBe('false');
    expect(single(await call(owner, 'post', `/staff/${s.uuid}/enable`)).active).toBe('true');
    // Everything else is untouched.
    expect(single(await call(owner, 'get', `/staff/${s.uuid}.json`))).toEqual({ ...enabled });
  });

  test('404 for a missing or foreign uuid; 403 Update Denied for a staff member caller and for disabling oneself', async () => {
    const owner = await t.newAccount();
    const other = await t.newAccount();
    const foreign = await createStaff(other);
    const member = await t.newStaff(owner, { type: 'STAFF' });
    const victim = await t.newStaff(owner, { type: 'STAFF' });
    expectError(
      await call(owner, 'post', `/staff/${randomUUID()}/enable.json`, {}),
      404,
      'NOT_FOUND',
    );
    expectError(
      await call(owner, 'post', `/staff/${randomUUID()}/disable.json`, {}),
      404,
      'NOT_FOUND',
    );
    expectError(
      await call(owner, 'post', `/staff/${foreign.uuid}/disable.json`, {}),
      404,
      'NOT_FOUND',
    );
    expect(single(await call(other, 'get', `/staff/${foreign.uuid}.json`)).active).toBe('true');
    expectError(
      await call(member, 'post', `/staff/${victim.id}/disable.json`, {}),
      403,
      'UPDATE_DENIED',
      'Update Denied',
    );
    expectError(
      await call(owner, 'post', `/staff/${owner.ownerId}/disable.json`, {}),
      403,
      'UPDATE_DENIED',
    );
    expect(single(await call(owner, 'get', `/staff/${victim.id}.json`)).active).toBe('true');
  });
});

describe("402 over the plan's staff maximum (staffMax 1)", () => {
  test('create over the maximum is 402 and stores nothing', async () => {
    const owner = await t.newAccount({ staffMax: 1 });
    const first = await createStaff(owner);
    const login = unique('over');
    const error = expectError(
      await call(owner, 'post', '/staff.json', {
        staff: { login, password: 'password-over', first_name: 'Over' },
      }),
      402,
      'PAYMENT_REQUIRED',
      'Payment Required',
    );
    expect(error).not.toHaveProperty('field_errors');
    const { items, count } = list(await call(owner, 'get', '/staff.json'));
    expect(count).toBe(2);
    expect(items.map((s) => s.uuid).sort()).toEqual([owner.ownerId, first.uuid].sort());
    // Nothing stored: the login is still free and cannot sign in.
    expectError(
      await call({ login, password: 'password-over' }, 'get', `/staff/${owner.ownerId}.json`),
      401,
      'UNAUTHENTICATED',
    );
    // Disabled staff do not count: after disabling the first, the same login can be created.
    single(await call(owner, 'post', `/staff/${first.uuid}/disable.json`, {}));
    const second = await createStaff(owner, { login, password: 'password-over' });
    expect(second).toMatchObject({ login, active: 'true' });
  });

  test('an inactive create fits; enabling it over the maximum is 402 and leaves it inactive', async () => {
    const owner = await t.newAccount({ staffMax: 1 });
    await createStaff(owner);
    const parked = await createStaff(owner, { active: 'false' });
    expect(parked.active).toBe('false');
    expectError(
      await call(owner, 'post', `/staff/${parked.uuid}/enable.json`, {}),
      402,
      'PAYMENT_REQUIRED',
      'Payment Required',
    );
    expect(single(await call(owner, 'get', `/staff/${parked.uuid}.json`)).active).toBe('false');
    // The parked user cannot sign in either (a disabled user is refused).
    expect((await call(parked, 'get', `/staff/${parked.uuid}.json`)).status).toBe(401);
  });

  test('an update that activates over the maximum is 402 and stores none of its changes', async () => {
    const owner = await t.newAccount({ staffMax: 1 });
    await createStaff(owner);
    const parked = await createStaff(owner, { active: 'false', first_name: 'Parked' });
    expectError(
      await call(owner, 'put', `/staff/${parked.uuid}.json`, {
        staff: { active: 'true', first_name: 'Changed' },
      }),
      402,
      'PAYMENT_REQUIRED',
    );
    expect(single(await call(owner, 'get', `/staff/${parked.uuid}.json`))).toMatchObject({
      active: 'false',
      first_name: 'Parked',
    });
    // An update that does not activate still works.
    expect(
      single(
        await call(owner, 'put', `/staff/${parked.uuid}.json`, {
          staff: { first_name: 'Renamed' },
        }),
      ),
    ).toMatchObject({
      active: 'false',
      first_name: 'Renamed',
    });
  });

  test('staffMax 0: any active staff member is refused with 402', async () => {
    const owner = await t.newAccount({ staffMax: 0 });
    const login = unique('none');
    const res = await call(owner, 'post', '/staff.json', {
      staff: { login, password: 'password-none' },
    });
    expect(res.status).toBe(402);
    expect(['STAFF_NOT_ALLOWED', 'PAYMENT_REQUIRED']).toContain(res.body.error.code);
    expect(list(await call(owner, 'get', '/staff.json')).count).toBe(1);
  });
});

// ---------------------------------------------------------------------------------------------
// Companies
// ---------------------------------------------------------------------------------------------

describe('POST /companies (create)', () => {
  test('creates with only a name: visibility defaults to private, user_uuids lists the owner', async () => {
    const owner = await t.newAccount();
    const created = single(
      await call(owner, 'post', '/companies.json', { company: { name: 'Acme Ltd' } }),
    );
    expectCompanyObject(created);
    expect(created).toMatchObject({
      name: 'Acme Ltd',
      visibility: 'private',
      longitude: null,
      latitude: null,
    });
    expect(created.user_uuids).toContain(owner.ownerId);
    for (const key of COMPANY_NULLABLE_TEXT) expect(created[key]).toBeNull();
    expect(single(await call(owner, 'get', `/companies/${created.uuid}.json`))).toEqual(created);
  });

  test('every writable field round-trips; a supplied uuid is used', async () => {
    const owner = await t.newAccount();
    const uuid = randomUUID();
    const fields = {
      uuid,
      name: 'Full Co',
      visibility: 'public',
      contact_salutation: 'Dr',
      contact_first_name: 'Fay',
      contact_last_name: 'Field',
      contact_email_address: 'fay@example.com',
      contact_position: 'CTO',
      contact_home_phone: '+44 1',
      contact_mobile_phone: '+44 2',
      website: 'https://example.com',
      main_phone: '+44 3',
      fax_phone: '+44 4',
      main_address: '1 High Street',
      main_city: 'Leeds',
      main_state: 'West Yorkshire',
      main_postcode: 'LS1 1AA',
      main_country: 'United Kingdom',
      notes: 'Some notes',
      longitude: -1.55,
      latitude: 53.8,
    };
    const created = single(await call(owner, 'post', '/companies.json', { company: fields }));
    expectCompanyObject(created);
    expect(created).toEqual({ ...fields, user_uuids: expect.arrayContaining([owner.ownerId]) });
  });

  test('a supplied uuid that already exists (here or in another account) is 422 and overwrites nothing', async () => {
    const owner = await t.newAccount();
    const other = await t.newAccount();
    const mine = await createCompany(owner, { name: 'Mine' });
    const theirs = await createCompany(other, { name: 'Theirs' });
    for (const uuid of [mine.uuid, theirs.uuid]) {
      const error = expectError(
        await call(owner, 'post', '/companies.json', { company: { uuid, name: 'Overwrite' } }),
        422,
        'VALIDATION_FAILED',
      );
      expect(fieldNames(error)).toEqual(['uuid']);
    }
    expect(single(await call(owner, 'get', `/companies/${mine.uuid}.json`))).toEqual(mine);
    expect(single(await call(other, 'get', `/companies/${theirs.uuid}.json`))).toEqual(theirs);
    expect(list(await call(owner, 'get', '/companies.json')).count).toBe(1);
  });

  test('accepts a form-encoded Rails-nested body (company[name]=X)', async () => {
    const owner = await t.newAccount();
    const res = await request(t.app.express)
      .post('/api/1/companies.json')
      .auth(owner.login, owner.password)
      .type('form')
      .send('company[name]=Form+Co&company[visibility]=public&company[notes]=a%26b');
    const created = single(res);
    expectCompanyObject(created);
    expect(created).toMatchObject({ name: 'Form Co', visibility: 'public', notes: 'a&b' });
    expect(single(await call(owner, 'get', `/companies/${created.uuid}.json`)).name).toBe(
      'Form Co',
    );
  });

  test('custom visibility with user_uuids: the listed staff member sees it, others do not', async () => {
    const owner = await t.newAccount();
    const listed = await t.newStaff(owner, { type: 'STAFF' });
    const unlisted = await t.newStaff(owner, { type: 'STAFF' });
    const created = await createCompany(owner, {
      name: 'Custom Co',
      visibility: 'custom',
      user_uuids: [listed.id],
    });
    expectCompanyObject(created);
    expect(created.visibility).toBe('custom');
    expect(created.user_uuids).toEqual(expect.arrayContaining([owner.ownerId, listed.id]));
    expect(created.user_uuids).not.toContain(unlisted.id);
    expect(new Set(created.user_uuids).size).toBe(created.user_uuids.length);

    const seen = single(await call(listed, 'get', `/companies/${created.uuid}.json`));
    expect(seen).toEqual(created);
    expect(list(await call(listed, 'get', '/companies.json')).items.map((c) => c.uuid)).toContain(
      created.uuid,
    );
    expectError(await call(unlisted, 'get', `/companies/${created.uuid}.json`), 404, 'NOT_FOUND');
    expect(
      list(await call(unlisted, 'get', '/companies.json')).items.map((c) => c.uuid),
    ).not.toContain(created.uuid);
  });

  test('a user of another account in user_uuids is refused (422) and nothing is created', async () => {
    const owner = await t.newAccount();
    const other = await t.newAccount();
    const name = unique('Refused');
    const res = await call(owner, 'post', '/companies.json', {
      company: { name, visibility: 'custom', user_uuids: [other.ownerId] },
    });
    expectError(res, 422, 'USER_NOT_ALLOWED');
    expect(list(await call(owner, 'get', '/companies.json')).count).toBe(0);
  });

  test('invalid values are 422 with field_errors in legacy names', async () => {
    const owner = await t.newAccount();
    const noName = expectError(
      await call(owner, 'post', '/companies.json', { company: { notes: 'nameless' } }),
      422,
      'VALIDATION_FAILED',
      'Invalid Record',
    );
    expect(fieldNames(noName)).toEqual(['name']);
    const blank = expectError(
      await call(owner, 'post', '/companies.json', { company: { name: '   ' } }),
      422,
      'VALIDATION_FAILED',
    );
    expect(fieldNames(blank)).toEqual(['name']);
    const vis = expectError(
      await call(owner, 'post', '/companies.json', {
        company: { name: 'V', visibility: 'secret' },
      }),
      422,
      'VALIDATION_FAILED',
    );
    expect(fieldNames(vis)).toEqual(['visibility']);
    const lat = expectError(
      await call(owner, 'post', '/companies.json', {
        company: { name: 'L', latitude: 123, longitude: 0 },
      }),
      422,
      'VALIDATION_FAILED',
    );
    expect(fieldNames(lat)).toEqual(['latitude']);
    expect(list(await call(owner, 'get', '/companies.json')).count).toBe(0);
  });

  test('a staff member gets 403 Create Denied (docs/permissions.md company-create) and nothing is stored', async () => {
    const owner = await t.newAccount();
    const member = await t.newStaff(owner, { type: 'STAFF' });
    expectError(
      await call(member, 'post', '/companies.json', {
        company: { name: 'Not Mine', visibility: 'public' },
      }),
      403,
      'CREATE_DENIED',
      'Create Denied',
    );
    expect(list(await call(owner, 'get', '/companies.json')).count).toBe(0);
  });

  test('a manager may create a company', async () => {
    const owner = await t.newAccount();
    const manager = await t.newStaff(owner, { type: 'MANAGER' });
    const created = await createCompany(manager, { name: 'Managed' });
    expectCompanyObject(created);
    expect(created.user_uuids).toContain(owner.ownerId);
    expect(list(await call(owner, 'get', '/companies.json')).items.map((c) => c.uuid)).toContain(
      created.uuid,
    );
  });
});

describe('GET /companies (list) and /companies/:uuid (show)', () => {
  test("lists the account's companies with count; show works with and without suffix", async () => {
    const owner = await t.newAccount();
    const other = await t.newAccount();
    const a = await createCompany(owner, { name: 'Alpha' });
    const b = await createCompany(owner, { name: 'Beta', visibility: 'public' });
    await createCompany(other, { name: 'Foreign' });

    const { items, count } = list(await call(owner, 'get', '/companies.json'));
    expect(count).toBe(2);
    items.forEach(expectCompanyObject);
    expect(items.map((c) => c.uuid).sort()).toEqual([a.uuid, b.uuid].sort());
    expect(list(await call(owner, 'get', '/companies'))).toEqual({ items, count });

    expect(single(await call(owner, 'get', `/companies/${b.uuid}.json`))).toEqual(b);
    expect(single(await call(owner, 'get', `/companies/${b.uuid}`))).toEqual(b);
  });

  test("a staff member lists public companies but not the owner's private ones", async () => {
    const owner = await t.newAccount();
    const member = await t.newStaff(owner, { type: 'STAFF' });
    const pub = await createCompany(owner, { visibility: 'public' });
    const priv = await createCompany(owner);
    const { items, count } = list(await call(member, 'get', '/companies.json'));
    expect(items.map((c) => c.uuid)).toEqual([pub.uuid]);
    expect(count).toBe(1);
    expectError(await call(member, 'get', `/companies/${priv.uuid}.json`), 404, 'NOT_FOUND');
  });

  test("another account's company uuid is 404 with a body identical to a missing uuid's", async () => {
    const owner = await t.newAccount();
    const other = await t.newAccount();
    const foreign = await createCompany(other, { name: 'Theirs', visibility: 'public' });
    const missingRes = await call(owner, 'get', `/companies/${randomUUID()}.json`);
    const foreignRes = await call(owner, 'get', `/companies/${foreign.uuid}.json`);
    const missing = expectError(missingRes, 404, 'NOT_FOUND', 'Record Not Found');
    const cross = expectError(foreignRes, 404, 'NOT_FOUND', 'Record Not Found');
    expect(cross).toEqual(missing);
    expect(foreignRes.text).not.toContain('Theirs');
    expect(Object.keys(foreignRes.headers).sort()).toEqual(Object.keys(missingRes.headers).sort());
    // Also for update and delete, and the company is unchanged afterwards.
    const put = expectError(
      await call(owner, 'put', `/companies/${foreign.uuid}.json`, {
        company: { name: 'Mine now' },
      }),
      404,
      'NOT_FOUND',
    );
    const putMissing = expectError(
      await call(owner, 'put', `/companies/${randomUUID()}.json`, {
        company: { name: 'Mine now' },
      }),
      404,
      'NOT_FOUND',
    );
    expect(put).toEqual(putMissing);
    const del = expectError(
      await call(owner, 'delete', `/companies/${foreign.uuid}.json`),
      404,
      'NOT_FOUND',
    );
    const delMissing = expectError(
      await call(owner, 'delete', `/companies/${randomUUID()}.json`),
      404,
      'NOT_FOUND',
    );
    expect(del).toEqual(delMissing);
    expect(single(await call(other, 'get', `/companies/${foreign.uuid}.json`))).toEqual(foreign);
  });
});

describe('PUT /companies/:uuid (update)', () => {
  test('merges: omitted fields are kept; 200 with the object', async () => {
    const owner = await t.newAccount();
    const company = await createCompany(owner, {
      name: 'Merge Co',
      website: 'https://merge.example',
      main_city: 'York',
      visibility: 'public',
    });
    const updated = single(
      await call(owner, 'put', `/companies/${company.uuid}.json`, {
        company: { notes: 'added later' },
      }),
    );
    expectCompanyObject(updated);
    expect(updated).toEqual({ ...company, notes: 'added later' });
    expect(single(await call(owner, 'get', `/companies/${company.uuid}.json`))).toEqual(updated);

    const renamed = single(
      await call(owner, 'put', `/companies/${company.uuid}`, {
        company: { name: 'Merged Co', website: null },
      }),
    );
    expect(renamed).toEqual({ ...updated, name: 'Merged Co', website: null });
  });

  test('the object as shown can be sent back with one change (clients PUT whole objects)', async () => {
    const owner = await t.newAccount();
    const company = await createCompany(owner, {
      name: 'Round',
      visibility: 'public',
      main_city: 'Bath',
    });
    const updated = single(
      await call(owner, 'put', `/companies/${company.uuid}.json`, {
        company: { ...company, name: 'Trip' },
      }),
    );
    expect(updated).toEqual({ ...company, name: 'Trip' });
  });

  test('switching to custom with user_uuids lets the listed user see it', async () => {
    const owner = await t.newAccount();
    const member = await t.newStaff(owner, { type: 'STAFF' });
    const company = await createCompany(owner);
    expectError(await call(member, 'get', `/companies/${company.uuid}.json`), 404, 'NOT_FOUND');
    const updated = single(
      await call(owner, 'put', `/companies/${company.uuid}.json`, {
        company: { visibility: 'custom', user_uuids: [member.id] },
      }),
    );
    expect(updated.visibility).toBe('custom');
    expect(updated.user_uuids).toEqual(expect.arrayContaining([owner.ownerId, member.id]));
    expect(single(await call(member, 'get', `/companies/${company.uuid}.json`)).uuid).toBe(
      company.uuid,
    );
  });

  test('invalid update is 422 and changes nothing; a staff member gets 403 Update Denied on a visible company', async () => {
    const owner = await t.newAccount();
    const member = await t.newStaff(owner, { type: 'STAFF' });
    const company = await createCompany(owner, { name: 'Stable', visibility: 'public' });
    const error = expectError(
      await call(owner, 'put', `/companies/${company.uuid}.json`, {
        company: { name: '', notes: 'x' },
      }),
      422,
      'VALIDATION_FAILED',
    );
    expect(fieldNames(error)).toEqual(['name']);
    expectError(
      await call(member, 'put', `/companies/${company.uuid}.json`, { company: { name: 'Mine' } }),
      403,
      'UPDATE_DENIED',
      'Update Denied',
    );
    expect(single(await call(owner, 'get', `/companies/${company.uuid}.json`))).toEqual(company);
  });
});

describe('DELETE /companies/:uuid', () => {
  test('deletes: 200 with the object, then 404 and gone from the list', async () => {
    const owner = await t.newAccount();
    const keep = await createCompany(owner, { name: 'Keep' });
    const company = await createCompany(owner, { name: 'Doomed' });
    const deleted = single(await call(owner, 'delete', `/companies/${company.uuid}.json`));
    expectCompanyObject(deleted);
    expect(deleted).toMatchObject({ uuid: company.uuid, name: 'Doomed' });
    expectError(await call(owner, 'get', `/companies/${company.uuid}.json`), 404, 'NOT_FOUND');
    const { items, count } = list(await call(owner, 'get', '/companies.json'));
    expect(count).toBe(1);
    expect(items.map((c) => c.uuid)).toEqual([keep.uuid]);
    expectError(await call(owner, 'delete', `/companies/${company.uuid}`), 404, 'NOT_FOUND');
  });

  test('a staff member gets 403 Delete Denied on a visible company, which survives', async () => {
    const owner = await t.newAccount();
    const member = await t.newStaff(owner, { type: 'STAFF' });
    const company = await createCompany(owner, { visibility: 'public' });
    expectError(
      await call(member, 'delete', `/companies/${company.uuid}.json`),
      403,
      'DELETE_DENIED',
      'Delete Denied',
    );
    expect(single(await call(owner, 'get', `/companies/${company.uuid}.json`)).uuid).toBe(
      company.uuid,
    );
  });
});

describe('whole records sent back unchanged', () => {
  test('a staff member may PUT back its own record with one self-editable change', async () => {
    const owner = await t.newAccount();
    const member = await t.newStaff(owner, { type: 'STAFF' });
    const http = request(t.app.express);
    const mine = (
      await http.get(`/api/1/staff/${member.id}.json`).auth(member.login, member.password)
    ).body.response;
    const put = await http
      .put(`/api/1/staff/${member.id}.json`)
      .auth(member.login, member.password)
      .send({ staff: { ...mine, first_name: 'Renamed' } });
    expect(put.status).toBe(200);
    expect(put.body.response).toMatchObject({
      first_name: 'Renamed',
      type: 'staff',
      active: 'true',
    });
    const promote = await http
      .put(`/api/1/staff/${member.id}.json`)
      .auth(member.login, member.password)
      .send({ staff: { ...mine, type: 'manager' } });
    expect(promote.status).toBe(403);
  });
});
