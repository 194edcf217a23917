/**
 * A deletion clears the references to the deleted row (a company's or project's creator, a shift's
 * activity), whatever deletes it: the API, a cascade, or an operator's SQL. A row-level trigger
 * clears them (migration 20261215000000-references-cleared-by-triggers: Citus refuses the foreign
 * keys' own `on delete set null`), and the foreign keys still refuse a reference to nothing.
 */
import { startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const sql = <T>(text: string, params: unknown[] = []) =>
  t.db.orm.em.getConnection().execute<T[]>(text, params);

async function fixture() {
  const owner = await t.newAccount();
  const manager = await t.newStaff(owner, { type: 'MANAGER' });
  const company = await t.create(manager, 'createCompany', { name: 'Made by a manager' });
  const project = await t.create(manager, 'createProject', {
    name: 'Made by a manager',
    companyId: company.id,
  });
  const activity = await t.create(owner, 'createActivity', {
    name: 'Design',
    projectId: project.id,
  });
  const shift = await t.create(owner, 'createShift', {
    projectId: project.id,
    activityId: activity.id,
    start: '2026-03-02T09:00:00Z',
    stop: '2026-03-02T11:00:00Z',
  });
  return { owner, manager, company, project, activity, shift };
}

const creators = (company: number, project: number) =>
  sql<{ company: number | null; project: number | null }>(
    `select (select created_by_id from companies where id = ?) as company,
            (select created_by_id from projects where id = ?) as project`,
    [company, project],
  );
const activityOf = async (shift: number) =>
  (
    await sql<{ activity_id: number | null }>('select activity_id from shifts where id = ?', [
      shift,
    ])
  )[0]!.activity_id;

test('an operator deleting a user and an activity in SQL clears what referred to them', async () => {
  const f = await fixture();
  expect(await creators(f.company.legacyId, f.project.legacyId)).toEqual([
    { company: f.manager.legacyId, project: f.manager.legacyId },
  ]);
  expect(await activityOf(f.shift.legacyId)).toBe(f.activity.legacyId);

  await sql('delete from activities where id = ?', [f.activity.legacyId]);
  await sql('delete from users where id = ?', [f.manager.legacyId]);

  expect(await creators(f.company.legacyId, f.project.legacyId)).toEqual([
    { company: null, project: null },
  ]);
  expect(await activityOf(f.shift.legacyId)).toBeNull();
  // The shift kept its time: the project's total is still its two hours.
  const totals = await sql<{ seconds: string }>(
    'select sum(stopped_seconds)::text as seconds from project_user_totals where project_id = ?',
    [f.project.legacyId],
  );
  expect(Number(totals[0]!.seconds)).toBe(7200);
});

test('deleteStaff through the API leaves the manager’s company and project without a creator', async () => {
  const f = await fixture();
  await t.gqlOk(
    f.owner,
    'mutation($id: ID!) { deleteStaff(input: { staff: { id: $id } }) { deletedStaffId } }',
    {
      id: f.manager.id,
    },
  );
  expect(await creators(f.company.legacyId, f.project.legacyId)).toEqual([
    { company: null, project: null },
  ]);
});

test('the foreign keys still refuse a creator or activity that does not exist', async () => {
  const f = await fixture();
  await expect(
    sql('update projects set created_by_id = 2147483647 where id = ?', [f.project.legacyId]),
  ).rejects.toThrow(/projects_account_id_created_by_id_fkey/);
  await expect(
    sql('update shifts set activity_id = 2147483647 where id = ?', [f.shift.legacyId]),
  ).rejects.toThrow(/shifts_account_id_activity_id_fkey/);
});
