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
  // A request that cannot get a database connection fails after this long instead of 10 s, so the
  // known connection bug below fails its tests quickly.
  t = await startTestApp();
});
afterAll(() => t?.close());

/**
 * Known bug: a manager's or staff member's write that checks company visibility inside its
 * transaction reads their CUSTOM memberships through the request's own EntityManager, i.e. on a
 * second connection. The embedded database has one connection, so the request waits for the
 * acquire timeout and answers SERVICE_UNAVAILABLE. On a PostgreSQL server (TEST_DATABASE_URL) the
 * pool has room and these tests pass.
 */

const COMPANY_FIELDS = `id legacyId name visibility
  contactSalutation contactFirstName contactLastName contactEmailAddress contactPosition contactHomePhone contactMobilePhone
  website mainPhone faxPhone mainAddress mainCity mainState mainPostcode mainCountry notes latitude longitude`;

const CREATE = `mutation($input: CreateCompanyInput!) { createCompany(input: $input) { company { ${COMPANY_FIELDS} } } }`;
const UPDATE = `mutation($ref: CompanyRef!, $input: CompanyInput!) {
  updateCompany(input: { company: $ref, patch: $input }) { company { ${COMPANY_FIELDS} } }
}`;
const GET = `query($id: ID, $legacyId: Int) { company(id: $id, legacyId: $legacyId) { ${COMPANY_FIELDS} } }`;
const DELETE = `mutation($ref: CompanyRef!) { deleteCompany(input: { company: $ref }) { company { id legacyId name } } }`;
const LIST = `query($filter: CompanyFilter, $order: [CompanyOrder!], $first: Int, $after: String) {
  companies(filter: $filter, order: $order, first: $first, after: $after) {
    totalCount
    pageInfo { hasNextPage endCursor }
    nodes { id name }
  }
}`;
const USERS = `query($id: ID) { company(id: $id) { id visibility users { id legacyId login } } }`;

/** Every nullable field of a company, unset. */
const EMPTY = {
  visibility: 'PRIVATE',
  contactSalutation: null,
  contactFirstName: null,
  contactLastName: null,
  contactEmailAddress: null,
  contactPosition: null,
  contactHomePhone: null,
  contactMobilePhone: null,
  website: null,
  mainPhone: null,
  faxPhone: null,
  mainAddress: null,
  mainCity: null,
  mainState: null,
  mainPostcode: null,
  mainCountry: null,
  notes: null,
  latitude: null,
  longitude: null,
};

const FULL = {
  name: 'Acme Anvils',
  visibility: 'PUBLIC',
  contactSalutation: 'Ms',
  contactFirstName: 'Wilma',
  contactLastName: 'Coyote',
  contactEmailAddress: 'wilma@acme.example',
  contactPosition: 'Buyer',
  contactHomePhone: '+1 555 0100',
  contactMobilePhone: '+1 555 0101',
  website: 'https://acme.example',
  mainPhone: '+1 555 0102',
  faxPhone: '+1 555 0103',
  mainAddress: '1 Desert Road',
  mainCity: 'Phoenix',
  mainState: 'AZ',
  mainPostcode: '85001',
  mainCountry: 'USA',
  notes: 'Pays late.\nLikes rockets.',
  latitude: 33.4484,
  longitude: -112.074,
};

async function create(who: Credentials, input: Record<string, unknown>) {
  const data = await t.gqlOk(who, CREATE, { input });
  return data.createCompany.company as Record<string, unknown> & {
    id: string;
    legacyId: number;
    name: string;
  };
}

async function names(who: Credentials, variables: Record<string, unknown>): Promise<string[]> {
  const data = await t.gqlOk(who, LIST, variables);
  return data.companies.nodes.map((n: { name: string }) => n.name);
}

