import request from 'supertest';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * Every mutation answers a payload holding each object it changed, so a normalised client cache
 * updates itself: a shift's projects (their totals), the running shift a write stopped, and the id
 * of what a delete removed. The answers are compared with what a fresh query reads afterwards.
 */
let t: TestApp;
let owner: Credentials;
let company: string;
beforeAll(async () => {
  t = await startTestApp();
  owner = await t.newAccount();
  company = (await t.create(owner, 'createCompany', { name: 'Payload Co', visibility: 'PUBLIC' }))
    .id;
});
afterAll(() => t?.close());

const newProject = async (name: string) =>
  (await t.create(owner, 'createProject', { name, companyId: company, visibility: 'PUBLIC' })).id;

const PROJECT_TOTALS = 'id grandTotal running';

async function totalsOf(id: string) {
  return (
    await t.gqlOk(owner, `query($id: ID!) { project(id: $id) { ${PROJECT_TOTALS} } }`, { id })
  ).project;
}

describe('shift mutations answer the projects and shifts they changed', () => {
  it('createShift of a running shift answers the running shift it stopped, with its project', async () => {
    const earlier = await newProject('Earlier');
    const later = await newProject('Later');
    const running = await t.gqlOk(
      owner,
      `mutation($p: ID!) { createShift(input: { projectId: $p, start: "2026-02-02T09:00:00Z" }) {
        shift { id stop } stoppedShifts { id }
      } }`,
      { p: earlier },
    );
    expect(running.createShift.stoppedShifts).toEqual([]);

    const data = await t.gqlOk(
      owner,
      `mutation($p: ID!) { createShift(input: { projectId: $p, start: "2026-02-02T11:00:00Z" }) {
        shift { id stop }
        project { ${PROJECT_TOTALS} }
        stoppedShifts { id stop project { ${PROJECT_TOTALS} } }
      } }`,
      { p: later },
    );
    const { shift, project, stoppedShifts } = data.createShift;
    expect(shift.stop).toBeNull();
    // The new shift runs, so its project's total counts up to each request's instant: compare
    // what does not move.
    expect(project).toMatchObject({ id: later, running: true });
    expect(await totalsOf(later)).toMatchObject({ id: later, running: true });
    expect(stoppedShifts).toEqual([
      {
        id: running.createShift.shift.id,
        stop: '2026-02-02T11:00:00.000Z',
        project: await totalsOf(earlier),
      },
    ]);
    expect(stoppedShifts[0].project).toMatchObject({ grandTotal: 7200, running: false });
  });

  it('updateShift moving a shift answers both projects; deleteShift answers the project and the id', async () => {
    const from = await newProject('From');
    const to = await newProject('To');
    const shift = await t.create(owner, 'createShift', {
      projectId: from,
      start: '2026-03-03T09:00:00Z',
      stop: '2026-03-03T10:30:00Z',
    });

    const moved = (
      await t.gqlOk(
        owner,
        `mutation($s: ID!, $to: ID!) { updateShift(input: { shift: { id: $s }, patch: { projectId: $to } }) {
          shift { id projectId }
          project { ${PROJECT_TOTALS} }
          previousProject { ${PROJECT_TOTALS} }
          stoppedShifts { id }
        } }`,
        { s: shift.id, to },
      )
    ).updateShift;
    expect(moved.shift).toEqual({ id: shift.id, projectId: to });
    expect(moved.project).toEqual({ id: to, grandTotal: 5400, running: false });
    expect(moved.previousProject).toEqual({ id: from, grandTotal: 0, running: false });
    expect(moved.stoppedShifts).toEqual([]);

    const notes = (
      await t.gqlOk(
        owner,
        `mutation($s: ShiftRef!) { updateShift(input: { shift: $s, patch: { notes: "kept" } }) {
          shift { notes } previousProject { id }
        } }`,
        { s: { legacyId: shift.legacyId } },
      )
    ).updateShift;
    expect(notes).toEqual({ shift: { notes: 'kept' }, previousProject: null });

    const deleted = (
      await t.gqlOk(
        owner,
        `mutation($s: ID!) { deleteShift(input: { shift: { id: $s } }) {
          deletedShiftId shift { id notes } project { ${PROJECT_TOTALS} }
        } }`,
        { s: shift.id },
      )
    ).deleteShift;
    expect(deleted).toEqual({
      deletedShiftId: shift.id,
      shift: { id: shift.id, notes: 'kept' },
      project: { id: to, grandTotal: 0, running: false },
    });
    expect(await totalsOf(to)).toEqual(deleted.project);
  });

  it('a replayed createShift (same Idempotency-Key) answers the same stopped shift', async () => {
    const first = await newProject('Replay first');
    const second = await newProject('Replay second');
    const running = await t.create(owner, 'createShift', {
      projectId: first,
      start: '2026-04-04T08:00:00Z',
    });
    const send = () =>
      request(t.app.express)
        .post('/graphql')
        .set('Idempotency-Key', 'payload-replay-1')
        .auth(owner.login, owner.password)
        .send({
          query: `mutation($p: ID!) { createShift(input: { projectId: $p, start: "2026-04-04T09:00:00Z" }) {
            shift { id } stoppedShifts { id stop }
          } }`,
          variables: { p: second },
        });
    const answers = [(await send()).body, (await send()).body];
    for (const answer of answers) {
      expect(answer.errors).toBeUndefined();
      expect(answer.data.createShift.stoppedShifts).toEqual([
        { id: running.id, stop: '2026-04-04T09:00:00.000Z' },
      ]);
    }
    expect(answers[1].data.createShift.shift).toEqual(answers[0].data.createShift.shift);
  });
});

