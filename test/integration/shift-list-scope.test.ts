import request from 'supertest';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * The shift list is read without ORM hydration (findPage's `unmanaged` rows); it must scope exactly like the
 * ORM does: the caller's account only, and a staff member's own shifts only.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

async function accountWithShifts(
  shifts: number,
): Promise<{ owner: Credentials; staff: Credentials; ids: string[] }> {
  const owner = await t.newAccount();
  const staff = await t.newStaff(owner);
  const company = (
    await t.gqlOk(owner, 'mutation { createCompany(input: { name: "Scope" }) { company { id } } }')
  ).createCompany.company.id;
  const project = (
    await t.gqlOk(
      owner,
      'mutation($c: ID!) { createProject(input: { name: "Scope", companyId: $c, visibility: PUBLIC }) { project { id } } }',
      { c: company },
    )
  ).createProject.project.id;
  const ids: string[] = [];
  for (let i = 0; i < shifts; i++) {
    const who = i % 2 === 0 ? owner : staff;
    const start = `2026-02-0${i + 1}T09:00:00.000Z`;
    const data = await t.gqlOk(
      who,
      'mutation($input: CreateShiftInput!) { createShift(input: $input) { shift { id } } }',
      {
        input: { projectId: project, start, stop: `2026-02-0${i + 1}T10:00:00.000Z` },
      },
    );
    ids.push(data.createShift.shift.id);
  }
  return { owner, staff, ids };
}

test('owners list their own account only; staff list their own shifts only, on GraphQL and JSON', async () => {
  const a = await accountWithShifts(4);
  const b = await accountWithShifts(3);

  const listed = await t.gqlOk(
    a.owner,
    '{ shifts(first: 100) { totalCount nodes { id start user { login } project { name } } } }',
  );
  expect(listed.shifts.totalCount).toBe(4);
  expect(listed.shifts.nodes.map((n: { id: string }) => n.id).sort()).toEqual([...a.ids].sort());
  expect(listed.shifts.nodes[0]).toMatchObject({
    start: '2026-02-01T09:00:00.000Z',
    user: { login: a.owner.login },
    project: { name: 'Scope' },
  });

  const mine = await t.gqlOk(
    a.staff,
    '{ shifts(first: 100) { totalCount nodes { id user { login } } } }',
  );
  expect(mine.shifts.totalCount).toBe(2);
  expect(
    mine.shifts.nodes.every((n: { user: { login: string } }) => n.user.login === a.staff.login),
  ).toBe(true);

  const json = await request(t.app.express)
    .get('/api/1/shifts.json')
    .query({ where: 'start > "2000-01-01T00:00:00Z"' })
    .auth(b.owner.login, b.owner.password);
  expect(json.status).toBe(200);
  expect(json.body.count).toBe(3);
  expect(json.body.response.map((s: { uuid: string }) => s.uuid).sort()).toEqual([...b.ids].sort());
});

test("a manager's own shift on a project made private leads to no one else's shifts there", async () => {
  const owner = await t.newAccount();
  const manager = await t.newStaff(owner, { type: 'MANAGER' });
  const staff = await t.newStaff(owner);
  const company = (
    await t.gqlOk(
      owner,
      'mutation { createCompany(input: { name: "Hidden", visibility: PUBLIC }) { company { id } } }',
    )
  ).createCompany.company.id;
  const project = (
    await t.gqlOk(
      owner,
      'mutation($c: ID!) { createProject(input: { name: "Hidden", companyId: $c, visibility: PUBLIC }) { project { id } } }',
      { c: company },
    )
  ).createProject.project.id;
  const create = async (who: Credentials, day: number) =>
    (
      await t.gqlOk(
        who,
        'mutation($input: CreateShiftInput!) { createShift(input: $input) { shift { id } } }',
        {
          input: {
            projectId: project,
            start: `2026-02-0${day}T09:00:00Z`,
            stop: `2026-02-0${day}T10:00:00Z`,
          },
        },
      )
    ).createShift.shift.id as string;
  const own = await create(manager, 1);
  await create(staff, 2);
  await t.gqlOk(
    owner,
    'mutation($id: ID!) { updateProject(input: { project: { id: $id }, patch: { visibility: PRIVATE } }) { project { id } } }',
    {
      id: project,
    },
  );

  const nested = await t.gqlOk(
    manager,
    'query($id: ID) { shift(id: $id) { project { shifts { nodes { id } } } } }',
    {
      id: own,
    },
  );
  // The project itself is out of reach now: `Shift.project` answers as `project(id:)` would.
  expect(nested.shift.project).toBeNull();
  // The same as the shift list says.
  const listed = await t.gqlOk(manager, '{ shifts { nodes { id } } }');
  expect(listed.shifts.nodes.map((n: { id: string }) => n.id)).toEqual([own]);
});
