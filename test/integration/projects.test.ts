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
 * Known bug: a manager's or staff member's write that checks project/company visibility inside its
 * transaction reads their CUSTOM memberships through the request's own EntityManager, i.e. on a
 * second connection. The embedded database has one connection, so the request waits for the
 * acquire timeout and answers SERVICE_UNAVAILABLE. On a PostgreSQL server (TEST_DATABASE_URL) the
 * pool has room and these tests pass.
 */

const PROJECT_FIELDS = `id legacyId name active visibility timeLimit timeLimitString defaultTags tagList notes
  hourlyRate hourlyRateCents invoiceAmountCents billableByDefault company { id }`;

const CREATE = `mutation($input: CreateProjectInput!) { createProject(input: $input) { project { ${PROJECT_FIELDS} } } }`;
const UPDATE = `mutation($ref: ProjectRef!, $input: ProjectInput!) {
  updateProject(input: { project: $ref, patch: $input }) { project { ${PROJECT_FIELDS} } }
}`;
const GET = `query($id: ID, $legacyId: Int, $companyId: ID, $companyLegacyId: Int) {
  project(id: $id, legacyId: $legacyId, companyId: $companyId, companyLegacyId: $companyLegacyId) { ${PROJECT_FIELDS} }
}`;
const DELETE = `mutation($ref: ProjectRef!) { deleteProject(input: { project: $ref }) { project { id legacyId name } } }`;
const LIST = `query($filter: ProjectFilter, $order: [ProjectOrder!], $first: Int, $after: String, $companyId: ID, $companyLegacyId: Int) {
  projects(filter: $filter, order: $order, first: $first, after: $after, companyId: $companyId, companyLegacyId: $companyLegacyId) {
    totalCount
    pageInfo { hasNextPage endCursor }
    nodes { id name }
  }
}`;
const USERS = `query($id: ID) { project(id: $id) { id visibility users { id legacyId } } }`;

async function newCompany(
  who: Credentials,
  input: Record<string, unknown> = {},
): Promise<{ id: string; legacyId: number }> {
  const data = await t.gqlOk(
    who,
    `mutation($input: CreateCompanyInput!) { createCompany(input: $input) { company { id legacyId } } }`,
    {
      input: { name: `Company ${randomUUID().slice(0, 6)}`, visibility: 'PUBLIC', ...input },
    },
  );
  return data.createCompany.company;
}

async function create(who: Credentials, input: Record<string, unknown>) {
  const data = await t.gqlOk(who, CREATE, { input });
  return data.createProject.project as Record<string, unknown> & {
    id: string;
    legacyId: number;
    name: string;
  };
}

async function names(who: Credentials, variables: Record<string, unknown>): Promise<string[]> {
  const data = await t.gqlOk(who, LIST, variables);
  return data.projects.nodes.map((n: { name: string }) => n.name);
}