describe('deletes answer the deleted id and the object as it was', () => {
  it('deleteProject, deleteCompany, deleteActivity and deleteStaff', async () => {
    const doomedCompany = await t.create(owner, 'createCompany', { name: 'Doomed Co' });
    const project = await t.create(owner, 'createProject', {
      name: 'Doomed',
      companyId: doomedCompany.id,
    });
    const activity = await t.create(owner, 'createActivity', {
      name: 'Digging',
      projectId: project.id,
    });
    const staff = await t.newStaff(owner);

    const data = await t.gqlOk(
      owner,
      `mutation($a: ID!, $p: Int!, $c: ID!, $s: ID!) {
        a: deleteActivity(input: { activity: { id: $a } }) { deletedActivityId activity { name } }
        p: deleteProject(input: { project: { legacyId: $p } }) { deletedProjectId project { name } }
        c: deleteCompany(input: { company: { id: $c } }) { deletedCompanyId company { name } }
        s: deleteStaff(input: { staff: { id: $s } }) { deletedStaffId staff { id } }
      }`,
      { a: activity.id, p: project.legacyId, c: doomedCompany.id, s: staff.id },
    );
    expect(data).toEqual({
      a: { deletedActivityId: activity.id, activity: { name: 'Digging' } },
      p: { deletedProjectId: project.id, project: { name: 'Doomed' } },
      c: { deletedCompanyId: doomedCompany.id, company: { name: 'Doomed Co' } },
      s: { deletedStaffId: staff.id, staff: { id: staff.id } },
    });
    const gone = await t.gql(owner, 'query($id: ID!) { company(id: $id) { id } }', {
      id: doomedCompany.id,
    });
    expect(gone.data?.company).toBeNull();
    expect(gone.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});

describe('a @oneOf reference names exactly one of id and legacyId', () => {
  it('both, or neither, is refused before anything runs', async () => {
    const project = await t.create(owner, 'createProject', { name: 'Ref', companyId: company });
    for (const ref of [`{ id: "${project.id}", legacyId: ${project.legacyId} }`, '{}']) {
      const res = await t.gql(
        owner,
        `mutation { updateProject(input: { project: ${ref}, patch: { name: "x" } }) { project { name } } }`,
      );
      expect(res.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    }
    expect(
      (await t.gqlOk(owner, 'query($id: ID!) { project(id: $id) { name } }', { id: project.id }))
        .project.name,
    ).toBe('Ref');
  });
});
