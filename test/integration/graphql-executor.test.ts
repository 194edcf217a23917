import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * GraphQL runs on graphql-jit, with input objects coerced by graphql-js (src/graphql/jit-gateway.ts).
 * These are the shapes graphql-jit alone gets wrong or cannot compile: each answer must be what
 * graphql-js gives.
 */
let t: TestApp;
let owner: Credentials;
beforeAll(async () => {
  t = await startTestApp();
  owner = await t.newAccount();
  const company = (
    await t.gqlOk(owner, 'mutation { createCompany(input: { name: "Exec" }) { company { id } } }')
  ).createCompany.company.id;
  const project = (
    await t.gqlOk(
      owner,
      'mutation($c: ID!) { createProject(input: { name: "Exec", companyId: $c }) { project { id } } }',
      { c: company },
    )
  ).createProject.project.id;
  for (const [day, billable] of [
    ['01', true],
    ['02', false],
    ['03', true],
  ] as const) {
    await t.gqlOk(
      owner,
      'mutation($i: CreateShiftInput!) { createShift(input: $i) { shift { id } } }',
      {
        i: {
          projectId: project,
          start: `2026-04-${day}T09:00:00.000Z`,
          stop: `2026-04-${day}T10:00:00.000Z`,
          billable,
        },
      },
    );
  }
});
afterAll(() => t?.close());

const starts = (data: Record<string, any>): string[] =>
  (data.shifts.nodes as { start: string }[]).map((n) => n.start.slice(0, 10));

test('a recursive filter in a variable (and / or / not nested) is applied', async () => {
  const data = await t.gqlOk(
    owner,
    'query($f: ShiftFilter) { shifts(filter: $f, first: 10) { nodes { start } } }',
    {
      f: {
        or: [
          { billable: { eq: false } },
          {
            and: [{ start: { gt: '2026-04-02T12:00:00Z' } }, { not: { billable: { eq: false } } }],
          },
        ],
      },
    },
  );
  expect(starts(data).sort()).toEqual(['2026-04-02', '2026-04-03']);
});

test('a variable inside a filter literal is read', async () => {
  const data = await t.gqlOk(
    owner,
    'query($from: DateTimeISO!) { shifts(filter: { start: { gt: $from } }, first: 10) { nodes { start } } }',
    {
      from: '2026-04-01T12:00:00Z',
    },
  );
  expect(starts(data).sort()).toEqual(['2026-04-02', '2026-04-03']);
});

test('an input field default applies (order direction defaults to ascending)', async () => {
  const ascending = await t.gqlOk(
    owner,
    'query($o: [ShiftOrder!]) { shifts(order: $o, first: 10) { nodes { start } } }',
    { o: [{ field: 'START' }] },
  );
  expect(starts(ascending)).toEqual(['2026-04-01', '2026-04-02', '2026-04-03']);
  const descending = await t.gqlOk(
    owner,
    'query { shifts(order: [{ field: START, direction: DESC }], first: 10) { nodes { start } } }',
  );
  expect(starts(descending)).toEqual(['2026-04-03', '2026-04-02', '2026-04-01']);
});

test('a bad variable is BAD_USER_INPUT with the variable named, not a server error', async () => {
  const res = await t.gql(owner, 'query($o: [ShiftOrder!]) { shifts(order: $o) { totalCount } }', {
    o: [{ field: 'NOPE' }],
  });
  expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  expect(res.errors?.[0]?.message).toMatch(/\$o/);
});