describe('create and read', () => {
  test('creates a project with only a name and a company; reads it by uuid and integer id', async () => {
    const owner = await t.newAccount();
    const company = await newCompany(owner);
    const created = await create(owner, { name: 'Website', companyId: company.id });
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      legacyId: expect.any(Number),
      name: 'Website',
      active: true,
      visibility: 'PRIVATE',
      timeLimit: null,
      timeLimitString: null,
      defaultTags: [],
      tagList: [],
      notes: null,
      hourlyRate: null,
      hourlyRateCents: null,
      invoiceAmountCents: null,
      billableByDefault: true,
      company: { id: company.id },
    });
    expect((await t.gqlOk(owner, GET, { id: created.id })).project).toEqual(created);
    expect((await t.gqlOk(owner, GET, { legacyId: created.legacyId })).project).toEqual(created);
    expect((await t.gqlOk(owner, GET, { id: created.id, companyId: company.id })).project).toEqual(
      created,
    );
    expect(
      (await t.gqlOk(owner, GET, { legacyId: created.legacyId, companyLegacyId: company.legacyId }))
        .project,
    ).toEqual(created);
  });

  test('creates a project with every field, a caller-supplied uuid and the company by integer id', async () => {
    const owner = await t.newAccount();
    const company = await newCompany(owner);
    const id = randomUUID();
    const input = {
      name: 'Rebrand',
      active: false,
      visibility: 'PUBLIC',
      timeLimit: 36_000,
      timeLimitString: '10h',
      defaultTags: ['design', 'design', 'web'],
      tagList: ['big'],
      notes: 'Due in spring',
      hourlyRate: '€95.00',
      hourlyRateCents: 9500,
      invoiceAmountCents: -1500,
      billableByDefault: false,
    };
    const created = await create(owner, { id, companyLegacyId: company.legacyId, ...input });
    expect(created).toEqual({
      id,
      legacyId: expect.any(Number),
      ...input,
      defaultTags: ['design', 'web'],
      company: { id: company.id },
    });
    expect((await t.gqlOk(owner, GET, { id })).project).toEqual(created);
  });

  test('a project read through another company is NOT_FOUND', async () => {
    const owner = await t.newAccount();
    const a = await newCompany(owner);
    const b = await newCompany(owner);
    const p = await create(owner, { name: 'In A', companyId: a.id });
    expect(codes(await t.gql(owner, GET, { id: p.id, companyId: b.id }))).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(owner, GET, { id: p.id, companyId: randomUUID() }))).toEqual([
      'NOT_FOUND',
    ]);
  });

  test('the company lists its projects', async () => {
    const owner = await t.newAccount();
    const company = await newCompany(owner);
    const other = await newCompany(owner);
    await create(owner, { name: 'one', companyId: company.id });
    await create(owner, { name: 'two', companyId: company.id, active: false });
    await create(owner, { name: 'elsewhere', companyId: other.id });
    const data = await t.gqlOk(
      owner,
      `query($id: ID) { company(id: $id) {
        all: projects(order: [{ field: NAME, direction: DESC }]) { totalCount nodes { name } }
        active: projects(filter: { active: { eq: true } }) { totalCount nodes { name } }
        page: projects(first: 1, order: [{ field: NAME }]) { totalCount pageInfo { hasNextPage } nodes { name } }
      } }`,
      { id: company.id },
    );
    expect(data.company).toEqual({
      all: { totalCount: 2, nodes: [{ name: 'two' }, { name: 'one' }] },
      active: { totalCount: 1, nodes: [{ name: 'one' }] },
      page: { totalCount: 2, pageInfo: { hasNextPage: true }, nodes: [{ name: 'one' }] },
    });
    expect(await names(owner, { companyId: company.id, order: [{ field: 'NAME' }] })).toEqual([
      'one',
      'two',
    ]);
    expect(await names(owner, { companyLegacyId: other.legacyId })).toEqual(['elsewhere']);
  });
});