describe('create and read', () => {
  test('creates a company with only a name: PRIVATE and every other field null', async () => {
    const owner = await t.newAccount();
    const created = await create(owner, { name: 'Plain' });
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      legacyId: expect.any(Number),
      name: 'Plain',
      ...EMPTY,
    });
    expect((await t.gqlOk(owner, GET, { id: created.id })).company).toEqual(created);
    expect((await t.gqlOk(owner, GET, { legacyId: created.legacyId })).company).toEqual(created);
  });

  test('creates a company with every field and a caller-supplied uuid', async () => {
    const owner = await t.newAccount();
    const id = randomUUID();
    const created = await create(owner, { id, ...FULL });
    expect(created).toEqual({ id, legacyId: expect.any(Number), ...FULL });
    expect((await t.gqlOk(owner, GET, { id })).company).toEqual(created);
    expect((await t.gqlOk(owner, GET, { legacyId: created.legacyId })).company).toEqual(created);
  });

  test('the name is trimmed', async () => {
    const owner = await t.newAccount();
    expect((await create(owner, { name: '  Spacey Ltd  ' })).name).toBe('Spacey Ltd');
  });

  test('another account cannot see the company', async () => {
    const owner = await t.newAccount();
    const other = await t.newAccount();
    const c = await create(owner, { name: 'Secret', visibility: 'PUBLIC' });
    expect(codes(await t.gql(other, GET, { id: c.id }))).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(other, GET, { legacyId: c.legacyId }))).toEqual(['NOT_FOUND']);
    expect((await t.gqlOk(other, LIST, {})).companies.totalCount).toBe(0);
    expect(
      codes(await t.gql(other, UPDATE, { ref: { id: c.id }, input: { name: 'Mine' } })),
    ).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(other, DELETE, { ref: { id: c.id } }))).toEqual(['NOT_FOUND']);
    expect((await t.gqlOk(owner, GET, { id: c.id })).company.name).toBe('Secret');
  });
});

