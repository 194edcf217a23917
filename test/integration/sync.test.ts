/**
 * Incremental sync (issue 21 item 8, docs/sync.md): `updatedAt` filters and `deletions(since:)`
 * from a `syncWatermark`, through the real stack. A sync round after creates, updates (a punch-out
 * by the legacy JSON API included: its own SQL) and deletes (a legacy DELETE and a project's
 * cascade) answers exactly the changes; tombstones follow the read policies; expired ones are
 * purged and a `since` older than the retention is refused.
 */
import { Client } from 'pg';
import request from 'supertest';
import { codes, startTestApp, type Credentials, type TestApp } from '../support/test-app';

let t: TestApp;
let owner: Credentials & { ownerId: string };
beforeAll(async () => {
  t = await startTestApp({ TOMBSTONE_RETENTION_DAYS: '1' });
  owner = await t.newAccount();
});
afterAll(() => t?.close());

const watermark = async (who: Credentials) =>
  (await t.gqlOk(who, '{ syncWatermark }')).syncWatermark as string;

const SINCE = `query($since: DateTimeISO!) {
  shifts(filter: { updatedAt: { gte: $since } }) { nodes { id notes stop updatedAt } }
  projects(filter: { updatedAt: { gte: $since } }) { nodes { id name } }
  activities(filter: { updatedAt: { gte: $since } }) { nodes { id name } }
  companies(filter: { updatedAt: { gte: $since } }) { nodes { id } }
  deletions(since: $since) { totalCount nodes { id: nodeId legacyId typename deletedAt } }
}`;

async function changesSince(who: Credentials, since: string) {
  const d = await t.gqlOk(who, SINCE, { since });
  const ids = (list: { nodes: { id: string }[] }) => list.nodes.map((n) => n.id).sort();
  return {
    shifts: ids(d.shifts),
    projects: ids(d.projects),
    activities: ids(d.activities),
    companies: ids(d.companies),
    deletions: (d.deletions.nodes as { id: string; typename: string }[])
      .map((n) => `${n.typename}:${n.id}`)
      .sort(),
    raw: d,
  };
}

const legacy = (who: Credentials) => ({
  post: (path: string) =>
    request(t.app.express).post(`/api/1${path}`).auth(who.login, who.password),
  del: (path: string) =>
    request(t.app.express).delete(`/api/1${path}`).auth(who.login, who.password),
});

test('a sync round answers exactly what changed: updates, creates, deletes and cascades', async () => {
  const company = await t.create(owner, 'createCompany', { name: 'Sync Co' });
  const p1 = await t.create(owner, 'createProject', {
    name: 'Kept',
    companyId: company.id,
    visibility: 'PUBLIC',
  });
  const p2 = await t.create(owner, 'createProject', {
    name: 'Doomed',
    companyId: company.id,
    visibility: 'PUBLIC',
  });
  const activity = await t.create(owner, 'createActivity', { name: 'Design', projectId: p2.id });
  const shift = (projectId: string, start: string) =>
    t.create(owner, 'createShift', { projectId, start, stop: start.replace('T09', 'T10') });
  const s1 = await shift(p1.id, '2026-02-02T09:00:00Z');
  const s2 = await shift(p1.id, '2026-02-03T09:00:00Z');
  const s3 = await shift(p2.id, '2026-02-04T09:00:00Z');

  // First sync: everything, then the watermark the next sync starts from.
  const w0 = await watermark(owner);
  const before = await changesSince(owner, w0);
  expect(before).toMatchObject({
    shifts: [],
    projects: [],
    activities: [],
    companies: [],
    deletions: [],
  });

  await t.gqlOk(
    owner,
    'mutation($id: ID!) { updateShift(input: { shift: { id: $id }, patch: { notes: "edited" } }) { shift { id } } }',
    {
      id: s1.id,
    },
  );
  const s4 = await shift(p1.id, '2026-02-05T09:00:00Z');
  expect((await legacy(owner).del(`/projects/${p1.id}/shifts/${s2.id}.json`)).status).toBe(200);
  await t.gqlOk(
    owner,
    'mutation($id: ID!) { deleteProject(input: { project: { id: $id } }) { project { id } } }',
    { id: p2.id },
  );
  expect((await legacy(owner).post(`/projects/${p1.id}/punch_in.json`)).status).toBe(200);
  const running = (
    await t.gqlOk(owner, '{ shifts(filter: { stop: { isNull: true } }) { nodes { id } } }')
  ).shifts.nodes[0].id as string;

  const w1 = await watermark(owner);
  const round1 = await changesSince(owner, w0);
  expect(round1.shifts).toEqual([s1.id, s4.id, running].sort());
  expect(round1.projects).toEqual([]);
  expect(round1.activities).toEqual([]);
  expect(round1.companies).toEqual([]);
  expect(round1.deletions).toEqual(
    [`Shift:${s2.id}`, `Shift:${s3.id}`, `Project:${p2.id}`, `Activity:${activity.id}`].sort(),
  );
  expect(round1.raw.deletions.totalCount).toBe(4);
  expect(round1.raw.shifts.nodes.find((n: { id: string }) => n.id === s1.id).notes).toBe('edited');

  // The punch-out stops the shift with its own SQL: its updatedAt moves all the same.
  expect((await legacy(owner).post(`/projects/${p1.id}/punch_out.json`)).status).toBe(200);
  const round2 = await changesSince(owner, w1);
  expect(round2.shifts).toEqual([running]);
  expect(round2.raw.shifts.nodes[0].stop).not.toBeNull();
  expect(round2.deletions).toEqual([]);
  expect(round2.projects).toEqual([]);
});