describe('list: filter, order, pages', () => {
  let owner: Credentials;
  let north: { id: string; legacyId: number };
  let south: { id: string; legacyId: number };
  const made: Record<string, { id: string; legacyId: number }> = {};

  beforeAll(async () => {
    owner = await t.newAccount();
    north = await newCompany(owner);
    south = await newCompany(owner);
    const rows: Record<string, unknown>[] = [
      {
        name: 'apollo',
        companyId: north.id,
        timeLimit: 3600,
        hourlyRateCents: 5000,
        visibility: 'PUBLIC',
        notes: 'Moon Landing',
      },
      {
        name: 'bifrost',
        companyId: north.id,
        timeLimit: 7200,
        hourlyRateCents: null,
        active: false,
        billableByDefault: false,
      },
      {
        name: 'cygnus',
        companyId: south.id,
        timeLimit: null,
        hourlyRateCents: 7000,
        visibility: 'CUSTOM',
        notes: 'swan',
      },
      {
        name: 'draco',
        companyId: south.id,
        timeLimit: 10_800,
        hourlyRateCents: 6000,
        visibility: 'PUBLIC',
      },
    ];
    for (const row of rows) made[row.name as string] = await create(owner, row);
  });

  test('eq, ne, in and like', async () => {
    expect(await names(owner, { filter: { active: { eq: false } } })).toEqual(['bifrost']);
    expect(await names(owner, { filter: { billableByDefault: { ne: true } } })).toEqual([
      'bifrost',
    ]);
    expect(
      await names(owner, { filter: { companyId: { eq: south.id } }, order: [{ field: 'NAME' }] }),
    ).toEqual(['cygnus', 'draco']);
    expect(
      await names(owner, {
        filter: { companyLegacyId: { in: [north.legacyId] } },
        order: [{ field: 'NAME' }],
      }),
    ).toEqual(['apollo', 'bifrost']);
    expect(
      await names(owner, {
        filter: { visibility: { in: ['CUSTOM', 'PRIVATE'] } },
        order: [{ field: 'NAME' }],
      }),
    ).toEqual(['bifrost', 'cygnus']);
    expect(
      await names(owner, {
        filter: { id: { in: [made.apollo!.id, made.draco!.id] } },
        order: [{ field: 'NAME' }],
      }),
    ).toEqual(['apollo', 'draco']);
    expect(await names(owner, { filter: { notes: { like: '%LANDING' } } })).toEqual(['apollo']);
    expect(await names(owner, { filter: { name: { like: 'C%' } } })).toEqual(['cygnus']);
  });

  test('lt, gt and isNull', async () => {
    expect(await names(owner, { filter: { timeLimit: { gt: 3600, lt: 10_800 } } })).toEqual([
      'bifrost',
    ]);
    expect(
      await names(owner, { filter: { hourlyRateCents: { lt: 6500 } }, order: [{ field: 'NAME' }] }),
    ).toEqual(['apollo', 'draco']);
    expect(await names(owner, { filter: { timeLimit: { isNull: true } } })).toEqual(['cygnus']);
    expect(await names(owner, { filter: { hourlyRateCents: { isNull: true } } })).toEqual([
      'bifrost',
    ]);
    expect(
      await names(owner, { filter: { notes: { isNull: false } }, order: [{ field: 'NAME' }] }),
    ).toEqual(['apollo', 'cygnus']);
    expect(
      await names(owner, {
        filter: { legacyId: { gt: made.bifrost!.legacyId } },
        order: [{ field: 'NAME' }],
      }),
    ).toEqual(['cygnus', 'draco']);
  });

  test('and, or, not', async () => {
    expect(
      await names(owner, {
        filter: { and: [{ companyId: { eq: north.id } }, { active: { eq: true } }] },
      }),
    ).toEqual(['apollo']);
    expect(
      await names(owner, {
        filter: { or: [{ timeLimit: { isNull: true } }, { hourlyRateCents: { isNull: true } }] },
        order: [{ field: 'NAME' }],
      }),
    ).toEqual(['bifrost', 'cygnus']);
    expect(
      await names(owner, {
        filter: { not: { companyId: { eq: north.id } } },
        order: [{ field: 'NAME' }],
      }),
    ).toEqual(['cygnus', 'draco']);
    expect(
      await names(owner, {
        filter: {
          and: [
            { not: { visibility: { eq: 'PUBLIC' } } },
            { or: [{ active: { eq: false } }, { notes: { eq: 'swan' } }] },
          ],
        },
        order: [{ field: 'NAME', direction: 'DESC' }],
      }),
    ).toEqual(['cygnus', 'bifrost']);
  });

  test('orders ascending and descending', async () => {
    expect(await names(owner, { order: [{ field: 'NAME', direction: 'ASC' }] })).toEqual([
      'apollo',
      'bifrost',
      'cygnus',
      'draco',
    ]);
    expect(await names(owner, { order: [{ field: 'NAME', direction: 'DESC' }] })).toEqual([
      'draco',
      'cygnus',
      'bifrost',
      'apollo',
    ]);
    const withLimit = { timeLimit: { isNull: false } };
    expect(
      await names(owner, {
        filter: withLimit,
        order: [{ field: 'TIME_LIMIT', direction: 'DESC' }],
      }),
    ).toEqual(['draco', 'bifrost', 'apollo']);
    expect(await names(owner, { filter: withLimit, order: [{ field: 'TIME_LIMIT' }] })).toEqual([
      'apollo',
      'bifrost',
      'draco',
    ]);
    expect(
      await names(owner, { order: [{ field: 'ACTIVE' }, { field: 'NAME', direction: 'DESC' }] }),
    ).toEqual(['bifrost', 'draco', 'cygnus', 'apollo']);
  });

  test('pages with first/after, totalCount and pageInfo', async () => {
    const order = [{ field: 'NAME' }];
    const p1 = (await t.gqlOk(owner, LIST, { order, first: 3 })).projects;
    expect(p1.totalCount).toBe(4);
    expect(p1.nodes.map((n: { name: string }) => n.name)).toEqual(['apollo', 'bifrost', 'cygnus']);
    expect(p1.pageInfo.hasNextPage).toBe(true);
    const p2 = (await t.gqlOk(owner, LIST, { order, first: 3, after: p1.pageInfo.endCursor }))
      .projects;
    expect(p2.totalCount).toBe(4);
    expect(p2.nodes.map((n: { name: string }) => n.name)).toEqual(['draco']);
    expect(p2.pageInfo.hasNextPage).toBe(false);
    const filtered = (
      await t.gqlOk(owner, LIST, { filter: { companyId: { eq: north.id } }, order, first: 1 })
    ).projects;
    expect(filtered.totalCount).toBe(2);
    expect(filtered.pageInfo.hasNextPage).toBe(true);
    const next = (
      await t.gqlOk(owner, LIST, {
        filter: { companyId: { eq: north.id } },
        order,
        first: 1,
        after: filtered.pageInfo.endCursor,
      })
    ).projects;
    expect(next.nodes.map((n: { name: string }) => n.name)).toEqual(['bifrost']);
    expect(next.pageInfo.hasNextPage).toBe(false);
  });

  test('a malformed id in a filter is VALIDATION_FAILED; an unknown company is NOT_FOUND', async () => {
    expect(onlyError(await t.gql(owner, LIST, { filter: { companyId: { eq: 'north' } } }))).toEqual(
      {
        code: 'VALIDATION_FAILED',
        fields: ['filter.companyId.eq'],
      },
    );
    expect(codes(await t.gql(owner, LIST, { companyId: randomUUID() }))).toEqual(['NOT_FOUND']);
  });
});