describe('list: filter, order, pages', () => {
  let owner: Credentials;
  beforeAll(async () => {
    owner = await t.newAccount();
    const rows = [
      {
        name: 'alpha gmbh',
        mainCity: 'Berlin',
        mainCountry: 'DE',
        visibility: 'PUBLIC',
        latitude: 52.52,
        website: 'https://alpha.example',
      },
      {
        name: 'bravo ltd',
        mainCity: 'London',
        mainCountry: 'UK',
        visibility: 'PRIVATE',
        latitude: 51.5,
      },
      {
        name: 'charlie sarl',
        mainCity: 'Paris',
        mainCountry: 'FR',
        visibility: 'CUSTOM',
        latitude: 48.85,
        website: 'https://charlie.example',
      },
      { name: 'delta gmbh', mainCity: 'BERLIN', mainCountry: 'DE', visibility: 'PUBLIC' },
      {
        name: 'echo inc',
        mainCity: null,
        mainCountry: 'US',
        visibility: 'PRIVATE',
        latitude: 40.71,
      },
    ];
    for (const row of rows) await create(owner, row);
  });

  test('eq, ne and in', async () => {
    expect(
      await names(owner, { filter: { mainCountry: { eq: 'DE' } }, order: [{ field: 'NAME' }] }),
    ).toEqual(['alpha gmbh', 'delta gmbh']);
    expect(
      await names(owner, { filter: { visibility: { ne: 'PRIVATE' } }, order: [{ field: 'NAME' }] }),
    ).toEqual(['alpha gmbh', 'charlie sarl', 'delta gmbh']);
    expect(
      await names(owner, {
        filter: { mainCountry: { in: ['UK', 'US'] } },
        order: [{ field: 'NAME' }],
      }),
    ).toEqual(['bravo ltd', 'echo inc']);
    expect(
      await names(owner, {
        filter: { visibility: { in: ['CUSTOM', 'PRIVATE'] } },
        order: [{ field: 'NAME' }],
      }),
    ).toEqual(['bravo ltd', 'charlie sarl', 'echo inc']);
  });

  test('like is case-insensitive', async () => {
    expect(
      await names(owner, { filter: { mainCity: { like: 'berlin' } }, order: [{ field: 'NAME' }] }),
    ).toEqual(['alpha gmbh', 'delta gmbh']);
    expect(
      await names(owner, { filter: { name: { like: '%GMBH' } }, order: [{ field: 'NAME' }] }),
    ).toEqual(['alpha gmbh', 'delta gmbh']);
    expect(await names(owner, { filter: { name: { like: '_ravo%' } } })).toEqual(['bravo ltd']);
  });

  test('lt, gt and isNull', async () => {
    expect(
      await names(owner, { filter: { latitude: { gt: 45, lt: 52 } }, order: [{ field: 'NAME' }] }),
    ).toEqual(['bravo ltd', 'charlie sarl']);
    expect(await names(owner, { filter: { latitude: { lt: 45 } } })).toEqual(['echo inc']);
    expect(await names(owner, { filter: { latitude: { isNull: true } } })).toEqual(['delta gmbh']);
    expect(await names(owner, { filter: { mainCity: { isNull: true } } })).toEqual(['echo inc']);
    expect(
      await names(owner, { filter: { website: { isNull: false } }, order: [{ field: 'NAME' }] }),
    ).toEqual(['alpha gmbh', 'charlie sarl']);
    expect(
      await names(owner, { filter: { name: { gt: 'charlie sarl' } }, order: [{ field: 'NAME' }] }),
    ).toEqual(['delta gmbh', 'echo inc']);
  });

  test('and, or, not', async () => {
    expect(
      await names(owner, {
        filter: { and: [{ mainCountry: { eq: 'DE' } }, { latitude: { isNull: false } }] },
      }),
    ).toEqual(['alpha gmbh']);
    expect(
      await names(owner, {
        filter: { or: [{ mainCountry: { eq: 'FR' } }, { mainCountry: { eq: 'US' } }] },
        order: [{ field: 'NAME' }],
      }),
    ).toEqual(['charlie sarl', 'echo inc']);
    expect(
      await names(owner, {
        filter: { not: { mainCountry: { in: ['DE', 'UK'] } } },
        order: [{ field: 'NAME' }],
      }),
    ).toEqual(['charlie sarl', 'echo inc']);
    expect(
      await names(owner, {
        filter: {
          or: [
            { and: [{ visibility: { eq: 'PUBLIC' } }, { not: { latitude: { isNull: true } } }] },
            { name: { eq: 'echo inc' } },
          ],
        },
        order: [{ field: 'NAME' }],
      }),
    ).toEqual(['alpha gmbh', 'echo inc']);
  });

  test('orders ascending and descending', async () => {
    expect(await names(owner, { order: [{ field: 'NAME', direction: 'ASC' }] })).toEqual([
      'alpha gmbh',
      'bravo ltd',
      'charlie sarl',
      'delta gmbh',
      'echo inc',
    ]);
    expect(await names(owner, { order: [{ field: 'NAME', direction: 'DESC' }] })).toEqual([
      'echo inc',
      'delta gmbh',
      'charlie sarl',
      'bravo ltd',
      'alpha gmbh',
    ]);
    expect(
      await names(owner, {
        order: [
          { field: 'MAIN_COUNTRY', direction: 'DESC' },
          { field: 'NAME', direction: 'DESC' },
        ],
      }),
    ).toEqual(['echo inc', 'bravo ltd', 'charlie sarl', 'delta gmbh', 'alpha gmbh']);
    // Without an order the rows come in creation (id) order.
    expect(await names(owner, {})).toEqual([
      'alpha gmbh',
      'bravo ltd',
      'charlie sarl',
      'delta gmbh',
      'echo inc',
    ]);
  });

  test('pages with first/after, totalCount and pageInfo', async () => {
    const order = [{ field: 'NAME', direction: 'DESC' }];
    const p1 = (await t.gqlOk(owner, LIST, { order, first: 2 })).companies;
    expect(p1.totalCount).toBe(5);
    expect(p1.nodes.map((n: { name: string }) => n.name)).toEqual(['echo inc', 'delta gmbh']);
    expect(p1.pageInfo.hasNextPage).toBe(true);
    const p2 = (await t.gqlOk(owner, LIST, { order, first: 2, after: p1.pageInfo.endCursor }))
      .companies;
    expect(p2.nodes.map((n: { name: string }) => n.name)).toEqual(['charlie sarl', 'bravo ltd']);
    expect(p2.pageInfo.hasNextPage).toBe(true);
    expect(p2.totalCount).toBe(5);
    const p3 = (await t.gqlOk(owner, LIST, { order, first: 2, after: p2.pageInfo.endCursor }))
      .companies;
    expect(p3.nodes.map((n: { name: string }) => n.name)).toEqual(['alpha gmbh']);
    expect(p3.pageInfo.hasNextPage).toBe(false);
    expect(p3.pageInfo.endCursor).toEqual(expect.any(String));
    // A filtered list pages over the filtered rows only.
    const f1 = (
      await t.gqlOk(owner, LIST, { filter: { mainCountry: { eq: 'DE' } }, order, first: 1 })
    ).companies;
    expect(f1.totalCount).toBe(2);
    expect(f1.nodes.map((n: { name: string }) => n.name)).toEqual(['delta gmbh']);
    expect(f1.pageInfo.hasNextPage).toBe(true);
  });

  test('a malformed id in a filter or a bad cursor is VALIDATION_FAILED', async () => {
    expect(onlyError(await t.gql(owner, LIST, { filter: { id: { in: ['nope'] } } }))).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['filter.id.in'],
    });
    expect(onlyError(await t.gql(owner, LIST, { after: 'garbage' }))).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['after'],
    });
  });
});

