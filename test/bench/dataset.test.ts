import { loadDataset, type DatasetSize } from '../../bench/dataset';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The benchmark dataset is the same on every run: two loads into two fresh databases give the
 * same rows, and the window of scenario (a) holds about 1,000 shifts.
 */
const SIZE: DatasetSize = {
  staff: 4,
  companies: 2,
  projects: 6,
  activitiesPerProject: 2,
  shifts: 10_000,
  years: 1,
};
const apps: TestApp[] = [];
afterAll(() => Promise.all(apps.map((app) => app.close())));

async function loadInto(): Promise<{
  app: TestApp;
  manifest: Awaited<ReturnType<typeof loadDataset>>;
}> {
  const app = await startTestApp();
  apps.push(app);
  return { app, manifest: await loadDataset(app.db.orm, SIZE) };
}

const snapshot = (app: TestApp) =>
  app.db.orm.em.getConnection().execute(
    `select s.uuid, s.start, s.stop, s.billable, p.uuid as project, u.login, a.uuid as activity
       from shifts s join projects p on p.account_id = s.account_id and p.id = s.project_id
       join users u on u.account_id = s.account_id and u.id = s.user_id
       left join activities a on a.account_id = s.account_id and a.id = s.activity_id
      order by s.id`,
  );

test('two loads give the same rows, and the window of scenario (a) holds about 1,000 shifts', async () => {
  const first = await loadInto();
  const second = await loadInto();
  const rows = await snapshot(first.app);
  expect(rows).toHaveLength(SIZE.shifts);
  expect(await snapshot(second.app)).toEqual(rows);
  expect(second.manifest.window).toEqual(first.manifest.window);
  expect(first.manifest.window.shifts).toBeGreaterThan(800);
  expect(first.manifest.window.shifts).toBeLessThan(1200);

  // The owner can sign in with the manifest's password and sees the projects with their totals.
  const data = await first.app.gqlOk(
    { login: first.manifest.ownerLogin, password: first.manifest.password },
    '{ projects { totalCount nodes { grandTotal } } }',
  );
  expect(data.projects.totalCount).toBe(SIZE.projects);
  const [sum] = await first.app.db.orm.em
    .getConnection()
    .execute<{ total: string }[]>(
      `select sum(extract(epoch from (stop - start)))::bigint::text as total from shifts`,
    );
  expect(
    data.projects.nodes.reduce((all: number, p: { grandTotal: number }) => all + p.grandTotal, 0),
  ).toBe(Number(sum!.total));
});