describe('update', () => {
  test('merges: omitted fields are kept, explicit null clears nullable fields', async () => {
    const owner = await t.newAccount();
    const company = await newCompany(owner);
    const p = await create(owner, {
      name: 'Merge',
      companyId: company.id,
      timeLimit: 3600,
      timeLimitString: '1h',
      notes: 'keep?',
      hourlyRate: '$10',
      hourlyRateCents: 1000,
      invoiceAmountCents: 50_000,
      tagList: ['x'],
      defaultTags: ['d'],
    });
    const renamed = await t.gqlOk(owner, UPDATE, {
      ref: { id: p.id },
      input: { name: 'Merged', tagList: ['y', 'z'] },
    });
    expect(renamed.updateProject.project).toEqual({ ...p, name: 'Merged', tagList: ['y', 'z'] });
    const cleared = await t.gqlOk(owner, UPDATE, {
      ref: { legacyId: p.legacyId },
      input: {
        timeLimit: null,
        timeLimitString: null,
        notes: null,
        hourlyRate: null,
        hourlyRateCents: null,
        invoiceAmountCents: null,
      },
    });
    const expected = {
      ...p,
      name: 'Merged',
      tagList: ['y', 'z'],
      timeLimit: null,
      timeLimitString: null,
      notes: null,
      hourlyRate: null,
      hourlyRateCents: null,
      invoiceAmountCents: null,
    };
    expect(cleared.updateProject.project).toEqual(expected);
    expect((await t.gqlOk(owner, GET, { id: p.id })).project).toEqual(expected);
    expect(
      (await t.gqlOk(owner, UPDATE, { ref: { id: p.id }, input: {} })).updateProject.project,
    ).toEqual(expected);
  });

  test('moves a project to another company', async () => {
    const owner = await t.newAccount();
    const from = await newCompany(owner);
    const to = await newCompany(owner);
    const p = await create(owner, { name: 'Mover', companyId: from.id });
    expect(
      (await t.gqlOk(owner, UPDATE, { ref: { id: p.id }, input: { companyId: to.id } }))
        .updateProject.project.company,
    ).toEqual({ id: to.id });
    expect(await names(owner, { companyId: from.id })).toEqual([]);
    expect(await names(owner, { companyId: to.id })).toEqual(['Mover']);
    expect(
      (
        await t.gqlOk(owner, UPDATE, {
          ref: { id: p.id },
          input: { companyLegacyId: from.legacyId },
        })
      ).updateProject.project.company,
    ).toEqual({ id: from.id });
    const unknown = await t.gql(owner, UPDATE, {
      ref: { id: p.id },
      input: { companyId: randomUUID() },
    });
    expect(codes(unknown)).toEqual(['NOT_FOUND']);
    expect((await t.gqlOk(owner, GET, { id: p.id })).project.company).toEqual({ id: from.id });
  });

  test('null for required fields is refused and changes nothing', async () => {
    const owner = await t.newAccount();
    const company = await newCompany(owner);
    const p = await create(owner, { name: 'Strict', companyId: company.id, tagList: ['t'] });
    const res = await t.gql(owner, UPDATE, {
      ref: { id: p.id },
      input: { name: null, active: null, tagList: null, notes: 'changed' },
    });
    const err = onlyError(res);
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(err.fields.sort()).toEqual(['active', 'name', 'tagList']);
    expect((await t.gqlOk(owner, GET, { id: p.id })).project).toEqual(p);
  });

  test('a manager updates a project they created; a staff member may not', async () => {
    const owner = await t.newAccount();
    const manager = await t.newStaff(owner, { type: 'MANAGER' });
    const member = await t.newStaff(owner);
    const company = await newCompany(owner);
    const p = await create(owner, { name: 'Shared', companyId: company.id, visibility: 'PUBLIC' });
    const updated = await t.gqlOk(manager, UPDATE, {
      ref: { id: p.id },
      input: { notes: 'by the manager' },
    });
    expect(updated.updateProject.project).toEqual({ ...p, notes: 'by the manager' });
    expect(
      codes(await t.gql(member, UPDATE, { ref: { id: p.id }, input: { notes: 'by staff' } })),
    ).toEqual(['UPDATE_DENIED']);
    expect(codes(await t.gql(member, DELETE, { ref: { id: p.id } }))).toEqual(['DELETE_DENIED']);
    expect((await t.gqlOk(owner, GET, { id: p.id })).project.notes).toBe('by the manager');
  });
});

