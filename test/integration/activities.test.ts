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
 * Known bug: a manager's or staff member's write that checks project visibility inside its
 * transaction reads their CUSTOM memberships through the request's own EntityManager, i.e. on a
 * second connection. The embedded database has one connection, so the request waits for the
 * acquire timeout and answers SERVICE_UNAVAILABLE. On a PostgreSQL server (TEST_DATABASE_URL) the
 * pool has room and these tests pass.
 */

const ACTIVITY_FIELDS = 'id legacyId name project { id }';
const CREATE = `mutation($input: CreateActivityInput!) { createActivity(input: $input) { activity { ${ACTIVITY_FIELDS} } } }`;
const UPDATE = `mutation($ref: ActivityRef!, $input: ActivityInput!) {
  updateActivity(input: { activity: $ref, patch: $input }) { activity { ${ACTIVITY_FIELDS} } }
}`;
const GET = `query($id: ID, $legacyId: Int, $projectId: ID, $projectLegacyId: Int) {
  activity(id: $id, legacyId: $legacyId, projectId: $projectId, projectLegacyId: $projectLegacyId) { ${ACTIVITY_FIELDS} }
}`;
const DELETE = `mutation($ref: ActivityRef!) { deleteActivity(input: { activity: $ref }) { activity { id legacyId name } } }`;
const LIST = `query($filter: ActivityFilter, $order: [ActivityOrder!], $first: Int, $after: String, $projectId: ID, $projectLegacyId: Int) {
  activities(filter: $filter, order: $order, first: $first, after: $after, projectId: $projectId, projectLegacyId: $projectLegacyId) {
    totalCount
    pageInfo { hasNextPage endCursor }
    nodes { id name }
  }
}`;

interface Ref {
  id: string;
  legacyId: number;
}

async function newProject(who: Credentials, input: Record<string, unknown> = {}): Promise<Ref> {
  const company = await t.gqlOk(
    who,
    `mutation { createCompany(input: { name: "Client", visibility: PUBLIC }) { company { id } } }`,
  );
  const data = await t.gqlOk(
    who,
    `mutation($input: CreateProjectInput!) { createProject(input: $input) { project { id legacyId } } }`,
    {
      input: {
        name: `Project ${randomUUID().slice(0, 6)}`,
        companyId: company.createCompany.company.id,
        visibility: 'PUBLIC',
        ...input,
      },
    },
  );
  return data.createProject.project;
}

async function create(who: Credentials, input: Record<string, unknown>) {
  const data = await t.gqlOk(who, CREATE, { input });
  return data.createActivity.activity as {
    id: string;
    legacyId: number;
    name: string;
    project: { id: string };
  };
}

async function names(who: Credentials, variables: Record<string, unknown>): Promise<string[]> {
  const data = await t.gqlOk(who, LIST, variables);
  return data.activities.nodes.map((n: { name: string }) => n.name);
}