describe('update', () => {
  test('merges: omitted fields are kept, explicit null clears nullable fields', async () => {
    const owner = await t.newAccount();
    const c = await create(owner, FULL);
    const renamed = await t.gqlOk(owner, UPDATE, {
      ref: { id: c.id },
      input: { name: 'Acme Rockets', mainCity: 'Tucson' },
    });
    expect(renamed.updateCompany.company).toEqual({
      ...c,
      name: 'Acme Rockets',
      mainCity: 'Tucson',
    });
    const cleared = await t.gqlOk(owner, UPDATE, {
      ref: { legacyId: c.legacyId },
      input: {
        notes: null,
        website: null,
        latitude: null,
        longitude: null,
        contactFirstName: null,
      },
    });
    const expected = {
      ...c,
      name: 'Acme Rockets',
      mainCity: 'Tucson',
      notes: null,
      website: null,
      latitude: null,
      longitude: null,
      contactFirstName: null,
    };
    expect(cleared.updateCompany.company).toEqual(expected);
    expect((await t.gqlOk(owner, GET, { id: c.id })).company).toEqual(expected);
    // An empty input changes nothing.
    expect(
      (await t.gqlOk(owner, UPDATE, { ref: { id: c.id }, input: {} })).updateCompany.company,
    ).toEqual(expected);
  });

  test('null or blank for the name is refused and changes nothing', async () => {
    const owner = await t.newAccount();
    const c = await create(owner, { name: 'Keeper', mainCity: 'Rome' });
    expect(
      onlyError(await t.gql(owner, UPDATE, { ref: { id: c.id }, input: { name: null } })),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['name'],
    });
    expect(
      onlyError(
        await t.gql(owner, UPDATE, { ref: { id: c.id }, input: { name: ' ', mainCity: 'Milan' } }),
      ),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['name'],
    });
    expect(
      onlyError(await t.gql(owner, UPDATE, { ref: { id: c.id }, input: { visibility: null } })),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['visibility'],
    });
    expect((await t.gqlOk(owner, GET, { id: c.id })).company).toEqual(c);
  });

  test('a staff member cannot create companies', async () => {
    const owner = await t.newAccount();
    const member = await t.newStaff(owner);
    expect(codes(await t.gql(member, CREATE, { input: { name: 'Nope' } }))).toEqual([
      'CREATE_DENIED',
    ]);
    expect((await t.gqlOk(owner, LIST, {})).companies.totalCount).toBe(0);
  });

  test('a staff member cannot update or delete a company they see', async () => {
    const owner = await t.newAccount();
    const member = await t.newStaff(owner);
    const c = await create(owner, { name: 'Public Co', visibility: 'PUBLIC' });
    expect(
      codes(await t.gql(member, UPDATE, { ref: { id: c.id }, input: { name: 'Mine' } })),
    ).toEqual(['UPDATE_DENIED']);
    expect(codes(await t.gql(member, DELETE, { ref: { id: c.id } }))).toEqual(['DELETE_DENIED']);
    expect((await t.gqlOk(owner, GET, { id: c.id })).company).toEqual(c);
  });

  test('a manager updates and deletes a company they created', async () => {
    const owner = await t.newAccount();
    const manager = await t.newStaff(owner, { type: 'MANAGER' });
    const c = await create(manager, { name: 'Managed', mainCity: 'Kyiv' });
    const updated = await t.gqlOk(manager, UPDATE, {
      ref: { id: c.id },
      input: { name: 'Managed Well' },
    });
    expect(updated.updateCompany.company).toEqual({ ...c, name: 'Managed Well' });
    await t.gqlOk(manager, DELETE, { ref: { id: c.id } });
    expect(codes(await t.gql(owner, GET, { id: c.id }))).toEqual(['NOT_FOUND']);
  });

  test('a manager cannot update a company they cannot see: NOT_FOUND', async () => {
    const owner = await t.newAccount();
    const manager = await t.newStaff(owner, { type: 'MANAGER' });
    const c = await create(owner, { name: 'Owners Private' });
    expect(
      codes(await t.gql(manager, UPDATE, { ref: { id: c.id }, input: { name: 'Taken' } })),
    ).toEqual(['NOT_FOUND']);
    expect((await t.gqlOk(owner, GET, { id: c.id })).company).toEqual(c);
  });
});

