import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * Keyset paging on every connection: pages read one row at a time, forwards or backwards, give
 * the whole list in the SQL's order (NULLs included), rows added before a cursor move nothing
 * after it, and a cursor of another order, a forged one or `first` with `last` are VALIDATION
 * errors, never a 500.
 */
let t: TestApp;
let owner: Credentials;
let companyId: string;
let projectId: string;
beforeAll(async () => {
  t = await startTestApp();
  owner = await t.newAccount();
  companyId = (await t.create(owner, 'createCompany', { name: 'Acme', visibility: 'PUBLIC' })).id;
  // Time limits with NULLs and ties, so the order's columns alone do not decide.
  const limits = [3600, null, 7200, 3600, null, 1800];
  for (const [i, timeLimit] of limits.entries())
    await t.create(owner, 'createProject', { name: `p${i}`, companyId, timeLimit });
  projectId = (await t.create(owner, 'createProject', { name: 'clocked', companyId })).id;
  for (const day of [3, 1, 2])
    await t.create(owner, 'createShift', {
      projectId,
      start: `2026-11-0${day}T09:00:00Z`,
      stop: `2026-11-0${day}T10:00:00Z`,
      notes: `day ${day}`,
    });
});
afterAll(() => t?.close());

const PROJECTS = `query($order: [ProjectOrder!], $first: Int, $after: String, $last: Int, $before: String) {
  projects(order: $order, first: $first, after: $after, last: $last, before: $before) {
    totalCount
    edges { cursor node { name } }
    nodes { name }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;

interface Connection {
  totalCount: number;
  edges: { cursor: string; node: { name: string } }[];
  nodes: { name: string }[];
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
}

async function projects(variables: Record<string, unknown>): Promise<Connection> {
  return (await t.gqlOk(owner, PROJECTS, variables)).projects;
}

describe.each([
  ['ascending', 'ASC'],
  ['descending', 'DESC'],
])('ordered by a column with NULLs, %s', (_, direction) => {
  const order = [{ field: 'TIME_LIMIT', direction }];

  test('one row at a time forwards and backwards gives the whole list in its order', async () => {
    const whole = (await projects({ order, first: 100 })).nodes.map((n) => n.name);
    expect(whole).toHaveLength(7);
    const forwards: string[] = [];
    let page = await projects({ order, first: 1 });
    expect(page.pageInfo.hasPreviousPage).toBe(false);
    for (;;) {
      forwards.push(...page.edges.map((e) => e.node.name));
      expect(page.edges.map((e) => e.node)).toEqual(page.nodes);
      expect(page.pageInfo.startCursor).toBe(page.edges[0]!.cursor);
      if (!page.pageInfo.hasNextPage) break;
      page = await projects({ order, first: 1, after: page.pageInfo.endCursor });
      expect(page.pageInfo.hasPreviousPage).toBe(true);
    }
    expect(forwards).toEqual(whole);

    const backwards: string[] = [];
    page = await projects({ order, last: 2 });
    expect(page.pageInfo.hasNextPage).toBe(false);
    for (;;) {
      backwards.unshift(...page.nodes.map((n) => n.name));
      if (!page.pageInfo.hasPreviousPage) break;
      page = await projects({ order, last: 2, before: page.pageInfo.startCursor });
    }
    expect(backwards).toEqual(whole);
  });
});

test('a row added before the cursor neither repeats nor hides a row of the next page', async () => {
  const order = [{ field: 'NAME' }];
  const page1 = await projects({ order, first: 2 });
  expect(page1.nodes.map((n) => n.name)).toEqual(['clocked', 'p0']);
  await t.create(owner, 'createProject', { name: 'a-new', companyId });
  const page2 = await projects({ order, first: 2, after: page1.pageInfo.endCursor });
  expect(page2.nodes.map((n) => n.name)).toEqual(['p1', 'p2']);
  expect(page2.totalCount).toBe(8);
});

test('a cursor of another order, a forged cursor, first with last: VALIDATION_FAILED', async () => {
  const byName = await projects({ order: [{ field: 'NAME' }], first: 1 });
  const other = await t.gql(owner, PROJECTS, {
    order: [{ field: 'TIME_LIMIT' }],
    first: 1,
    after: byName.pageInfo.endCursor,
  });
  expect(other.errors?.[0]?.extensions).toMatchObject({
    code: 'VALIDATION_FAILED',
    fieldErrors: [{ field: 'after', message: expect.stringMatching(/another order/) }],
  });
  // The right order's columns, with a value of the wrong type: refused, not sent to the database.
  const forged = Buffer.from(JSON.stringify(['timeLimit:asc,id:asc', ['soon', 1]])).toString(
    'base64url',
  );
  const bad = await t.gql(owner, PROJECTS, {
    order: [{ field: 'TIME_LIMIT' }],
    before: forged,
    last: 1,
  });
  expect(bad.errors?.[0]?.extensions).toMatchObject({
    code: 'VALIDATION_FAILED',
    fieldErrors: [{ field: 'before' }],
  });
  const both = await t.gql(owner, PROJECTS, { first: 1, last: 1 });
  expect(both.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
});

test('a nested list pages with edges and keyset cursors', async () => {
  const SHIFTS = `query($id: ID!, $after: String, $last: Int, $before: String, $first: Int) {
    project(id: $id) {
      shifts(first: $first, after: $after, last: $last, before: $before, order: [{ field: START }]) {
        edges { cursor node { notes } }
        pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      }
    }
  }`;
  const notes = (c: { edges: { node: { notes: string } }[] }) => c.edges.map((e) => e.node.notes);
  const page1 = (await t.gqlOk(owner, SHIFTS, { id: projectId, first: 2 })).project.shifts;
  expect(notes(page1)).toEqual(['day 1', 'day 2']);
  expect(page1.pageInfo.hasNextPage).toBe(true);
  // A shift that starts before the cursor's: the next page is still the third day alone.
  await t.create(owner, 'createShift', {
    projectId,
    start: '2026-10-30T09:00:00Z',
    stop: '2026-10-30T10:00:00Z',
    notes: 'earlier',
  });
  const page2 = (
    await t.gqlOk(owner, SHIFTS, { id: projectId, first: 2, after: page1.pageInfo.endCursor })
  ).project.shifts;
  expect(notes(page2)).toEqual(['day 3']);
  expect(page2.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
  const back = (
    await t.gqlOk(owner, SHIFTS, { id: projectId, last: 2, before: page2.pageInfo.startCursor })
  ).project.shifts;
  expect(notes(back)).toEqual(['day 1', 'day 2']);
  expect(back.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
});

test('the cost guard prices a page read with last as one read with first', async () => {
  const query = (size: string) =>
    `{ projects(${size}: 5000) { nodes { shifts(${size}: 5000) { nodes { id } } } } }`;
  const forwards = await t.gql(owner, query('first'));
  const backwards = await t.gql(owner, query('last'));
  expect(forwards.errors?.[0]?.extensions?.code).toEqual(expect.any(String));
  expect(backwards.errors?.[0]?.extensions?.code).toBe(forwards.errors?.[0]?.extensions?.code);
  expect(backwards.errors?.[0]?.extensions?.cost).toBe(forwards.errors?.[0]?.extensions?.cost);
  // nodes(ids:) costs as many objects as it names.
  const ids = Array.from(
    { length: 5000 },
    (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  );
  const many = await t.gql(
    owner,
    `query($ids: [ID!]!) { nodes(ids: $ids) { id ... on Project { shifts(first: 5000) { nodes { id } } } } }`,
    { ids },
  );
  expect(many.errors?.[0]?.extensions?.code).toBe(forwards.errors?.[0]?.extensions?.code);
});
