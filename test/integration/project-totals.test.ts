import request from 'supertest';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * Project totals come from `project_user_totals`, kept by triggers on shifts. Whatever the writes
 * (creates, moves between projects and users, time changes, deletes, punches, cascades), the kept
 * sums must equal the sums recomputed from the shifts, and grandTotal must equal an independent sum.
 */
let t: TestApp;
let owner: Credentials & { ownerId: string };
beforeAll(async () => {
  t = await startTestApp();
  owner = await t.newAccount();
});
afterAll(() => t?.close());

async function keptEqualsRecomputed(): Promise<void> {
  const sql = t.db.orm.em.getConnection();
  const kept = await sql.execute<{ project_id: number; user_id: number; s: string }[]>(
    `select project_id, user_id, stopped_seconds::text as s from project_user_totals where stopped_seconds <> 0 order by 1, 2`,
  );
  const recomputed = await sql.execute<{ project_id: number; user_id: number; s: string }[]>(
    `select project_id, user_id, sum(extract(epoch from (stop - start)))::text as s from shifts where stop is not null
      group by 1, 2 having sum(extract(epoch from (stop - start))) <> 0 order by 1, 2`,
  );
  expect(kept.map((r) => [r.project_id, r.user_id, Number(r.s)])).toEqual(
    recomputed.map((r) => [r.project_id, r.user_id, Number(r.s)]),
  );
}

const createShift = (who: Credentials, input: Record<string, unknown>) =>
  t
    .gqlOk(
      who,
      'mutation($input: CreateShiftInput!) { createShift(input: $input) { shift { id } } }',
      {
        input,
      },
    )
    .then((d) => d.createShift.shift.id as string);

test('kept totals follow every kind of write and agree with grandTotal', async () => {
  const staff = await t.newStaff(owner);
  const company = (
    await t.gqlOk(
      owner,
      'mutation { createCompany(input: { name: "Totals Inc" }) { company { id } } }',
    )
  ).createCompany.company.id;
  const project = async (name: string) =>
    (
      await t.gqlOk(
        owner,
        'mutation($c: ID!, $n: String!) { createProject(input: { name: $n, companyId: $c, visibility: PUBLIC }) { project { id } } }',
        { c: company, n: name },
      )
    ).createProject.project.id as string;
  const [p1, p2, p3] = [await project('One'), await project('Two'), await project('Three')];

  const a = await createShift(owner, {
    projectId: p1,
    start: '2026-01-05T09:00:00.000Z',
    stop: '2026-01-05T10:30:00.250Z',
  });
  const b = await createShift(staff, {
    projectId: p1,
    start: '2026-01-05T11:00:00Z',
    stop: '2026-01-05T12:00:00Z',
  });
  await createShift(owner, {
    projectId: p2,
    start: '2026-01-06T09:00:00Z',
    stop: '2026-01-06T09:45:00Z',
  });
  await keptEqualsRecomputed();

  await t.gqlOk(
    owner,
    'mutation($id: ID!, $p: ID!) { updateShift(input: { shift: { id: $id }, patch: { projectId: $p, stop: "2026-01-05T11:00:00Z" } }) { shift { id } } }',
    { id: a, p: p2 },
  );
  await t.gqlOk(
    owner,
    'mutation($id: ID!, $u: ID!) { updateShift(input: { shift: { id: $id }, patch: { userId: $u } }) { shift { id } } }',
    { id: b, u: owner.ownerId },
  );
  await keptEqualsRecomputed();

  await t.gqlOk(
    owner,
    'mutation($id: ID!) { deleteShift(input: { shift: { id: $id } }) { shift { id } } }',
    { id: b },
  );
  await t.gqlOk(
    staff,
    'mutation($p: ID!) { punchIn(input: { project: { id: $p } }) { project { id } } }',
    { p: p3 },
  );
  await keptEqualsRecomputed();
  await t.gqlOk(
    staff,
    'mutation($p: ID!) { punchOut(input: { project: { id: $p } }) { project { id } } }',
    { p: p3 },
  );
  await keptEqualsRecomputed();

  const totals = await t.gqlOk(owner, '{ projects { nodes { id grandTotal } } }');
  const independent = await t.db.orm.em.getConnection().execute<{ uuid: string; total: string }[]>(
    `select p.uuid, coalesce(sum(extract(epoch from (coalesce(s.stop, now()) - s.start))), 0)::bigint::text as total
       from projects p left join shifts s on s.account_id = p.account_id and s.project_id = p.id
      where p.uuid = any(?::uuid[]) group by p.uuid`,
    [`{${[p1, p2, p3].join(',')}}`],
  );
  for (const row of independent) {
    expect(totals.projects.nodes.find((n: { id: string }) => n.id === row.uuid).grandTotal).toBe(
      Number(row.total),
    );
  }
  expect(totals.projects.nodes.find((n: { id: string }) => n.id === p2).grandTotal).toBe(
    2 * 3600 + 45 * 60,
  );

  // Cascades: deleting a project or a user removes their kept totals with them.
  await t.gqlOk(
    owner,
    'mutation($id: ID!) { deleteProject(input: { project: { id: $id } }) { project { id } } }',
    { id: p2 },
  );
  await t.gqlOk(
    owner,
    'mutation($id: ID!) { deleteStaff(input: { staff: { id: $id } }) { staff { id } } }',
    { id: staff.id },
  );
  await keptEqualsRecomputed();
});