describe('visibility and users', () => {
  test('CUSTOM lists users by uuid or integer id; they see it, others do not', async () => {
    const owner = await t.newAccount();
    const listed = await t.newStaff(owner);
    const byLegacy = await t.newStaff(owner);
    const outsider = await t.newStaff(owner);
    const c = await t.gqlOk(
      owner,
      `mutation($input: CreateCompanyInput!) { createCompany(input: $input) { company { id users { id } } } }`,
      {
        input: {
          name: 'Custom Co',
          visibility: 'CUSTOM',
          userIds: [listed.id],
          userLegacyIds: [byLegacy.legacyId],
        },
      },
    );
    const id = c.createCompany.company.id as string;
    expect(c.createCompany.company.users.map((u: { id: string }) => u.id).sort()).toEqual(
      [listed.id, byLegacy.id].sort(),
    );
    const read = await t.gqlOk(owner, USERS, { id });
    expect(read.company.visibility).toBe('CUSTOM');
    expect(read.company.users.map((u: { legacyId: number }) => u.legacyId).sort()).toEqual(
      [listed.legacyId, byLegacy.legacyId].sort(),
    );

    expect((await t.gqlOk(listed, GET, { id })).company.name).toBe('Custom Co');
    expect((await t.gqlOk(byLegacy, LIST, {})).companies.nodes).toEqual([
      { id, name: 'Custom Co' },
    ]);
    expect(codes(await t.gql(outsider, GET, { id }))).toEqual(['NOT_FOUND']);
    expect((await t.gqlOk(outsider, LIST, {})).companies.totalCount).toBe(0);
  });

  test('updating userIds replaces the list; omitting it keeps the list; [] empties it', async () => {
    const owner = await t.newAccount();
    const a = await t.newStaff(owner);
    const b = await t.newStaff(owner);
    const c = await create(owner, { name: 'Listy', visibility: 'CUSTOM', userIds: [a.id] });
    await t.gqlOk(owner, UPDATE, { ref: { id: c.id }, input: { userIds: [b.id] } });
    expect(
      (await t.gqlOk(owner, USERS, { id: c.id })).company.users.map((u: { id: string }) => u.id),
    ).toEqual([b.id]);
    expect(codes(await t.gql(a, GET, { id: c.id }))).toEqual(['NOT_FOUND']);
    expect((await t.gqlOk(b, GET, { id: c.id })).company.id).toBe(c.id);
    await t.gqlOk(owner, UPDATE, { ref: { id: c.id }, input: { mainCity: 'Oslo' } });
    expect(
      (await t.gqlOk(owner, USERS, { id: c.id })).company.users.map((u: { id: string }) => u.id),
    ).toEqual([b.id]);
    await t.gqlOk(owner, UPDATE, { ref: { id: c.id }, input: { userIds: [] } });
    expect((await t.gqlOk(owner, USERS, { id: c.id })).company.users).toEqual([]);
    expect(codes(await t.gql(b, GET, { id: c.id }))).toEqual(['NOT_FOUND']);
  });

  test('PRIVATE is for the owner and the creator; PUBLIC for everyone in the account', async () => {
    const owner = await t.newAccount();
    const manager = await t.newStaff(owner, { type: 'MANAGER' });
    const member = await t.newStaff(owner);
    const own = await create(manager, { name: 'Managers Own' });
    const pub = await create(owner, { name: 'Everyones', visibility: 'PUBLIC' });
    const priv = await create(owner, { name: 'Owners Own' });
    expect((await t.gqlOk(owner, GET, { id: own.id })).company.name).toBe('Managers Own');
    expect((await t.gqlOk(manager, GET, { id: own.id })).company.name).toBe('Managers Own');
    expect(codes(await t.gql(manager, GET, { id: priv.id }))).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(member, GET, { id: own.id }))).toEqual(['NOT_FOUND']);
    expect((await t.gqlOk(member, LIST, {})).companies.nodes).toEqual([
      { id: pub.id, name: 'Everyones' },
    ]);
  });

  test('naming a user of another account is USER_NOT_ALLOWED and stores nothing', async () => {
    const owner = await t.newAccount();
    const other = await t.newAccount();
    const stranger = await t.newStaff(other);
    const byUuid = await t.gql(owner, CREATE, {
      input: { name: 'Leaky', visibility: 'CUSTOM', userIds: [stranger.id] },
    });
    expect(onlyError(byUuid).code).toBe('USER_NOT_ALLOWED');
    const byLegacy = await t.gql(owner, CREATE, {
      input: { name: 'Leaky', visibility: 'CUSTOM', userLegacyIds: [other.ownerLegacyId] },
    });
    expect(onlyError(byLegacy).code).toBe('USER_NOT_ALLOWED');
    const unknown = await t.gql(owner, CREATE, {
      input: { name: 'Leaky', visibility: 'CUSTOM', userIds: [randomUUID()] },
    });
    expect(onlyError(unknown).code).toBe('USER_NOT_ALLOWED');
    const malformed = await t.gql(owner, CREATE, {
      input: { name: 'Leaky', visibility: 'CUSTOM', userIds: ['nope'] },
    });
    expect(onlyError(malformed).code).toBe('USER_NOT_ALLOWED');
    expect(
      (await t.gqlOk(owner, LIST, { filter: { name: { eq: 'Leaky' } } })).companies.totalCount,
    ).toBe(0);

    const mine = await t.newStaff(owner);
    const c = await create(owner, { name: 'Kept', visibility: 'CUSTOM', userIds: [mine.id] });
    const update = await t.gql(owner, UPDATE, {
      ref: { id: c.id },
      input: { name: 'Changed', userIds: [mine.id, stranger.id] },
    });
    expect(onlyError(update).code).toBe('USER_NOT_ALLOWED');
    const after = await t.gqlOk(
      owner,
      `query($id: ID) { company(id: $id) { name users { id } } }`,
      { id: c.id },
    );
    expect(after.company).toEqual({ name: 'Kept', users: [{ id: mine.id }] });
  });
});