describe('create and read', () => {
  test('creates an activity by project uuid and reads it by uuid and integer id', async () => {
    const owner = await t.newAccount();
    const project = await newProject(owner);
    const created = await create(owner, { name: 'Design', projectId: project.id });
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      legacyId: expect.any(Number),
      name: 'Design',
      project: { id: project.id },
    });
    expect((await t.gqlOk(owner, GET, { id: created.id })).activity).toEqual(created);
    expect((await t.gqlOk(owner, GET, { legacyId: created.legacyId })).activity).toEqual(created);
    expect((await t.gqlOk(owner, GET, { id: created.id, projectId: project.id })).activity).toEqual(
      created,
    );
    expect(
      (await t.gqlOk(owner, GET, { legacyId: created.legacyId, projectLegacyId: project.legacyId }))
        .activity,
    ).toEqual(created);
  });

  test('creates an activity with a caller-supplied uuid and the project by integer id', async () => {
    const owner = await t.newAccount();
    const project = await newProject(owner);
    const id = randomUUID();
    const created = await create(owner, {
      id,
      name: '  Testing  ',
      projectLegacyId: project.legacyId,
    });
    expect(created).toEqual({
      id,
      legacyId: expect.any(Number),
      name: 'Testing',
      project: { id: project.id },
    });
    expect((await t.gqlOk(owner, GET, { id })).activity).toEqual(created);
  });

  test('an activity read through another project is NOT_FOUND', async () => {
    const owner = await t.newAccount();
    const a = await newProject(owner);
    const b = await newProject(owner);
    const act = await create(owner, { name: 'Only in A', projectId: a.id });
    expect(codes(await t.gql(owner, GET, { id: act.id, projectId: b.id }))).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(owner, GET, { id: act.id, projectLegacyId: b.legacyId }))).toEqual([
      'NOT_FOUND',
    ]);
  });

  test('the project lists its activities by name', async () => {
    const owner = await t.newAccount();
    const project = await newProject(owner);
    for (const name of ['zeta', 'alpha', 'mu'])
      await create(owner, { name, projectId: project.id });
    const data = await t.gqlOk(
      owner,
      `query($id: ID) { project(id: $id) { activities { name project { id } } } }`,
      { id: project.id },
    );
    expect(data.project.activities).toEqual([
      { name: 'alpha', project: { id: project.id } },
      { name: 'mu', project: { id: project.id } },
      { name: 'zeta', project: { id: project.id } },
    ]);
  });

  test('another account cannot see or change the activity', async () => {
    const owner = await t.newAccount();
    const other = await t.newAccount();
    const project = await newProject(owner);
    const act = await create(owner, { name: 'Private matter', projectId: project.id });
    expect(codes(await t.gql(other, GET, { id: act.id }))).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(other, GET, { legacyId: act.legacyId }))).toEqual(['NOT_FOUND']);
    expect(
      codes(await t.gql(other, UPDATE, { ref: { id: act.id }, input: { name: 'Hijacked' } })),
    ).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(other, DELETE, { ref: { id: act.id } }))).toEqual(['NOT_FOUND']);
    expect(
      codes(await t.gql(other, CREATE, { input: { name: 'Intruder', projectId: project.id } })),
    ).toEqual(['NOT_FOUND']);
    expect((await t.gqlOk(other, LIST, {})).activities.totalCount).toBe(0);
    expect((await t.gqlOk(owner, GET, { id: act.id })).activity).toEqual(act);
  });
});

