import { startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const PUNCH_IN = 'mutation($id: ID!) { punchIn(id: $id) { id running } }';

async function setUp() {
  const owner = await t.newAccount();
  const { createCompany } = await t.gqlOk(owner, 'mutation { createCompany(input: { name: "Race Co", visibility: PUBLIC }) { id } }');
  const projectIds: string[] = [];
  for (let i = 0; i < 5; i++) {
    const data = await t.gqlOk(owner, 'mutation($c: ID!, $n: String!) { createProject(input: { companyId: $c, name: $n, visibility: PUBLIC }) { id } }', {
      c: createCompany.id,
      n: `Project ${i}`,
    });
    projectIds.push(data.createProject.id);
  }
  return { owner, projectIds };
}

async function shiftsOf(owner: { login: string; password: string }) {
  const data = await t.gqlOk(owner, '{ shifts(first: 1000, order: [{ field: START }]) { nodes { start stop project { id } } } }');
  return data.shifts.nodes as { start: string; stop: string | null; project: { id: string } }[];
}

function assertNoOverlap(shifts: { start: string; stop: string | null }[]) {
  for (let i = 1; i < shifts.length; i++) {
    const previousStop = shifts[i - 1]!.stop;
    expect(previousStop).not.toBeNull();
    expect(Date.parse(previousStop!)).toBeLessThanOrEqual(Date.parse(shifts[i]!.start));
  }
}

test('20 simultaneous punch-ins to one project leave exactly one running shift', async () => {
  const { owner, projectIds } = await setUp();
  const results = await Promise.all(Array.from({ length: 20 }, () => t.gql(owner, PUNCH_IN, { id: projectIds[0] })));
  const succeeded = results.filter((r) => !r.errors);
  const refused = results.filter((r) => r.errors);
  expect(succeeded).toHaveLength(1);
  // The others are told why, with the catalogue's code, never a 500.
  expect(new Set(refused.map((r) => r.errors![0]!.extensions?.code))).toEqual(new Set(['PUNCHED_IN']));
  const shifts = await shiftsOf(owner);
  expect(shifts).toHaveLength(1);
  expect(shifts[0]!.stop).toBeNull();
});

test.each([20, 50])('%d simultaneous punch-ins across 5 projects: one running, the rest stopped, no overlaps', async (count) => {
  const { owner, projectIds } = await setUp();
  const results = await Promise.all(Array.from({ length: count }, (_, i) => t.gql(owner, PUNCH_IN, { id: projectIds[i % 5] })));
  for (const r of results) {
    for (const e of r.errors ?? []) expect(e.extensions?.code).toBe('PUNCHED_IN');
  }
  const shifts = await shiftsOf(owner);
  expect(shifts.filter((s) => s.stop === null)).toHaveLength(1);
  expect(shifts.length).toBe(results.filter((r) => !r.errors).length);
  assertNoOverlap(shifts);
  // The database agrees, whatever the API says.
  const rows = await t.db.orm.em.getConnection().execute('select count(*)::int as n from shifts where stop is null and user_id = ?', [owner.ownerLegacyId]);
  expect(rows[0].n).toBe(1);
});