describe('delete', () => {
  test('deletes a company; reading it then is NOT_FOUND', async () => {
    const owner = await t.newAccount();
    const c = await create(owner, { name: 'Doomed' });
    const keep = await create(owner, { name: 'Survivor' });
    expect((await t.gqlOk(owner, DELETE, { ref: { id: c.id } })).deleteCompany.company).toEqual({
      id: c.id,
      legacyId: c.legacyId,
      name: 'Doomed',
    });
    expect(codes(await t.gql(owner, GET, { id: c.id }))).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(owner, GET, { legacyId: c.legacyId }))).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(owner, DELETE, { ref: { id: c.id } }))).toEqual(['NOT_FOUND']);
    expect((await t.gqlOk(owner, LIST, {})).companies.nodes).toEqual([
      { id: keep.id, name: 'Survivor' },
    ]);
  });

  test('deleting by integer id takes the projects with it', async () => {
    const owner = await t.newAccount();
    const c = await create(owner, { name: 'Parent' });
    const p = await t.gqlOk(
      owner,
      `mutation($input: CreateProjectInput!) { createProject(input: $input) { project { id } } }`,
      {
        input: { name: 'Child', companyId: c.id },
      },
    );
    await t.gqlOk(owner, DELETE, { ref: { legacyId: c.legacyId } });
    expect(
      codes(
        await t.gql(owner, `query($id: ID) { project(id: $id) { id } }`, {
          id: p.createProject.project.id,
        }),
      ),
    ).toEqual(['NOT_FOUND']);
  });
});