describe('list: filter, order, pages', () => {
  let owner: Credentials;
  let p1: Ref;
  let p2: Ref;
  const made: Record<string, Ref> = {};

  beforeAll(async () => {
    owner = await t.newAccount();
    p1 = await newProject(owner);
    p2 = await newProject(owner);
    for (const [name, project] of [
      ['coding', p1],
      ['design', p1],
      ['meetings', p1],
      ['code review', p2],
      ['support', p2],
    ] as const) {
      made[name] = await create(owner, { name, projectId: project.id });
    }
  });

  test('eq, ne, in and like', async () => {
    expect(await names(owner, { filter: { name: { eq: 'design' } } })).toEqual(['design']);
    expect(
      await names(owner, { filter: { projectId: { ne: p1.id } }, order: [{ field: 'NAME' }] }),
    ).toEqual(['code review', 'support']);
    expect(
      await names(owner, {
        filter: { projectLegacyId: { in: [p2.legacyId] } },
        order: [{ field: 'NAME' }],
      }),
    ).toEqual(['code review', 'support']);
    expect(
      await names(owner, {
        filter: { id: { in: [made.coding!.id, made.support!.id] } },
        order: [{ field: 'NAME' }],
      }),
    ).toEqual(['coding', 'support']);
    expect(
      await names(owner, { filter: { name: { like: 'CODE%' } }, order: [{ field: 'NAME' }] }),
    ).toEqual(['code review']);
    expect(
      await names(owner, { filter: { name: { like: '%Ing%' } }, order: [{ field: 'NAME' }] }),
    ).toEqual(['coding', 'meetings']);
  });

  test('lt, gt and isNull', async () => {
    expect(
      await names(owner, {
        filter: { legacyId: { gt: made.coding!.legacyId, lt: made.support!.legacyId } },
        order: [{ field: 'LEGACY_ID' }],
      }),
    ).toEqual(['design', 'meetings', 'code review']);
    expect(
      await names(owner, { filter: { name: { lt: 'd' } }, order: [{ field: 'NAME' }] }),
    ).toEqual(['code review', 'coding']);
    expect(
      (await t.gqlOk(owner, LIST, { filter: { projectId: { isNull: true } } })).activities
        .totalCount,
    ).toBe(0);
    expect(
      (await t.gqlOk(owner, LIST, { filter: { name: { isNull: false } } })).activities.totalCount,
    ).toBe(5);
  });

  test('and, or, not', async () => {
    expect(
      await names(owner, {
        filter: { and: [{ projectId: { eq: p1.id } }, { name: { like: '%e%' } }] },
        order: [{ field: 'NAME' }],
      }),
    ).toEqual(['design', 'meetings']);
    expect(
      await names(owner, {
        filter: { or: [{ name: { eq: 'support' } }, { name: { eq: 'coding' } }] },
        order: [{ field: 'NAME' }],
      }),
    ).toEqual(['coding', 'support']);
    expect(
      await names(owner, { filter: { not: { name: { like: 'c%' } } }, order: [{ field: 'NAME' }] }),
    ).toEqual(['design', 'meetings', 'support']);
    expect(
      await names(owner, {
        filter: {
          or: [
            { and: [{ projectId: { eq: p2.id } }, { not: { name: { eq: 'support' } } }] },
            { name: { eq: 'meetings' } },
          ],
        },
        order: [{ field: 'NAME' }],
      }),
    ).toEqual(['code review', 'meetings']);
  });

  test('the projectId argument narrows to one project', async () => {
    expect(await names(owner, { projectId: p1.id, order: [{ field: 'NAME' }] })).toEqual([
      'coding',
      'design',
      'meetings',
    ]);
    expect(
      await names(owner, { projectLegacyId: p2.legacyId, filter: { name: { ne: 'support' } } }),
    ).toEqual(['code review']);
    expect(codes(await t.gql(owner, LIST, { projectId: randomUUID() }))).toEqual(['NOT_FOUND']);
  });

  test('orders ascending and descending', async () => {
    expect(await names(owner, { order: [{ field: 'NAME', direction: 'ASC' }] })).toEqual([
      'code review',
      'coding',
      'design',
      'meetings',
      'support',
    ]);
    expect(await names(owner, { order: [{ field: 'NAME', direction: 'DESC' }] })).toEqual([
      'support',
      'meetings',
      'design',
      'coding',
      'code review',
    ]);
    expect(await names(owner, { order: [{ field: 'LEGACY_ID', direction: 'DESC' }] })).toEqual([
      'support',
      'code review',
      'meetings',
      'design',
      'coding',
    ]);
    expect(await names(owner, {})).toEqual([
      'coding',
      'design',
      'meetings',
      'code review',
      'support',
    ]);
  });

  test('pages with first/after, totalCount and pageInfo', async () => {
    const order = [{ field: 'NAME', direction: 'DESC' }];
    const page1 = (await t.gqlOk(owner, LIST, { order, first: 2 })).activities;
    expect(page1.totalCount).toBe(5);
    expect(page1.nodes.map((n: { name: string }) => n.name)).toEqual(['support', 'meetings']);
    expect(page1.pageInfo.hasNextPage).toBe(true);
    const page2 = (await t.gqlOk(owner, LIST, { order, first: 2, after: page1.pageInfo.endCursor }))
      .activities;
    expect(page2.nodes.map((n: { name: string }) => n.name)).toEqual(['design', 'coding']);
    expect(page2.pageInfo.hasNextPage).toBe(true);
    const page3 = (await t.gqlOk(owner, LIST, { order, first: 2, after: page2.pageInfo.endCursor }))
      .activities;
    expect(page3.nodes.map((n: { name: string }) => n.name)).toEqual(['code review']);
    expect(page3.pageInfo.hasNextPage).toBe(false);
    expect(page3.totalCount).toBe(5);
    const one = (await t.gqlOk(owner, LIST, { projectId: p2.id, first: 1, order })).activities;
    expect(one).toEqual({
      totalCount: 2,
      pageInfo: { hasNextPage: true, endCursor: expect.any(String) },
      nodes: [{ id: made.support!.id, name: 'support' }],
    });
  });

  test('malformed filter ids are VALIDATION_FAILED', async () => {
    expect(
      onlyError(await t.gql(owner, LIST, { filter: { projectId: { in: [p1.id, 'p2'] } } })),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['filter.projectId.in'],
    });
  });
});