describe('visibility and users', () => {
  test('CUSTOM lists users by uuid or integer id; they see it, others do not', async () => {
    const owner = await t.newAccount();
    const company = await newCompany(owner);
    const a = await t.newStaff(owner);
    const b = await t.newStaff(owner);
    const outsider = await t.newStaff(owner);
    const created = await t.gqlOk(
      owner,
      `mutation($input: CreateProjectInput!) { createProject(input: $input) { project { id users { id } } } }`,
      {
        input: {
          name: 'Custom',
          companyId: company.id,
          visibility: 'CUSTOM',
          userIds: [a.id],
          userLegacyIds: [b.legacyId],
        },
      },
    );
    const id = created.createProject.project.id as string;
    expect(created.createProject.project.users.map((u: { id: string }) => u.id).sort()).toEqual(
      [a.id, b.id].sort(),
    );
    const read = await t.gqlOk(owner, USERS, { id });
    expect(read.project.visibility).toBe('CUSTOM');
    expect(read.project.users.map((u: { legacyId: number }) => u.legacyId).sort()).toEqual(
      [a.legacyId, b.legacyId].sort(),
    );
    expect((await t.gqlOk(a, GET, { id })).project.name).toBe('Custom');
    expect((await t.gqlOk(b, LIST, {})).projects.nodes).toEqual([{ id, name: 'Custom' }]);
    expect(codes(await t.gql(outsider, GET, { id }))).toEqual(['NOT_FOUND']);
    expect((await t.gqlOk(outsider, LIST, {})).projects.totalCount).toBe(0);

    await t.gqlOk(owner, UPDATE, { ref: { id }, input: { userIds: [outsider.id] } });
    expect(
      (await t.gqlOk(owner, USERS, { id })).project.users.map((u: { id: string }) => u.id),
    ).toEqual([outsider.id]);
    expect(codes(await t.gql(a, GET, { id }))).toEqual(['NOT_FOUND']);
    expect((await t.gqlOk(outsider, GET, { id })).project.name).toBe('Custom');
    await t.gqlOk(owner, UPDATE, { ref: { id }, input: { userLegacyIds: [] } });
    expect((await t.gqlOk(owner, USERS, { id })).project.users).toEqual([]);
  });

  test('naming a user of another account is USER_NOT_ALLOWED and stores nothing', async () => {
    const owner = await t.newAccount();
    const company = await newCompany(owner);
    const other = await t.newAccount();
    const stranger = await t.newStaff(other);
    const byUuid = await t.gql(owner, CREATE, {
      input: { name: 'Leaky', companyId: company.id, visibility: 'CUSTOM', userIds: [stranger.id] },
    });
    expect(onlyError(byUuid).code).toBe('USER_NOT_ALLOWED');
    const byLegacy = await t.gql(owner, CREATE, {
      input: {
        name: 'Leaky',
        companyId: company.id,
        visibility: 'CUSTOM',
        userLegacyIds: [stranger.legacyId],
      },
    });
    expect(onlyError(byLegacy).code).toBe('USER_NOT_ALLOWED');
    const malformed = await t.gql(owner, CREATE, {
      input: { name: 'Leaky', companyId: company.id, userIds: ['someone'] },
    });
    expect(onlyError(malformed).code).toBe('USER_NOT_ALLOWED');
    expect(await names(owner, {})).toEqual([]);

    const mine = await t.newStaff(owner);
    const p = await create(owner, {
      name: 'Kept',
      companyId: company.id,
      visibility: 'CUSTOM',
      userIds: [mine.id],
    });
    const update = await t.gql(owner, UPDATE, {
      ref: { id: p.id },
      input: { name: 'Changed', userLegacyIds: [other.ownerLegacyId] },
    });
    expect(onlyError(update).code).toBe('USER_NOT_ALLOWED');
    const after = await t.gqlOk(
      owner,
      `query($id: ID) { project(id: $id) { name users { id } } }`,
      { id: p.id },
    );
    expect(after.project).toEqual({ name: 'Kept', users: [{ id: mine.id }] });
  });
});