describe('bad input', () => {
  let owner: Credentials;
  beforeAll(async () => {
    owner = await t.newAccount();
  });

  test('a missing or blank name is VALIDATION_FAILED naming name', async () => {
    const missing = await t.gql(owner, CREATE, { input: { mainCity: 'Nowhere' } });
    expect(onlyError(missing)).toEqual({ code: 'VALIDATION_FAILED', fields: ['name'] });
    expect(missing.errors?.[0]?.extensions?.entity).toBe('Company');
    expect(onlyError(await t.gql(owner, CREATE, { input: { name: '' } }))).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['name'],
    });
    expect(onlyError(await t.gql(owner, CREATE, { input: { name: ' \t ' } }))).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['name'],
    });
    expect(onlyError(await t.gql(owner, CREATE, { input: { name: null } }))).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['name'],
    });
    expect((await t.gqlOk(owner, LIST, {})).companies.totalCount).toBe(0);
  });

  test('unknown and malformed ids are NOT_FOUND', async () => {
    expect(codes(await t.gql(owner, GET, { id: randomUUID() }))).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(owner, GET, { id: 'not-a-uuid' }))).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(owner, GET, { id: '' }))).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(owner, GET, { legacyId: 999_999_999 }))).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(owner, GET, { legacyId: -1 }))).toEqual(['NOT_FOUND']);
    expect(
      codes(await t.gql(owner, UPDATE, { ref: { id: randomUUID() }, input: { name: 'X' } })),
    ).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(owner, UPDATE, { ref: { id: '123' }, input: { name: 'X' } }))).toEqual(
      ['NOT_FOUND'],
    );
    expect(codes(await t.gql(owner, DELETE, { ref: { id: randomUUID() } }))).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(owner, DELETE, { ref: { id: 'garbage' } }))).toEqual(['NOT_FOUND']);
  });

  test('wrong GraphQL types are GRAPHQL_VALIDATION_FAILED or BAD_USER_INPUT', async () => {
    const inline = await t.gql(
      owner,
      'mutation { createCompany(input: { name: "X", latitude: "north" }) { company { id } } }',
    );
    expect(codes(inline)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(codes(await t.gql(owner, CREATE, { input: { name: 'X', latitude: 'north' } }))).toEqual([
      'BAD_USER_INPUT',
    ]);
    expect(
      codes(await t.gql(owner, CREATE, { input: { name: 'X', visibility: 'SECRET' } })),
    ).toEqual(['BAD_USER_INPUT']);
    expect(codes(await t.gql(owner, CREATE, { input: { name: ['X'] } }))).toEqual([
      'BAD_USER_INPUT',
    ]);
    expect(
      codes(await t.gql(owner, CREATE, { input: { name: 'X', userLegacyIds: ['one'] } })),
    ).toEqual(['BAD_USER_INPUT']);
    expect(codes(await t.gql(owner, CREATE, { input: { name: 'X', unknownField: 1 } }))).toEqual([
      'BAD_USER_INPUT',
    ]);
    expect(codes(await t.gql(owner, LIST, { filter: { latitude: { like: '5%' } } }))).toEqual([
      'BAD_USER_INPUT',
    ]);
    expect((await t.gqlOk(owner, LIST, {})).companies.totalCount).toBe(0);
  });

  test('coordinates out of range are VALIDATION_FAILED', async () => {
    const res = await t.gql(owner, CREATE, {
      input: { name: 'Far', latitude: 91, longitude: -181 },
    });
    const err = onlyError(res);
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(err.fields.sort()).toEqual(['latitude', 'longitude']);
  });

  test('a supplied uuid that exists is VALIDATION_FAILED and the existing company is unchanged', async () => {
    const existing = await create(owner, { name: 'First', mainCity: 'Vienna' });
    const res = await t.gql(owner, CREATE, {
      input: { id: existing.id, name: 'Second', mainCity: 'Graz' },
    });
    expect(onlyError(res)).toEqual({ code: 'VALIDATION_FAILED', fields: ['id'] });
    expect((await t.gqlOk(owner, GET, { id: existing.id })).company).toEqual(existing);
    const other = await t.newAccount();
    const cross = await t.gql(other, CREATE, {
      input: { id: existing.id.toUpperCase(), name: 'Cross' },
    });
    expect(onlyError(cross)).toEqual({ code: 'VALIDATION_FAILED', fields: ['id'] });
    expect((await t.gqlOk(owner, GET, { id: existing.id })).company).toEqual(existing);
    expect((await t.gqlOk(other, LIST, {})).companies.totalCount).toBe(0);
    expect(onlyError(await t.gql(owner, CREATE, { input: { id: 'abc', name: 'Bad id' } }))).toEqual(
      { code: 'VALIDATION_FAILED', fields: ['id'] },
    );
  });

  test('NUL characters are VALIDATION_FAILED', async () => {
    expect(onlyError(await t.gql(owner, CREATE, { input: { name: 'Nul\u0000Co' } }))).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['name'],
    });
    expect(
      onlyError(await t.gql(owner, CREATE, { input: { name: 'Ok', notes: '\u0000' } })),
    ).toEqual({ code: 'VALIDATION_FAILED', fields: ['notes'] });
    const c = await create(owner, { name: 'Clean', mainCity: 'Bern' });
    expect(
      onlyError(
        await t.gql(owner, UPDATE, { ref: { id: c.id }, input: { mainCity: 'B\u0000rn' } }),
      ),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['mainCity'],
    });
    expect((await t.gqlOk(owner, GET, { id: c.id })).company.mainCity).toBe('Bern');
    expect(onlyError(await t.gql(owner, LIST, { filter: { name: { like: '\u0000' } } }))).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['filter.name.like'],
    });
  });

  test('too-long strings are VALIDATION_FAILED', async () => {
    expect(onlyError(await t.gql(owner, CREATE, { input: { name: 'n'.repeat(256) } }))).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['name'],
    });
    expect(
      onlyError(await t.gql(owner, CREATE, { input: { name: 'Ok', website: 'w'.repeat(256) } })),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['website'],
    });
    expect(
      onlyError(await t.gql(owner, CREATE, { input: { name: 'Ok', notes: 'n'.repeat(10_001) } })),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['notes'],
    });
    const fits = await create(owner, { name: 'n'.repeat(255), notes: 'n'.repeat(10_000) });
    expect((fits.name as string).length).toBe(255);
    expect((fits.notes as string).length).toBe(10_000);
  });
});