describe('visibility', () => {
  test('a staff member sees only the activities of projects they can see', async () => {
    const owner = await t.newAccount();
    const member = await t.newStaff(owner);
    const open = await newProject(owner, { visibility: 'PUBLIC' });
    const closed = await newProject(owner, { visibility: 'PRIVATE' });
    const listed = await newProject(owner, { visibility: 'CUSTOM', userIds: [member.id] });
    const a = await create(owner, { name: 'open work', projectId: open.id });
    const hidden = await create(owner, { name: 'hidden work', projectId: closed.id });
    const c = await create(owner, { name: 'listed work', projectId: listed.id });
    expect(await names(member, { order: [{ field: 'NAME' }] })).toEqual([
      'listed work',
      'open work',
    ]);
    expect((await t.gqlOk(member, GET, { id: a.id })).activity.name).toBe('open work');
    expect((await t.gqlOk(member, GET, { id: c.id })).activity.name).toBe('listed work');
    expect(codes(await t.gql(member, GET, { id: hidden.id }))).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(member, LIST, { projectId: closed.id }))).toEqual(['NOT_FOUND']);
  });

  test('a staff member cannot create, rename or delete activities', async () => {
    const owner = await t.newAccount();
    const member = await t.newStaff(owner);
    const project = await newProject(owner, { visibility: 'PUBLIC' });
    const act = await create(owner, { name: 'Fixed', projectId: project.id });
    expect(
      codes(await t.gql(member, CREATE, { input: { name: 'Mine', projectId: project.id } })),
    ).toEqual(['CREATE_DENIED']);
    expect(
      codes(await t.gql(member, UPDATE, { ref: { id: act.id }, input: { name: 'Renamed' } })),
    ).toEqual(['UPDATE_DENIED']);
    expect(codes(await t.gql(member, DELETE, { ref: { id: act.id } }))).toEqual(['DELETE_DENIED']);
    expect(await names(owner, {})).toEqual(['Fixed']);
  });

  test('a manager creates an activity on a project they see', async () => {
    const owner = await t.newAccount();
    const manager = await t.newStaff(owner, { type: 'MANAGER' });
    const project = await newProject(owner, { visibility: 'PUBLIC' });
    const act = await create(manager, { name: 'By manager', projectId: project.id });
    expect(act.project).toEqual({ id: project.id });
    const hidden = await newProject(owner, { visibility: 'PRIVATE' });
    expect(
      codes(await t.gql(manager, CREATE, { input: { name: 'Sneaky', projectId: hidden.id } })),
    ).toEqual(['NOT_FOUND']);
  });
});

describe('update', () => {
  test('renames; an empty input keeps the name; null or blank is refused', async () => {
    const owner = await t.newAccount();
    const project = await newProject(owner);
    const act = await create(owner, { name: 'Draft', projectId: project.id });
    const renamed = await t.gqlOk(owner, UPDATE, { ref: { id: act.id }, input: { name: 'Final' } });
    expect(renamed.updateActivity.activity).toEqual({ ...act, name: 'Final' });
    expect(
      (await t.gqlOk(owner, UPDATE, { ref: { legacyId: act.legacyId }, input: {} })).updateActivity
        .activity,
    ).toEqual({ ...act, name: 'Final' });
    expect(
      onlyError(await t.gql(owner, UPDATE, { ref: { id: act.id }, input: { name: null } })),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['name'],
    });
    expect(
      onlyError(await t.gql(owner, UPDATE, { ref: { id: act.id }, input: { name: '' } })),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['name'],
    });
    expect((await t.gqlOk(owner, GET, { id: act.id })).activity).toEqual({ ...act, name: 'Final' });
  });
});