test('a staff member learns only of the deletions of what they could see', async () => {
  const staff = await t.newStaff(owner);
  const company = await t.create(owner, 'createCompany', { name: 'Tomb Co', visibility: 'PUBLIC' });
  const open = await t.create(owner, 'createProject', {
    name: 'Open',
    companyId: company.id,
    visibility: 'PUBLIC',
  });
  const closed = await t.create(owner, 'createProject', {
    name: 'Closed',
    companyId: company.id,
    visibility: 'PRIVATE',
  });
  const mine = await t.create(staff, 'createShift', {
    projectId: open.id,
    start: '2026-03-02T09:00:00Z',
    stop: '2026-03-02T10:00:00Z',
  });
  const theirs = await t.create(owner, 'createShift', {
    projectId: open.id,
    start: '2026-03-03T09:00:00Z',
    stop: '2026-03-03T10:00:00Z',
  });
  const since = await watermark(staff);

  // The company goes, with both projects and both shifts (cascade).
  await t.gqlOk(
    owner,
    'mutation($id: ID!) { deleteCompany(input: { company: { id: $id } }) { company { id } } }',
    { id: company.id },
  );

  const seen = await changesSince(staff, since);
  expect(seen.deletions).toEqual(
    [`Company:${company.id}`, `Project:${open.id}`, `Shift:${mine.id}`].sort(),
  );
  const all = await changesSince(owner, since);
  expect(all.deletions).toEqual(
    [
      `Company:${company.id}`,
      `Project:${open.id}`,
      `Project:${closed.id}`,
      `Shift:${mine.id}`,
      `Shift:${theirs.id}`,
    ].sort(),
  );
});

test('tombstones older than TOMBSTONE_RETENTION_DAYS are purged, and so old a since is refused', async () => {
  const company = await t.create(owner, 'createCompany', { name: 'Old Co' });
  const since = await watermark(owner);
  await t.gqlOk(
    owner,
    'mutation($id: ID!) { deleteCompany(input: { company: { id: $id } }) { company { id } } }',
    { id: company.id },
  );
  const sql = t.db.orm.em.getConnection();
  // Two days pass for this tombstone (the retention is one day).
  await sql.execute(`update tombstones set deleted_at = now() - interval '2 days' where uuid = ?`, [
    company.id,
  ]);
  const [{ recent }] = await sql.execute<{ recent: Date }[]>(
    `select now() - interval '12 hours' as recent`,
  );
  const answer = await t.gqlOk(owner, SINCE, { since: new Date(recent).toISOString() });
  expect(answer.deletions.nodes.map((n: { id: string }) => n.id)).not.toContain(company.id);
  expect(await sql.execute(`select id from tombstones where uuid = ?`, [company.id])).toEqual([]);

  const tooOld = await t.gql(
    owner,
    'query($s: DateTimeISO!) { deletions(since: $s) { totalCount } }',
    {
      s: new Date(new Date(since).getTime() - 3 * 86_400_000).toISOString(),
    },
  );
  expect(codes(tooOld)).toEqual(['VALIDATION_FAILED']);
});

// The watermark's guarantee needs a second session writing while the watermark is taken: a
// PostgreSQL server (the embedded database serves one session, whose transactions run in turn).
(process.env.TEST_DATABASE_URL ? test : test.skip)(
  'a change committed after the watermark by a transaction in flight before it is found from it',
  async () => {
    const company = await t.create(owner, 'createCompany', { name: 'Late Co' });
    const project = await t.create(owner, 'createProject', {
      name: 'Late',
      companyId: company.id,
      visibility: 'PUBLIC',
    });
    const shift = await t.create(owner, 'createShift', {
      projectId: project.id,
      start: '2026-05-04T09:00:00Z',
      stop: '2026-05-04T10:00:00Z',
    });
    const late = new Client({ connectionString: (t.config.database as { url: string }).url });
    await late.connect();
    try {
      // A writer of another session: it starts, writes with SQL of its own, and commits only
      // after the watermark (and a sync reading from before it) have been taken.
      await late.query('begin');
      await late.query(`update shifts set notes = 'late' where uuid = $1`, [shift.id]);
      const w0 = await watermark(owner);
      const meanwhile = await changesSince(owner, w0);
      expect(meanwhile.shifts).toEqual([]);
      await late.query('commit');

      const next = await changesSince(owner, w0);
      expect(next.shifts).toEqual([shift.id]);
      expect(next.raw.shifts.nodes[0].notes).toBe('late');
    } finally {
      await late.end();
    }
  },
);