describe('delete', () => {
  test('deletes a project with its activities and shifts; the company stays', async () => {
    const owner = await t.newAccount();
    const company = await newCompany(owner);
    const p = await create(owner, { name: 'Doomed', companyId: company.id, timeLimit: 7200 });
    const keep = await create(owner, { name: 'Survivor', companyId: company.id });
    const activity = (
      await t.gqlOk(
        owner,
        `mutation($input: CreateActivityInput!) { createActivity(input: $input) { activity { id } } }`,
        {
          input: { name: 'Design', projectId: p.id },
        },
      )
    ).createActivity.activity.id as string;
    const shift = (
      await t.gqlOk(
        owner,
        `mutation($input: CreateShiftInput!) { createShift(input: $input) { shift { id } } }`,
        {
          input: {
            projectId: p.id,
            activityId: activity,
            start: '2026-02-01T09:00:00Z',
            stop: '2026-02-01T10:00:00Z',
          },
        },
      )
    ).createShift.shift.id as string;
    const keptShift = (
      await t.gqlOk(
        owner,
        `mutation($input: CreateShiftInput!) { createShift(input: $input) { shift { id } } }`,
        {
          input: {
            projectId: keep.id,
            start: '2026-02-01T11:00:00Z',
            stop: '2026-02-01T12:00:00Z',
          },
        },
      )
    ).createShift.shift.id as string;
    const totals = await t.gqlOk(
      owner,
      `query($id: ID) { project(id: $id) { grandTotal timeLeft overdue activities { id } } }`,
      { id: p.id },
    );
    expect(totals.project).toEqual({
      grandTotal: 3600,
      timeLeft: 3600,
      overdue: false,
      activities: [{ id: activity }],
    });

    expect((await t.gqlOk(owner, DELETE, { ref: { id: p.id } })).deleteProject.project).toEqual({
      id: p.id,
      legacyId: p.legacyId,
      name: 'Doomed',
    });
    expect(codes(await t.gql(owner, GET, { id: p.id }))).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(owner, GET, { legacyId: p.legacyId }))).toEqual(['NOT_FOUND']);
    expect(
      codes(await t.gql(owner, `query($id: ID) { activity(id: $id) { id } }`, { id: activity })),
    ).toEqual(['NOT_FOUND']);
    expect(
      codes(await t.gql(owner, `query($id: ID) { shift(id: $id) { id } }`, { id: shift })),
    ).toEqual(['NOT_FOUND']);
    const shifts = await t.gqlOk(
      owner,
      '{ shifts { totalCount nodes { id } } activities { totalCount } }',
    );
    expect(shifts).toEqual({
      shifts: { totalCount: 1, nodes: [{ id: keptShift }] },
      activities: { totalCount: 0 },
    });
    expect(await names(owner, {})).toEqual(['Survivor']);
    expect(
      (await t.gqlOk(owner, `query($id: ID) { company(id: $id) { id } }`, { id: company.id }))
        .company.id,
    ).toBe(company.id);
    expect(codes(await t.gql(owner, DELETE, { ref: { id: p.id } }))).toEqual(['NOT_FOUND']);
  });

  test('deletes by integer id', async () => {
    const owner = await t.newAccount();
    const company = await newCompany(owner);
    const p = await create(owner, { name: 'ByInt', companyId: company.id });
    expect(
      (await t.gqlOk(owner, DELETE, { ref: { legacyId: p.legacyId } })).deleteProject.project.id,
    ).toBe(p.id);
    expect(codes(await t.gql(owner, GET, { id: p.id }))).toEqual(['NOT_FOUND']);
  });
});