describe('delete', () => {
  test('deletes an activity; reading it is NOT_FOUND; its shifts keep their time and lose the activity', async () => {
    const owner = await t.newAccount();
    const project = await newProject(owner);
    const act = await create(owner, { name: 'Gone soon', projectId: project.id });
    const other = await create(owner, { name: 'Stays', projectId: project.id });
    const shift = await t.gqlOk(
      owner,
      `mutation($input: CreateShiftInput!) { createShift(input: $input) { shift { id activity { id } } } }`,
      {
        input: {
          projectId: project.id,
          activityId: act.id,
          start: '2026-03-02T08:00:00Z',
          stop: '2026-03-02T09:30:00Z',
        },
      },
    );
    expect(shift.createShift.shift.activity).toEqual({ id: act.id });
    expect((await t.gqlOk(owner, DELETE, { ref: { id: act.id } })).deleteActivity.activity).toEqual(
      {
        id: act.id,
        legacyId: act.legacyId,
        name: 'Gone soon',
      },
    );
    expect(codes(await t.gql(owner, GET, { id: act.id }))).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(owner, GET, { legacyId: act.legacyId }))).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(owner, DELETE, { ref: { id: act.id } }))).toEqual(['NOT_FOUND']);
    const after = await t.gqlOk(
      owner,
      `query($id: ID) { shift(id: $id) { start stop activity { id } } }`,
      { id: shift.createShift.shift.id },
    );
    expect(after.shift).toEqual({
      start: '2026-03-02T08:00:00.000Z',
      stop: '2026-03-02T09:30:00.000Z',
      activity: null,
    });
    expect(await names(owner, {})).toEqual(['Stays']);
    expect(
      (await t.gqlOk(owner, DELETE, { ref: { legacyId: other.legacyId } })).deleteActivity.activity
        .id,
    ).toBe(other.id);
    expect(await names(owner, {})).toEqual([]);
  });
});