test('a running shift counts up to the request instant, on top of the kept sums', async () => {
  const company = (
    await t.gqlOk(owner, 'mutation { createCompany(input: { name: "Live" }) { company { id } } }')
  ).createCompany.company.id;
  const p = (
    await t.gqlOk(
      owner,
      'mutation($c: ID!) { createProject(input: { name: "Live", companyId: $c }) { project { id } } }',
      { c: company },
    )
  ).createProject.project.id;
  await createShift(owner, {
    projectId: p,
    start: '2026-01-05T09:00:00Z',
    stop: '2026-01-05T10:00:00Z',
  });
  const start = new Date(Date.now() - 600_000).toISOString();
  await createShift(owner, { projectId: p, start });
  const { project } = await t.gqlOk(
    owner,
    'query($id: ID!) { project(id: $id) { grandTotal runningTotal } }',
    { id: p },
  );
  expect(project.grandTotal).toBeGreaterThanOrEqual(3600 + 600);
  expect(project.grandTotal).toBeLessThan(3600 + 700);
  expect(project.runningTotal).toBe(project.grandTotal);
});

test('totals past 2^31 - 1 seconds (68 years) are exact numbers in GraphQL and the JSON interface', async () => {
  const company = (
    await t.gqlOk(
      owner,
      'mutation { createCompany(input: { name: "Long haul" }) { company { id } } }',
    )
  ).createCompany.company.id;
  const p = (
    await t.gqlOk(
      owner,
      'mutation($c: ID!) { createProject(input: { name: "Centuries", companyId: $c, timeLimit: 3600 }) { project { id } } }',
      { c: company },
    )
  ).createProject.project.id;
  // A century of recorded time: GraphQL's Int would refuse to serialise it (a 500 before).
  await createShift(owner, {
    projectId: p,
    start: '1970-01-01T00:00:00Z',
    stop: '2070-01-01T00:00:00Z',
  });
  const seconds = Date.UTC(2070, 0, 1) / 1000;
  expect(seconds).toBeGreaterThan(2 ** 31);
  const { project } = await t.gqlOk(
    owner,
    'query($id: ID!) { project(id: $id) { grandTotal runningTotal timeLeft overdue } }',
    { id: p },
  );
  expect(project).toEqual({
    grandTotal: seconds,
    runningTotal: seconds,
    timeLeft: 3600 - seconds,
    overdue: true,
  });
  const res = await request(t.app.express)
    .get(`/api/1/projects/${p}.json`)
    .auth(owner.login, owner.password);
  expect(res.status).toBe(200);
  expect(res.body.response).toMatchObject({ grand_total: seconds, time_left: 3600 - seconds });
});