describe('bad input', () => {
  let owner: Credentials;
  let company: { id: string; legacyId: number };
  beforeAll(async () => {
    owner = await t.newAccount();
    company = await newCompany(owner);
  });

  test('a missing or blank name is VALIDATION_FAILED naming name', async () => {
    const missing = await t.gql(owner, CREATE, { input: { companyId: company.id } });
    expect(onlyError(missing)).toEqual({ code: 'VALIDATION_FAILED', fields: ['name'] });
    expect(missing.errors?.[0]?.extensions?.entity).toBe('Project');
    expect(
      onlyError(await t.gql(owner, CREATE, { input: { name: '  ', companyId: company.id } })),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['name'],
    });
    expect(await names(owner, {})).toEqual([]);
  });

  test('a missing company is VALIDATION_FAILED naming companyId; an unknown or malformed one is NOT_FOUND', async () => {
    expect(onlyError(await t.gql(owner, CREATE, { input: { name: 'Orphan' } }))).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['companyId'],
    });
    expect(
      onlyError(
        await t.gql(owner, CREATE, {
          input: { name: 'Twice', companyId: company.id, companyLegacyId: company.legacyId },
        }),
      ),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['companyId'],
    });
    expect(
      codes(await t.gql(owner, CREATE, { input: { name: 'Orphan', companyId: randomUUID() } })),
    ).toEqual(['NOT_FOUND']);
    expect(
      codes(await t.gql(owner, CREATE, { input: { name: 'Orphan', companyId: 'acme' } })),
    ).toEqual(['NOT_FOUND']);
    expect(
      codes(await t.gql(owner, CREATE, { input: { name: 'Orphan', companyLegacyId: 0 } })),
    ).toEqual(['NOT_FOUND']);
    const other = await t.newAccount();
    const foreign = await newCompany(other);
    expect(
      codes(await t.gql(owner, CREATE, { input: { name: 'Orphan', companyId: foreign.id } })),
    ).toEqual(['NOT_FOUND']);
    expect(await names(owner, {})).toEqual([]);
  });

  test('unknown and malformed ids are NOT_FOUND', async () => {
    expect(codes(await t.gql(owner, GET, { id: randomUUID() }))).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(owner, GET, { id: 'not-a-uuid' }))).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(owner, GET, { legacyId: 2_147_483_647 }))).toEqual(['NOT_FOUND']);
    expect(
      codes(await t.gql(owner, UPDATE, { ref: { id: randomUUID() }, input: { name: 'X' } })),
    ).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(owner, UPDATE, { ref: { id: 'xyz' }, input: { name: 'X' } }))).toEqual(
      ['NOT_FOUND'],
    );
    expect(codes(await t.gql(owner, DELETE, { ref: { id: randomUUID() } }))).toEqual(['NOT_FOUND']);
    expect(
      codes(await t.gql(owner, DELETE, { ref: { id: '00000000-0000-0000-0000-00000000000g' } })),
    ).toEqual(['NOT_FOUND']);
  });

  test('wrong GraphQL types are GRAPHQL_VALIDATION_FAILED or BAD_USER_INPUT', async () => {
    expect(
      codes(
        await t.gql(
          owner,
          `mutation { createProject(input: { name: "X", timeLimit: "1h" }) { project { id } } }`,
        ),
      ),
    ).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(
      codes(
        await t.gql(owner, CREATE, {
          input: { name: 'X', companyId: company.id, timeLimit: '1h' },
        }),
      ),
    ).toEqual(['BAD_USER_INPUT']);
    expect(
      codes(
        await t.gql(owner, CREATE, { input: { name: 'X', companyId: company.id, active: 'yes' } }),
      ),
    ).toEqual(['BAD_USER_INPUT']);
    expect(
      codes(
        await t.gql(owner, CREATE, {
          input: { name: 'X', companyId: company.id, hourlyRateCents: 12.5 },
        }),
      ),
    ).toEqual(['BAD_USER_INPUT']);
    expect(
      codes(
        await t.gql(owner, CREATE, {
          input: { name: 'X', companyId: company.id, tagList: ['ok', null] },
        }),
      ),
    ).toEqual(['BAD_USER_INPUT']);
    expect(codes(await t.gql(owner, LIST, { order: [{ field: 'COLOUR' }] }))).toEqual([
      'BAD_USER_INPUT',
    ]);
    expect(await names(owner, {})).toEqual([]);
  });

  test('out-of-range numbers and bad tags are VALIDATION_FAILED', async () => {
    const res = await t.gql(owner, CREATE, {
      input: {
        name: 'Bad',
        companyId: company.id,
        timeLimit: -1,
        hourlyRateCents: -5,
        tagList: ['ok', ' '],
        defaultTags: ['t'.repeat(65)],
      },
    });
    const err = onlyError(res);
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(err.fields.sort()).toEqual([
      'defaultTags.0',
      'hourlyRateCents',
      'tagList.1',
      'timeLimit',
    ]);
    const many = await t.gql(owner, CREATE, {
      input: {
        name: 'Many',
        companyId: company.id,
        tagList: Array.from({ length: 51 }, (_, i) => `t${i}`),
      },
    });
    expect(onlyError(many)).toEqual({ code: 'VALIDATION_FAILED', fields: ['tagList'] });
    expect(await names(owner, {})).toEqual([]);
  });

  test('a supplied uuid that exists is VALIDATION_FAILED and the existing project is unchanged', async () => {
    const existing = await create(owner, {
      name: 'Original',
      companyId: company.id,
      notes: 'first',
    });
    const res = await t.gql(owner, CREATE, {
      input: { id: existing.id, name: 'Copy', companyId: company.id, notes: 'second' },
    });
    expect(onlyError(res)).toEqual({ code: 'VALIDATION_FAILED', fields: ['id'] });
    expect((await t.gqlOk(owner, GET, { id: existing.id })).project).toEqual(existing);
    expect(
      onlyError(
        await t.gql(owner, CREATE, { input: { id: 'my-id', name: 'Copy', companyId: company.id } }),
      ),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['id'],
    });
    expect(await names(owner, { filter: { name: { eq: 'Copy' } } })).toEqual([]);
    await t.gqlOk(owner, DELETE, { ref: { id: existing.id } });
  });

  test('NUL characters are VALIDATION_FAILED', async () => {
    expect(
      onlyError(await t.gql(owner, CREATE, { input: { name: 'A\u0000', companyId: company.id } })),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['name'],
    });
    expect(
      onlyError(
        await t.gql(owner, CREATE, {
          input: { name: 'A', companyId: company.id, tagList: ['\u0000'] },
        }),
      ),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['tagList.0'],
    });
    const p = await create(owner, { name: 'Clean', companyId: company.id, notes: 'clean' });
    expect(
      onlyError(await t.gql(owner, UPDATE, { ref: { id: p.id }, input: { notes: 'dirty\u0000' } })),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['notes'],
    });
    expect((await t.gqlOk(owner, GET, { id: p.id })).project.notes).toBe('clean');
    await t.gqlOk(owner, DELETE, { ref: { id: p.id } });
  });

  test('too-long strings are VALIDATION_FAILED', async () => {
    expect(
      onlyError(
        await t.gql(owner, CREATE, { input: { name: 'n'.repeat(256), companyId: company.id } }),
      ),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['name'],
    });
    expect(
      onlyError(
        await t.gql(owner, CREATE, {
          input: { name: 'N', companyId: company.id, notes: 'n'.repeat(10_001) },
        }),
      ),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['notes'],
    });
    expect(
      onlyError(
        await t.gql(owner, CREATE, {
          input: { name: 'N', companyId: company.id, hourlyRate: '$'.repeat(256) },
        }),
      ),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['hourlyRate'],
    });
    expect(await names(owner, {})).toEqual([]);
  });

  test('a staff member cannot create projects', async () => {
    const member = await t.newStaff(owner);
    expect(
      codes(await t.gql(member, CREATE, { input: { name: 'Mine', companyId: company.id } })),
    ).toEqual(['CREATE_DENIED']);
    expect(await names(owner, {})).toEqual([]);
  });

  test('a manager cannot create a project in a company they cannot see: NOT_FOUND', async () => {
    const manager = await t.newStaff(owner, { type: 'MANAGER' });
    const hidden = await newCompany(owner, { visibility: 'PRIVATE' });
    expect(
      codes(await t.gql(manager, CREATE, { input: { name: 'Sneaky', companyId: hidden.id } })),
    ).toEqual(['NOT_FOUND']);
    const created = await create(manager, { name: 'Fine', companyId: company.id });
    expect(created.company).toEqual({ id: company.id });
    await t.gqlOk(owner, DELETE, { ref: { id: created.id } });
  });
});