describe('bad input', () => {
  let owner: Credentials;
  let project: Ref;
  beforeAll(async () => {
    owner = await t.newAccount();
    project = await newProject(owner);
  });

  test('a missing or blank name is VALIDATION_FAILED naming name', async () => {
    const missing = await t.gql(owner, CREATE, { input: { projectId: project.id } });
    expect(onlyError(missing)).toEqual({ code: 'VALIDATION_FAILED', fields: ['name'] });
    expect(missing.errors?.[0]?.extensions?.entity).toBe('Activity');
    expect(
      onlyError(await t.gql(owner, CREATE, { input: { name: '\t', projectId: project.id } })),
    ).toEqual({ code: 'VALIDATION_FAILED', fields: ['name'] });
    expect(await names(owner, {})).toEqual([]);
  });

  // Bug: the field error names `id` (the new activity's own optional uuid) instead of `projectId`.
  test('a missing project is VALIDATION_FAILED naming projectId', async () => {
    const res = await t.gql(owner, CREATE, { input: { name: 'Loose' } });
    expect(onlyError(res)).toEqual({ code: 'VALIDATION_FAILED', fields: ['projectId'] });
  });

  test('a missing project is VALIDATION_FAILED; naming both project ids too', async () => {
    expect(codes(await t.gql(owner, CREATE, { input: { name: 'Loose' } }))).toEqual([
      'VALIDATION_FAILED',
    ]);
    expect(
      codes(
        await t.gql(owner, CREATE, {
          input: { name: 'Loose', projectId: project.id, projectLegacyId: project.legacyId },
        }),
      ),
    ).toEqual(['VALIDATION_FAILED']);
    expect(await names(owner, {})).toEqual([]);
  });

  test('an unknown or malformed project is NOT_FOUND', async () => {
    expect(
      codes(await t.gql(owner, CREATE, { input: { name: 'Loose', projectId: randomUUID() } })),
    ).toEqual(['NOT_FOUND']);
    expect(
      codes(await t.gql(owner, CREATE, { input: { name: 'Loose', projectId: 'project-1' } })),
    ).toEqual(['NOT_FOUND']);
    expect(
      codes(
        await t.gql(owner, CREATE, { input: { name: 'Loose', projectLegacyId: 2_000_000_000 } }),
      ),
    ).toEqual(['NOT_FOUND']);
    expect(await names(owner, {})).toEqual([]);
  });

  test('unknown and malformed ids are NOT_FOUND', async () => {
    expect(codes(await t.gql(owner, GET, { id: randomUUID() }))).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(owner, GET, { id: 'nope' }))).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(owner, GET, { legacyId: 0 }))).toEqual(['NOT_FOUND']);
    expect(
      codes(await t.gql(owner, UPDATE, { ref: { id: randomUUID() }, input: { name: 'X' } })),
    ).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(owner, UPDATE, { ref: { id: '{}' }, input: { name: 'X' } }))).toEqual([
      'NOT_FOUND',
    ]);
    expect(codes(await t.gql(owner, DELETE, { ref: { id: randomUUID() } }))).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(owner, DELETE, { ref: { id: 'x'.repeat(36) } }))).toEqual([
      'NOT_FOUND',
    ]);
  });

  test('wrong GraphQL types are GRAPHQL_VALIDATION_FAILED or BAD_USER_INPUT', async () => {
    expect(
      codes(
        await t.gql(owner, `mutation { createActivity(input: { name: 7 }) { activity { id } } }`),
      ),
    ).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(codes(await t.gql(owner, `{ activity(id: 5.5) { id } }`))).toEqual([
      'GRAPHQL_VALIDATION_FAILED',
    ]);
    expect(
      codes(await t.gql(owner, CREATE, { input: { name: 'X', projectLegacyId: '12' } })),
    ).toEqual(['BAD_USER_INPUT']);
    expect(
      codes(await t.gql(owner, CREATE, { input: { name: { text: 'X' }, projectId: project.id } })),
    ).toEqual(['BAD_USER_INPUT']);
    expect(codes(await t.gql(owner, LIST, { first: 'ten' }))).toEqual(['BAD_USER_INPUT']);
    expect(await names(owner, {})).toEqual([]);
  });

  test('a supplied uuid that exists is VALIDATION_FAILED and the existing activity is unchanged', async () => {
    const existing = await create(owner, { name: 'Original', projectId: project.id });
    const res = await t.gql(owner, CREATE, {
      input: { id: existing.id, name: 'Impostor', projectId: project.id },
    });
    expect(onlyError(res)).toEqual({ code: 'VALIDATION_FAILED', fields: ['id'] });
    expect((await t.gqlOk(owner, GET, { id: existing.id })).activity).toEqual(existing);
    expect(
      onlyError(
        await t.gql(owner, CREATE, {
          input: { id: '12345', name: 'Impostor', projectId: project.id },
        }),
      ),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['id'],
    });
    expect(await names(owner, {})).toEqual(['Original']);
    await t.gqlOk(owner, DELETE, { ref: { id: existing.id } });
  });

  test('NUL characters and too-long names are VALIDATION_FAILED', async () => {
    expect(
      onlyError(await t.gql(owner, CREATE, { input: { name: 'a\u0000b', projectId: project.id } })),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['name'],
    });
    expect(
      onlyError(
        await t.gql(owner, CREATE, { input: { name: 'a'.repeat(256), projectId: project.id } }),
      ),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['name'],
    });
    const act = await create(owner, { name: 'b'.repeat(255), projectId: project.id });
    expect(
      onlyError(await t.gql(owner, UPDATE, { ref: { id: act.id }, input: { name: 'c\u0000' } })),
    ).toEqual({ code: 'VALIDATION_FAILED', fields: ['name'] });
    expect(
      onlyError(
        await t.gql(owner, UPDATE, { ref: { id: act.id }, input: { name: 'c'.repeat(300) } }),
      ),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['name'],
    });
    expect((await t.gqlOk(owner, GET, { id: act.id })).activity.name).toBe('b'.repeat(255));
    expect(onlyError(await t.gql(owner, LIST, { filter: { name: { eq: '\u0000' } } }))).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['filter.name.eq'],
    });
    await t.gqlOk(owner, DELETE, { ref: { id: act.id } });
  });
});
