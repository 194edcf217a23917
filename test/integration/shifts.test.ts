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

const SHIFT_FIELDS = `id legacyId start stop running timeZone timeZoneOffset billable notes tagList externalHref
  project { id } user { id } activity { id }`;
const CREATE = `mutation($input: CreateShiftInput!) { createShift(input: $input) { shift { ${SHIFT_FIELDS} } } }`;
const UPDATE = `mutation($ref: ShiftRef!, $input: ShiftInput!) {
  updateShift(input: { shift: $ref, patch: $input }) { shift { ${SHIFT_FIELDS} } }
}`;
const GET = `query($id: ID, $legacyId: Int, $projectId: ID, $projectLegacyId: Int) {
  shift(id: $id, legacyId: $legacyId, projectId: $projectId, projectLegacyId: $projectLegacyId) { ${SHIFT_FIELDS} }
}`;
const DELETE = `mutation($ref: ShiftRef!) { deleteShift(input: { shift: $ref }) { shift { id legacyId start } } }`;
const LIST = `query($filter: ShiftFilter, $order: [ShiftOrder!], $first: Int, $after: String, $projectId: ID, $projectLegacyId: Int) {
  shifts(filter: $filter, order: $order, first: $first, after: $after, projectId: $projectId, projectLegacyId: $projectLegacyId) {
    totalCount
    pageInfo { hasNextPage endCursor }
    nodes { id notes }
  }
}`;

interface Ref {
  id: string;
  legacyId: number;
}

type Shift = Record<string, unknown> & {
  id: string;
  legacyId: number;
  start: string;
  stop: string | null;
};

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

async function newActivity(who: Credentials, project: Ref, name = 'Work'): Promise<Ref> {
  const data = await t.gqlOk(
    who,
    `mutation($input: CreateActivityInput!) { createActivity(input: $input) { activity { id legacyId } } }`,
    {
      input: { name, projectId: project.id },
    },
  );
  return data.createActivity.activity;
}

async function create(who: Credentials, input: Record<string, unknown>): Promise<Shift> {
  const data = await t.gqlOk(who, CREATE, { input });
  return data.createShift.shift;
}

async function read(who: Credentials, id: string): Promise<Shift> {
  return (await t.gqlOk(who, GET, { id })).shift;
}

async function notes(who: Credentials, variables: Record<string, unknown>): Promise<string[]> {
  const data = await t.gqlOk(who, LIST, variables);
  return data.shifts.nodes.map((n: { notes: string }) => n.notes);
}

describe('create and read', () => {
  test('creates a finished shift with defaults and reads it by uuid and integer id', async () => {
    const owner = await t.newAccount({ timeZone: 'Europe/Vienna' });
    const project = await newProject(owner);
    const created = await create(owner, {
      projectId: project.id,
      start: '2026-01-10T08:00:00Z',
      stop: '2026-01-10T12:30:00Z',
    });
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      legacyId: expect.any(Number),
      start: '2026-01-10T08:00:00.000Z',
      stop: '2026-01-10T12:30:00.000Z',
      running: false,
      // The user's zone when none is given.
      timeZone: 'Europe/Vienna',
      timeZoneOffset: 3600,
      billable: true,
      notes: null,
      tagList: [],
      externalHref: null,
      project: { id: project.id },
      user: { id: owner.ownerId },
      activity: null,
    });
    expect(await read(owner, created.id)).toEqual(created);
    expect((await t.gqlOk(owner, GET, { legacyId: created.legacyId })).shift).toEqual(created);
    expect((await t.gqlOk(owner, GET, { id: created.id, projectId: project.id })).shift).toEqual(
      created,
    );
    const other = await newProject(owner);
    expect(codes(await t.gql(owner, GET, { id: created.id, projectId: other.id }))).toEqual([
      'NOT_FOUND',
    ]);
  });

  test('creates a shift with every field and a caller-supplied uuid', async () => {
    const owner = await t.newAccount();
    const project = await newProject(owner, { billableByDefault: true });
    const activity = await newActivity(owner, project);
    const member = await t.newStaff(owner, { timeZone: 'Asia/Tokyo' });
    const id = randomUUID();
    const created = await create(owner, {
      id,
      projectLegacyId: project.legacyId,
      activityLegacyId: activity.legacyId,
      userId: member.id,
      start: '2026-06-01T00:00:00Z',
      stop: '2026-06-01T08:00:00Z',
      timeZone: 'America/Los_Angeles',
      billable: false,
      notes: 'Night shift',
      tagList: ['ops', 'ops', 'on-call'],
      externalHref: 'https://tracker.example/1',
    });
    expect(created).toEqual({
      id,
      legacyId: expect.any(Number),
      start: '2026-06-01T00:00:00.000Z',
      stop: '2026-06-01T08:00:00.000Z',
      running: false,
      timeZone: 'America/Los_Angeles',
      timeZoneOffset: -25200,
      billable: false,
      notes: 'Night shift',
      tagList: ['ops', 'on-call'],
      externalHref: 'https://tracker.example/1',
      project: { id: project.id },
      user: { id: member.id },
      activity: { id: activity.id },
    });
    expect(await read(owner, id)).toEqual(created);
    // The member sees their own shift.
    expect(await read(member, id)).toEqual(created);
  });

  test("billable defaults to the project's billableByDefault; the zone to the user's", async () => {
    const owner = await t.newAccount();
    const project = await newProject(owner, { billableByDefault: false });
    const member = await t.newStaff(owner, { timeZone: 'Asia/Tokyo' });
    const s = await create(owner, {
      projectId: project.id,
      userLegacyId: member.legacyId,
      start: '2026-01-05T00:00:00Z',
      stop: '2026-01-05T01:00:00Z',
    });
    expect(s.billable).toBe(false);
    expect(s.timeZone).toBe('Asia/Tokyo');
    expect(s.timeZoneOffset).toBe(32_400);
    expect(s.user).toEqual({ id: member.id });
  });

  test("timeZoneOffset is the zone's offset at the start, in seconds", async () => {
    const owner = await t.newAccount();
    const project = await newProject(owner);
    const winter = await create(owner, {
      projectId: project.id,
      timeZone: 'America/New_York',
      start: '2026-01-15T15:00:00Z',
      stop: '2026-01-15T16:00:00Z',
    });
    expect(winter.timeZoneOffset).toBe(-18_000);
    const summer = await create(owner, {
      projectId: project.id,
      timeZone: 'America/New_York',
      start: '2026-07-15T15:00:00Z',
      stop: '2026-07-15T16:00:00Z',
    });
    expect(summer.timeZoneOffset).toBe(-14_400);
    const india = await create(owner, {
      projectId: project.id,
      timeZone: 'Asia/Kolkata',
      start: '2026-07-16T15:00:00Z',
      stop: '2026-07-16T16:00:00Z',
    });
    expect(india.timeZoneOffset).toBe(19_800);
    const utc = await create(owner, {
      projectId: project.id,
      timeZone: 'UTC',
      start: '2026-07-17T15:00:00Z',
      stop: '2026-07-17T16:00:00Z',
    });
    expect(utc.timeZoneOffset).toBe(0);
  });

  test('a start with an offset is stored as the same instant', async () => {
    const owner = await t.newAccount();
    const project = await newProject(owner);
    const s = await create(owner, {
      projectId: project.id,
      start: '2026-04-01T10:00:00+02:00',
      stop: '2026-04-01T10:45:30.250Z',
    });
    expect(s.start).toBe('2026-04-01T08:00:00.000Z');
    expect(s.stop).toBe('2026-04-01T10:45:30.250Z');
  });
});

describe('local times as text', () => {
  test("'21 Nov 2026 14:00' in Europe/Berlin starts at 13:00 UTC", async () => {
    const owner = await t.newAccount();
    const project = await newProject(owner);
    const s = await create(owner, {
      projectId: project.id,
      timeZone: 'Europe/Berlin',
      localStartAsString: '21 Nov 2026 14:00',
      localStopAsString: '21 Nov 2026 16:30',
    });
    expect(s.start).toBe('2026-11-21T13:00:00.000Z');
    expect(s.stop).toBe('2026-11-21T15:30:00.000Z');
    expect(s.timeZoneOffset).toBe(3600);
    expect(await read(owner, s.id)).toEqual(s);
  });

  test('summer time is honoured, and the text wins over start', async () => {
    const owner = await t.newAccount();
    const project = await newProject(owner);
    const s = await create(owner, {
      projectId: project.id,
      timeZone: 'America/New_York',
      start: '2020-01-01T00:00:00Z',
      localStartAsString: '2026-07-01 09:15',
      localStopAsString: 'July 1 2026 5:45pm',
    });
    expect(s.start).toBe('2026-07-01T13:15:00.000Z');
    expect(s.stop).toBe('2026-07-01T21:45:00.000Z');
  });

  test('an explicit whole-hour offset in the text wins over the zone', async () => {
    const owner = await t.newAccount();
    const project = await newProject(owner);
    const s = await create(owner, {
      projectId: project.id,
      timeZone: 'UTC',
      localStartAsString: '21 Nov 2026 14:00 +02:00',
      stop: '2026-11-21T13:00:00Z',
    });
    expect(s.start).toBe('2026-11-21T12:00:00.000Z');
  });

  // Bug: an offset that is not a whole number of hours becomes the luxon zone "UTC+5.5", which is
  // invalid, so readable text is refused as unreadable.
  test('an explicit half-hour offset in the text is read too', async () => {
    const owner = await t.newAccount();
    const project = await newProject(owner);
    const res = await t.gql(owner, CREATE, {
      input: {
        projectId: project.id,
        timeZone: 'UTC',
        localStartAsString: '21 Nov 2026 14:00 +05:30',
        stop: '2026-11-21T10:00:00Z',
      },
    });
    expect(res.errors).toBeUndefined();
    expect(res.data?.createShift?.shift.start).toBe('2026-11-21T08:30:00.000Z');
  });

  test('updating with local text reads it in the shift zone', async () => {
    const owner = await t.newAccount();
    const project = await newProject(owner);
    const s = await create(owner, {
      projectId: project.id,
      timeZone: 'Europe/Berlin',
      start: '2026-11-21T08:00:00Z',
      stop: '2026-11-21T09:00:00Z',
    });
    const updated = await t.gqlOk(owner, UPDATE, {
      ref: { id: s.id },
      input: { localStopAsString: '21 Nov 2026 18:00' },
    });
    expect(updated.updateShift.shift).toEqual({ ...s, stop: '2026-11-21T17:00:00.000Z' });
    const moved = await t.gqlOk(owner, UPDATE, {
      ref: { id: s.id },
      input: { timeZone: 'Asia/Tokyo', localStartAsString: '21 Nov 2026 18:00' },
    });
    expect(moved.updateShift.shift.start).toBe('2026-11-21T09:00:00.000Z');
    expect(moved.updateShift.shift.timeZone).toBe('Asia/Tokyo');
    expect(moved.updateShift.shift.timeZoneOffset).toBe(32_400);
  });

  test('unparseable text is VALIDATION_FAILED naming the field, and nothing is stored', async () => {
    const owner = await t.newAccount();
    const project = await newProject(owner);
    const start = await t.gql(owner, CREATE, {
      input: { projectId: project.id, localStartAsString: 'whenever suits' },
    });
    expect(onlyError(start)).toEqual({ code: 'VALIDATION_FAILED', fields: ['localStartAsString'] });
    expect(start.errors?.[0]?.extensions?.entity).toBe('Shift');
    const stop = await t.gql(owner, CREATE, {
      input: {
        projectId: project.id,
        start: '2026-01-01T10:00:00Z',
        localStopAsString: 'gibberish',
      },
    });
    expect(onlyError(stop)).toEqual({ code: 'VALIDATION_FAILED', fields: ['localStopAsString'] });
    expect((await t.gqlOk(owner, LIST, {})).shifts.totalCount).toBe(0);
    const s = await create(owner, {
      projectId: project.id,
      start: '2026-01-01T10:00:00Z',
      stop: '2026-01-01T11:00:00Z',
    });
    const upd = await t.gql(owner, UPDATE, {
      ref: { id: s.id },
      input: { localStartAsString: 'not a time' },
    });
    expect(onlyError(upd)).toEqual({ code: 'VALIDATION_FAILED', fields: ['localStartAsString'] });
    expect(await read(owner, s.id)).toEqual(s);
  });
});

describe('running shifts', () => {
  test('a shift without stop is running', async () => {
    const owner = await t.newAccount();
    const project = await newProject(owner);
    const first = await create(owner, {
      projectId: project.id,
      start: '2026-02-02T08:00:00Z',
      notes: 'first',
    });
    expect(first.stop).toBeNull();
    expect(first.running).toBe(true);
    expect(await read(owner, first.id)).toEqual(first);
    const state = await t.gqlOk(
      owner,
      `query($id: ID) { project(id: $id) { running startedAt currentShift { id } } }`,
      { id: project.id },
    );
    expect(state.project).toEqual({
      running: true,
      startedAt: '2026-02-02T08:00:00.000Z',
      currentShift: { id: first.id },
    });
    const running = await t.gqlOk(owner, LIST, { filter: { stop: { isNull: true } } });
    expect(running.shifts.nodes).toEqual([{ id: first.id, notes: 'first' }]);
  });

  // Bug: createShift persists the new running shift before settle() stops the old one, and the
  // single flush inserts before it updates, so the partial unique index (one running shift per
  // user) refuses the insert: VALIDATION_FAILED "stop the user already has a running shift".
  test("a second running shift stops the user's running one at its own start", async () => {
    const owner = await t.newAccount();
    const project = await newProject(owner);
    const other = await newProject(owner);
    const first = await create(owner, {
      projectId: project.id,
      start: '2026-02-02T08:00:00Z',
      notes: 'first',
    });
    const second = await create(owner, {
      projectId: other.id,
      start: '2026-02-02T10:15:00Z',
      notes: 'second',
    });
    expect(second.running).toBe(true);
    expect(await read(owner, first.id)).toEqual({
      ...first,
      stop: '2026-02-02T10:15:00.000Z',
      running: false,
    });
    const running = await t.gqlOk(owner, LIST, { filter: { stop: { isNull: true } } });
    expect(running.shifts.nodes).toEqual([{ id: second.id, notes: 'second' }]);
  });

  test('a finished shift leaves the running one alone', async () => {
    const owner = await t.newAccount();
    const project = await newProject(owner);
    const run = await create(owner, { projectId: project.id, start: '2026-02-03T08:00:00Z' });
    await create(owner, {
      projectId: project.id,
      start: '2026-02-03T09:00:00Z',
      stop: '2026-02-03T09:30:00Z',
    });
    expect((await read(owner, run.id)).running).toBe(true);
  });

  test('running shifts of different users do not stop each other', async () => {
    const owner = await t.newAccount();
    const member = await t.newStaff(owner);
    const project = await newProject(owner);
    const mine = await create(owner, { projectId: project.id, start: '2026-02-04T08:00:00Z' });
    const theirs = await create(owner, {
      projectId: project.id,
      userId: member.id,
      start: '2026-02-04T09:00:00Z',
    });
    expect((await read(owner, mine.id)).running).toBe(true);
    expect((await read(owner, theirs.id)).running).toBe(true);
  });

  test("a running shift that starts no later than the user's running one is VALIDATION_FAILED", async () => {
    const owner = await t.newAccount();
    const project = await newProject(owner);
    const run = await create(owner, { projectId: project.id, start: '2026-02-05T08:00:00Z' });
    const earlier = await t.gql(owner, CREATE, {
      input: { projectId: project.id, start: '2026-02-05T07:00:00Z', notes: 'earlier' },
    });
    expect(onlyError(earlier)).toEqual({ code: 'VALIDATION_FAILED', fields: ['start'] });
    const same = await t.gql(owner, CREATE, {
      input: { projectId: project.id, start: '2026-02-05T08:00:00Z', notes: 'same' },
    });
    expect(onlyError(same)).toEqual({ code: 'VALIDATION_FAILED', fields: ['start'] });
    expect(await read(owner, run.id)).toEqual(run);
    expect((await t.gqlOk(owner, LIST, {})).shifts.totalCount).toBe(1);
  });

  // Bug: the same flush order as above: the restarted shift is written before the running one is
  // stopped, so the unique index refuses it with VALIDATION_FAILED.
  test('updating stop to null restarts a shift and stops the running one', async () => {
    const owner = await t.newAccount();
    const project = await newProject(owner);
    const done = await create(owner, {
      projectId: project.id,
      start: '2026-02-06T12:00:00Z',
      stop: '2026-02-06T13:00:00Z',
    });
    const run = await create(owner, { projectId: project.id, start: '2026-02-06T08:00:00Z' });
    const restarted = await t.gqlOk(owner, UPDATE, { ref: { id: done.id }, input: { stop: null } });
    expect(restarted.updateShift.shift).toEqual({ ...done, stop: null, running: true });
    expect(await read(owner, run.id)).toEqual({
      ...run,
      stop: '2026-02-06T12:00:00.000Z',
      running: false,
    });
  });
});

describe('list: filter, order, pages', () => {
  let owner: Credentials & { ownerId: string };
  let member: Ref & Credentials;
  let p1: Ref;
  let p2: Ref;
  let act: Ref;

  beforeAll(async () => {
    owner = await t.newAccount();
    member = await t.newStaff(owner);
    p1 = await newProject(owner);
    p2 = await newProject(owner, { billableByDefault: false });
    act = await newActivity(owner, p1);
    const rows: Record<string, unknown>[] = [
      {
        notes: 'a-monday',
        projectId: p1.id,
        start: '2026-03-02T08:00:00Z',
        stop: '2026-03-02T12:00:00Z',
        activityId: act.id,
        timeZone: 'Europe/Berlin',
      },
      {
        notes: 'b-tuesday',
        projectId: p1.id,
        start: '2026-03-03T08:00:00Z',
        stop: '2026-03-03T10:00:00Z',
        userId: member.id,
      },
      {
        notes: 'c-wednesday',
        projectId: p2.id,
        start: '2026-03-04T08:00:00Z',
        stop: '2026-03-04T09:00:00Z',
        timeZone: 'Asia/Tokyo',
      },
      {
        notes: 'd-THURSDAY',
        projectId: p2.id,
        start: '2026-03-05T08:00:00Z',
        stop: '2026-03-05T18:00:00Z',
        userId: member.id,
      },
      { notes: 'e-friday', projectId: p1.id, start: '2026-03-06T08:00:00Z' },
    ];
    for (const row of rows) await create(owner, row);
  });

  test('eq, ne, in and like', async () => {
    expect(await notes(owner, { filter: { userId: { eq: member.id } } })).toEqual([
      'b-tuesday',
      'd-THURSDAY',
    ]);
    expect(await notes(owner, { filter: { billable: { eq: false } } })).toEqual([
      'c-wednesday',
      'd-THURSDAY',
    ]);
    expect(await notes(owner, { filter: { timeZone: { ne: 'UTC' } } })).toEqual([
      'a-monday',
      'c-wednesday',
    ]);
    expect(await notes(owner, { filter: { projectLegacyId: { in: [p2.legacyId] } } })).toEqual([
      'c-wednesday',
      'd-THURSDAY',
    ]);
    expect(await notes(owner, { filter: { activityId: { eq: act.id } } })).toEqual(['a-monday']);
    expect(await notes(owner, { filter: { notes: { like: '%thursday' } } })).toEqual([
      'd-THURSDAY',
    ]);
    expect(await notes(owner, { filter: { notes: { like: '%DAY' } } })).toEqual([
      'a-monday',
      'b-tuesday',
      'c-wednesday',
      'd-THURSDAY',
      'e-friday',
    ]);
  });

  test('lt, gt and isNull on times and relations', async () => {
    expect(
      await notes(owner, {
        filter: { start: { gt: '2026-03-03T08:00:00Z', lt: '2026-03-06T00:00:00Z' } },
      }),
    ).toEqual(['c-wednesday', 'd-THURSDAY']);
    expect(
      await notes(owner, {
        filter: { start: { gte: '2026-03-03T08:00:00Z', lte: '2026-03-04T08:00:00Z' } },
      }),
    ).toEqual(['b-tuesday', 'c-wednesday']);
    expect(await notes(owner, { filter: { stop: { isNull: true } } })).toEqual(['e-friday']);
    expect(await notes(owner, { filter: { activityId: { isNull: false } } })).toEqual(['a-monday']);
    expect(await notes(owner, { filter: { stop: { lt: '2026-03-03T11:30:00+01:00' } } })).toEqual([
      'a-monday',
      'b-tuesday',
    ]);
  });

  test('and, or, not', async () => {
    expect(
      await notes(owner, {
        filter: { and: [{ projectId: { eq: p1.id } }, { userId: { eq: owner.ownerId } }] },
      }),
    ).toEqual(['a-monday', 'e-friday']);
    expect(
      await notes(owner, {
        filter: { or: [{ timeZone: { eq: 'Asia/Tokyo' } }, { stop: { isNull: true } }] },
      }),
    ).toEqual(['c-wednesday', 'e-friday']);
    expect(await notes(owner, { filter: { not: { projectId: { eq: p1.id } } } })).toEqual([
      'c-wednesday',
      'd-THURSDAY',
    ]);
    expect(
      await notes(owner, {
        filter: {
          and: [
            { not: { userId: { eq: member.id } } },
            { or: [{ billable: { eq: false } }, { activityId: { isNull: false } }] },
          ],
        },
      }),
    ).toEqual(['a-monday', 'c-wednesday']);
  });

  test('orders ascending and descending', async () => {
    expect(await notes(owner, { order: [{ field: 'START', direction: 'DESC' }] })).toEqual([
      'e-friday',
      'd-THURSDAY',
      'c-wednesday',
      'b-tuesday',
      'a-monday',
    ]);
    expect(await notes(owner, { order: [{ field: 'START', direction: 'ASC' }] })).toEqual([
      'a-monday',
      'b-tuesday',
      'c-wednesday',
      'd-THURSDAY',
      'e-friday',
    ]);
    expect(
      await notes(owner, {
        filter: { stop: { isNull: false } },
        order: [{ field: 'STOP', direction: 'DESC' }],
      }),
    ).toEqual(['d-THURSDAY', 'c-wednesday', 'b-tuesday', 'a-monday']);
    expect(
      await notes(owner, { order: [{ field: 'BILLABLE' }, { field: 'START', direction: 'DESC' }] }),
    ).toEqual(['d-THURSDAY', 'c-wednesday', 'e-friday', 'b-tuesday', 'a-monday']);
  });

  test('pages with first/after, totalCount and pageInfo', async () => {
    const order = [{ field: 'START', direction: 'DESC' }];
    const page1 = (await t.gqlOk(owner, LIST, { order, first: 2 })).shifts;
    expect(page1.totalCount).toBe(5);
    expect(page1.nodes.map((n: { notes: string }) => n.notes)).toEqual(['e-friday', 'd-THURSDAY']);
    expect(page1.pageInfo.hasNextPage).toBe(true);
    const page2 = (await t.gqlOk(owner, LIST, { order, first: 2, after: page1.pageInfo.endCursor }))
      .shifts;
    expect(page2.nodes.map((n: { notes: string }) => n.notes)).toEqual([
      'c-wednesday',
      'b-tuesday',
    ]);
    expect(page2.pageInfo.hasNextPage).toBe(true);
    const page3 = (await t.gqlOk(owner, LIST, { order, first: 2, after: page2.pageInfo.endCursor }))
      .shifts;
    expect(page3.nodes.map((n: { notes: string }) => n.notes)).toEqual(['a-monday']);
    expect(page3.pageInfo.hasNextPage).toBe(false);
    expect(page3.totalCount).toBe(5);
    const ofProject = (await t.gqlOk(owner, LIST, { projectId: p2.id, first: 1, order })).shifts;
    expect(ofProject.totalCount).toBe(2);
    expect(ofProject.nodes.map((n: { notes: string }) => n.notes)).toEqual(['d-THURSDAY']);
    expect(ofProject.pageInfo.hasNextPage).toBe(true);
    const nested = await t.gqlOk(
      owner,
      `query($id: ID) { project(id: $id) { shifts(first: 2, order: [{ field: START }]) { totalCount pageInfo { hasNextPage } nodes { notes } } } }`,
      {
        id: p1.id,
      },
    );
    expect(nested.project.shifts).toEqual({
      totalCount: 3,
      pageInfo: { hasNextPage: true },
      nodes: [{ notes: 'a-monday' }, { notes: 'b-tuesday' }],
    });
  });

  test('a staff member lists and reads only their own shifts', async () => {
    expect(await notes(member, { order: [{ field: 'START' }] })).toEqual([
      'b-tuesday',
      'd-THURSDAY',
    ]);
    const ownerShift = (await t.gqlOk(owner, LIST, { filter: { notes: { eq: 'a-monday' } } }))
      .shifts.nodes[0].id as string;
    expect(codes(await t.gql(member, GET, { id: ownerShift }))).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(member, DELETE, { ref: { id: ownerShift } }))).toEqual(['NOT_FOUND']);
    expect(
      codes(await t.gql(member, UPDATE, { ref: { id: ownerShift }, input: { notes: 'mine now' } })),
    ).toEqual(['NOT_FOUND']);
    expect((await read(owner, ownerShift)).notes).toBe('a-monday');
  });

  test('malformed filter values are VALIDATION_FAILED or BAD_USER_INPUT', async () => {
    expect(onlyError(await t.gql(owner, LIST, { filter: { userId: { eq: 'me' } } }))).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['filter.userId.eq'],
    });
    expect(codes(await t.gql(owner, LIST, { filter: { start: { gt: 'last week' } } }))).toEqual([
      'BAD_USER_INPUT',
    ]);
  });
});

describe('update', () => {
  test('merges: omitted fields are kept, explicit null clears nullable fields', async () => {
    const owner = await t.newAccount();
    const project = await newProject(owner);
    const activity = await newActivity(owner, project);
    const s = await create(owner, {
      projectId: project.id,
      activityId: activity.id,
      start: '2026-05-01T08:00:00Z',
      stop: '2026-05-01T16:00:00Z',
      notes: 'Full day',
      tagList: ['a'],
      externalHref: 'https://x.example/1',
      timeZone: 'Europe/Madrid',
    });
    const changed = await t.gqlOk(owner, UPDATE, {
      ref: { id: s.id },
      input: { notes: 'Long day', tagList: ['b', 'c'] },
    });
    expect(changed.updateShift.shift).toEqual({ ...s, notes: 'Long day', tagList: ['b', 'c'] });
    const cleared = await t.gqlOk(owner, UPDATE, {
      ref: { legacyId: s.legacyId },
      input: { notes: null, externalHref: null, activityId: null },
    });
    const expected = { ...s, notes: null, externalHref: null, activity: null, tagList: ['b', 'c'] };
    expect(cleared.updateShift.shift).toEqual(expected);
    expect(await read(owner, s.id)).toEqual(expected);
    const moved = await t.gqlOk(owner, UPDATE, {
      ref: { id: s.id },
      input: { start: '2026-05-01T09:00:00Z', billable: false },
    });
    expect(moved.updateShift.shift).toEqual({
      ...expected,
      start: '2026-05-01T09:00:00.000Z',
      billable: false,
    });
    expect(
      (await t.gqlOk(owner, UPDATE, { ref: { id: s.id }, input: {} })).updateShift.shift,
    ).toEqual({
      ...expected,
      start: '2026-05-01T09:00:00.000Z',
      billable: false,
    });
  });

  // Bug: after `shift.project` is replaced by a loaded Project entity, update() calls
  // `shift.project.loadOrFail()`, which entities do not have: INTERNAL_SERVER_ERROR.
  test('moves a shift to another project', async () => {
    const owner = await t.newAccount();
    const from = await newProject(owner);
    const to = await newProject(owner);
    const s = await create(owner, {
      projectId: from.id,
      start: '2026-05-02T08:00:00Z',
      stop: '2026-05-02T09:00:00Z',
    });
    const moved = await t.gql(owner, UPDATE, { ref: { id: s.id }, input: { projectId: to.id } });
    expect(moved.errors).toBeUndefined();
    expect(moved.data?.updateShift?.shift).toEqual({ ...s, project: { id: to.id } });
    expect(await read(owner, s.id)).toEqual({ ...s, project: { id: to.id } });
  });

  // Bug: same as above (INTERNAL_SERVER_ERROR instead of the activity check).
  test('moving to another project keeps the activity only if it belongs there', async () => {
    const owner = await t.newAccount();
    const from = await newProject(owner);
    const to = await newProject(owner);
    const activity = await newActivity(owner, from);
    const target = await newActivity(owner, to, 'Target');
    const s = await create(owner, {
      projectId: from.id,
      activityId: activity.id,
      start: '2026-05-02T08:00:00Z',
      stop: '2026-05-02T09:00:00Z',
    });
    const refused = await t.gql(owner, UPDATE, { ref: { id: s.id }, input: { projectId: to.id } });
    expect(onlyError(refused)).toEqual({ code: 'VALIDATION_FAILED', fields: ['activityId'] });
    expect(await read(owner, s.id)).toEqual(s);
    const moved = await t.gqlOk(owner, UPDATE, {
      ref: { id: s.id },
      input: { projectId: to.id, activityId: target.id },
    });
    expect(moved.updateShift.shift).toEqual({
      ...s,
      project: { id: to.id },
      activity: { id: target.id },
    });
  });

  test('changing the activity within the project', async () => {
    const owner = await t.newAccount();
    const project = await newProject(owner);
    const a = await newActivity(owner, project, 'A');
    const b = await newActivity(owner, project, 'B');
    const s = await create(owner, {
      projectId: project.id,
      activityId: a.id,
      start: '2026-05-02T08:00:00Z',
      stop: '2026-05-02T09:00:00Z',
    });
    const changed = await t.gqlOk(owner, UPDATE, {
      ref: { id: s.id },
      input: { activityLegacyId: b.legacyId },
    });
    expect(changed.updateShift.shift).toEqual({ ...s, activity: { id: b.id } });
    const other = await newActivity(owner, await newProject(owner), 'Elsewhere');
    expect(
      onlyError(await t.gql(owner, UPDATE, { ref: { id: s.id }, input: { activityId: other.id } })),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['activityId'],
    });
    expect(await read(owner, s.id)).toEqual({ ...s, activity: { id: b.id } });
  });

  test('a stop before the start is VALIDATION_FAILED and changes nothing', async () => {
    const owner = await t.newAccount();
    const project = await newProject(owner);
    const s = await create(owner, {
      projectId: project.id,
      start: '2026-05-03T08:00:00Z',
      stop: '2026-05-03T09:00:00Z',
    });
    expect(
      onlyError(
        await t.gql(owner, UPDATE, { ref: { id: s.id }, input: { stop: '2026-05-03T07:00:00Z' } }),
      ),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['stop'],
    });
    expect(
      onlyError(
        await t.gql(owner, UPDATE, {
          ref: { id: s.id },
          input: { start: '2026-05-03T10:00:00Z', notes: 'late' },
        }),
      ),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['stop'],
    });
    expect(
      onlyError(await t.gql(owner, UPDATE, { ref: { id: s.id }, input: { start: null } })),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['start'],
    });
    expect(
      onlyError(
        await t.gql(owner, UPDATE, { ref: { id: s.id }, input: { timeZone: 'Nowhere/Special' } }),
      ),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['timeZone'],
    });
    expect(await read(owner, s.id)).toEqual(s);
  });
});

describe('delete', () => {
  test('deletes a shift; reading it then is NOT_FOUND', async () => {
    const owner = await t.newAccount();
    const project = await newProject(owner);
    const s = await create(owner, {
      projectId: project.id,
      start: '2026-05-04T08:00:00Z',
      stop: '2026-05-04T09:00:00Z',
    });
    const keep = await create(owner, {
      projectId: project.id,
      start: '2026-05-05T08:00:00Z',
      stop: '2026-05-05T09:00:00Z',
      notes: 'keep',
    });
    expect((await t.gqlOk(owner, DELETE, { ref: { id: s.id } })).deleteShift.shift).toEqual({
      id: s.id,
      legacyId: s.legacyId,
      start: '2026-05-04T08:00:00.000Z',
    });
    expect(codes(await t.gql(owner, GET, { id: s.id }))).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(owner, GET, { legacyId: s.legacyId }))).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(owner, DELETE, { ref: { id: s.id } }))).toEqual(['NOT_FOUND']);
    expect((await t.gqlOk(owner, LIST, {})).shifts.nodes).toEqual([{ id: keep.id, notes: 'keep' }]);
    expect(
      (
        await t.gqlOk(owner, `query($id: ID) { project(id: $id) { grandTotal } }`, {
          id: project.id,
        })
      ).project.grandTotal,
    ).toBe(3600);
    expect(
      (await t.gqlOk(owner, DELETE, { ref: { legacyId: keep.legacyId } })).deleteShift.shift.id,
    ).toBe(keep.id);
    expect((await t.gqlOk(owner, LIST, {})).shifts.totalCount).toBe(0);
  });
});

describe('staff members', () => {
  test('a staff member logs, edits and deletes their own shifts', async () => {
    const owner = await t.newAccount();
    const member = await t.newStaff(owner, { timeZone: 'Europe/Lisbon' });
    const project = await newProject(owner, { visibility: 'PUBLIC' });
    const s = await create(member, {
      projectId: project.id,
      start: '2026-08-01T08:00:00Z',
      stop: '2026-08-01T09:00:00Z',
    });
    expect(s.user).toEqual({ id: member.id });
    expect(s.timeZone).toBe('Europe/Lisbon');
    const edited = await t.gqlOk(member, UPDATE, { ref: { id: s.id }, input: { notes: 'mine' } });
    expect(edited.updateShift.shift.notes).toBe('mine');
    await t.gqlOk(member, DELETE, { ref: { id: s.id } });
    expect(codes(await t.gql(owner, GET, { id: s.id }))).toEqual(['NOT_FOUND']);
  });

  test('a staff member may not log a shift for someone else', async () => {
    const owner = await t.newAccount();
    const member = await t.newStaff(owner);
    const project = await newProject(owner, { visibility: 'PUBLIC' });
    const res = await t.gql(member, CREATE, {
      input: { projectId: project.id, userId: owner.ownerId, start: '2026-08-02T08:00:00Z' },
    });
    expect(codes(res)).toEqual(['CREATE_DENIED']);
    expect((await t.gqlOk(owner, LIST, {})).shifts.totalCount).toBe(0);
  });
});

describe('bad input', () => {
  let owner: Credentials & { ownerId: string };
  let project: Ref;
  const count = async () => (await t.gqlOk(owner, LIST, {})).shifts.totalCount as number;

  beforeAll(async () => {
    owner = await t.newAccount();
    project = await newProject(owner);
  });

  test('a missing start is VALIDATION_FAILED naming start', async () => {
    const res = await t.gql(owner, CREATE, {
      input: { projectId: project.id, stop: '2026-01-01T10:00:00Z' },
    });
    expect(onlyError(res)).toEqual({ code: 'VALIDATION_FAILED', fields: ['start'] });
    expect(res.errors?.[0]?.extensions?.entity).toBe('Shift');
    expect(await count()).toBe(0);
  });

  test('a stop before or at the start is VALIDATION_FAILED naming stop', async () => {
    const before = await t.gql(owner, CREATE, {
      input: { projectId: project.id, start: '2026-01-01T10:00:00Z', stop: '2026-01-01T09:59:59Z' },
    });
    expect(onlyError(before)).toEqual({ code: 'VALIDATION_FAILED', fields: ['stop'] });
    const same = await t.gql(owner, CREATE, {
      input: { projectId: project.id, start: '2026-01-01T10:00:00Z', stop: '2026-01-01T10:00:00Z' },
    });
    expect(onlyError(same)).toEqual({ code: 'VALIDATION_FAILED', fields: ['stop'] });
    const local = await t.gql(owner, CREATE, {
      input: {
        projectId: project.id,
        timeZone: 'Europe/Berlin',
        localStartAsString: '21 Nov 2026 14:00',
        localStopAsString: '21 Nov 2026 13:00',
      },
    });
    expect(onlyError(local)).toEqual({ code: 'VALIDATION_FAILED', fields: ['stop'] });
    expect(await count()).toBe(0);
  });

  test('an invalid time zone is VALIDATION_FAILED naming timeZone', async () => {
    for (const timeZone of ['Europe/Atlantis', '', 'GMT+25', 'x'.repeat(100)]) {
      const res = await t.gql(owner, CREATE, {
        input: {
          projectId: project.id,
          start: '2026-01-01T10:00:00Z',
          stop: '2026-01-01T11:00:00Z',
          timeZone,
        },
      });
      expect(onlyError(res)).toEqual({ code: 'VALIDATION_FAILED', fields: ['timeZone'] });
    }
    expect(await count()).toBe(0);
  });

  test('times outside 1970..9999 are refused', async () => {
    const early = await t.gql(owner, CREATE, {
      input: { projectId: project.id, start: '1969-12-31T23:59:59Z', stop: '1970-01-02T00:00:00Z' },
    });
    expect(onlyError(early)).toEqual({ code: 'VALIDATION_FAILED', fields: ['start'] });
    const late = await t.gql(owner, CREATE, {
      input: {
        projectId: project.id,
        start: '2026-01-01T10:00:00Z',
        stop: '10000-01-01T00:00:00Z',
      },
    });
    expect(codes(late)).toEqual(['BAD_USER_INPUT']);
    expect(await count()).toBe(0);
  });

  // Bug: the 1970..9999 range is checked on `start`/`stop` only; a time read from
  // localStartAsString skips it and a shift starting in 1900 is stored.
  test('a local start before 1970 is refused like start', async () => {
    // An account of its own: the bug stores a shift, which must not disturb the other tests.
    const someone = await t.newAccount();
    const theirs = await newProject(someone);
    const res = await t.gql(someone, CREATE, {
      input: {
        projectId: theirs.id,
        timeZone: 'UTC',
        localStartAsString: '1 Mar 1900 10:00',
        stop: '2026-03-05T00:00:00Z',
      },
    });
    expect(codes(res)).toEqual(['VALIDATION_FAILED']);
    expect((await t.gqlOk(someone, LIST, {})).shifts.totalCount).toBe(0);
  });

  // Bug: the field error names `id` (the new shift's own optional uuid) instead of `projectId`.
  test('a missing project is VALIDATION_FAILED naming projectId', async () => {
    const res = await t.gql(owner, CREATE, {
      input: { start: '2026-01-01T10:00:00Z', stop: '2026-01-01T11:00:00Z' },
    });
    expect(onlyError(res)).toEqual({ code: 'VALIDATION_FAILED', fields: ['projectId'] });
  });

  test('a missing project is VALIDATION_FAILED; an unknown or malformed one is NOT_FOUND', async () => {
    expect(codes(await t.gql(owner, CREATE, { input: { start: '2026-01-01T10:00:00Z' } }))).toEqual(
      ['VALIDATION_FAILED'],
    );
    expect(
      codes(
        await t.gql(owner, CREATE, {
          input: { projectId: randomUUID(), start: '2026-01-01T10:00:00Z' },
        }),
      ),
    ).toEqual(['NOT_FOUND']);
    expect(
      codes(
        await t.gql(owner, CREATE, { input: { projectId: 'proj', start: '2026-01-01T10:00:00Z' } }),
      ),
    ).toEqual(['NOT_FOUND']);
    expect(
      codes(
        await t.gql(owner, CREATE, {
          input: { projectLegacyId: -3, start: '2026-01-01T10:00:00Z' },
        }),
      ),
    ).toEqual(['NOT_FOUND']);
    const other = await t.newAccount();
    const foreign = await newProject(other);
    expect(
      codes(
        await t.gql(owner, CREATE, {
          input: { projectId: foreign.id, start: '2026-01-01T10:00:00Z' },
        }),
      ),
    ).toEqual(['NOT_FOUND']);
    expect(await count()).toBe(0);
  });

  test('a user or activity that is not in reach is VALIDATION_FAILED naming it', async () => {
    const other = await t.newAccount();
    const foreignProject = await newProject(other);
    const foreignActivity = await newActivity(other, foreignProject);
    const times = { start: '2026-01-01T10:00:00Z', stop: '2026-01-01T11:00:00Z' };
    expect(
      onlyError(
        await t.gql(owner, CREATE, {
          input: { projectId: project.id, userId: other.ownerId, ...times },
        }),
      ),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['userId'],
    });
    expect(
      onlyError(
        await t.gql(owner, CREATE, { input: { projectId: project.id, userId: 'bob', ...times } }),
      ),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['userId'],
    });
    expect(
      onlyError(
        await t.gql(owner, CREATE, {
          input: { projectId: project.id, activityId: foreignActivity.id, ...times },
        }),
      ),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['activityId'],
    });
    const otherProject = await newProject(owner);
    const elsewhere = await newActivity(owner, otherProject);
    expect(
      onlyError(
        await t.gql(owner, CREATE, {
          input: { projectId: project.id, activityLegacyId: elsewhere.legacyId, ...times },
        }),
      ),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['activityId'],
    });
    expect(await count()).toBe(0);
  });

  test('unknown and malformed ids are NOT_FOUND', async () => {
    expect(codes(await t.gql(owner, GET, { id: randomUUID() }))).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(owner, GET, { id: 'shift-1' }))).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(owner, GET, { legacyId: 123_456_789 }))).toEqual(['NOT_FOUND']);
    expect(
      codes(await t.gql(owner, UPDATE, { ref: { id: randomUUID() }, input: { notes: 'x' } })),
    ).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(owner, UPDATE, { ref: { id: '1' }, input: { notes: 'x' } }))).toEqual([
      'NOT_FOUND',
    ]);
    expect(codes(await t.gql(owner, DELETE, { ref: { id: randomUUID() } }))).toEqual(['NOT_FOUND']);
    expect(codes(await t.gql(owner, DELETE, { ref: { id: 'DROP TABLE shifts' } }))).toEqual([
      'NOT_FOUND',
    ]);
  });

  test('wrong GraphQL types are GRAPHQL_VALIDATION_FAILED or BAD_USER_INPUT', async () => {
    expect(
      codes(
        await t.gql(owner, `mutation { createShift(input: { start: 20260101 }) { shift { id } } }`),
      ),
    ).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(
      codes(
        await t.gql(
          owner,
          `mutation { createShift(input: { start: "tomorrow" }) { shift { id } } }`,
        ),
      ),
    ).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(
      codes(await t.gql(owner, CREATE, { input: { projectId: project.id, start: 'yesterday' } })),
    ).toEqual(['BAD_USER_INPUT']);
    expect(
      codes(await t.gql(owner, CREATE, { input: { projectId: project.id, start: '2026-01-01' } })),
    ).toEqual(['BAD_USER_INPUT']);
    expect(
      codes(
        await t.gql(owner, CREATE, {
          input: { projectId: project.id, start: '2026-01-01T10:00:00Z', billable: 'no' },
        }),
      ),
    ).toEqual(['BAD_USER_INPUT']);
    expect(
      codes(
        await t.gql(owner, CREATE, {
          input: { projectId: project.id, start: '2026-01-01T10:00:00Z', tagList: 'a,b' },
        }),
      ),
    ).toEqual([]);
    expect(await count()).toBe(1);
    const tagged = (await t.gqlOk(owner, `{ shifts { nodes { id tagList } } }`)).shifts.nodes[0];
    // A single value where a list is expected is coerced to a one-item list (GraphQL input coercion).
    expect(tagged.tagList).toEqual(['a,b']);
    await t.gqlOk(owner, DELETE, { ref: { id: tagged.id } });
  });

  test('a supplied uuid that exists is VALIDATION_FAILED and the existing shift is unchanged', async () => {
    const existing = await create(owner, {
      projectId: project.id,
      start: '2026-01-02T10:00:00Z',
      stop: '2026-01-02T11:00:00Z',
      notes: 'original',
    });
    const res = await t.gql(owner, CREATE, {
      input: {
        id: existing.id,
        projectId: project.id,
        start: '2026-01-03T10:00:00Z',
        stop: '2026-01-03T11:00:00Z',
        notes: 'impostor',
      },
    });
    expect(onlyError(res)).toEqual({ code: 'VALIDATION_FAILED', fields: ['id'] });
    expect(await read(owner, existing.id)).toEqual(existing);
    expect(
      onlyError(
        await t.gql(owner, CREATE, {
          input: { id: 'mine', projectId: project.id, start: '2026-01-03T10:00:00Z' },
        }),
      ),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['id'],
    });
    expect(await count()).toBe(1);
    await t.gqlOk(owner, DELETE, { ref: { id: existing.id } });
  });

  test('NUL characters are VALIDATION_FAILED', async () => {
    const times = { start: '2026-01-04T10:00:00Z', stop: '2026-01-04T11:00:00Z' };
    expect(
      onlyError(
        await t.gql(owner, CREATE, {
          input: { projectId: project.id, notes: 'a\u0000', ...times },
        }),
      ),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['notes'],
    });
    expect(
      onlyError(
        await t.gql(owner, CREATE, {
          input: { projectId: project.id, tagList: ['\u0000'], ...times },
        }),
      ),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['tagList.0'],
    });
    expect(
      onlyError(
        await t.gql(owner, CREATE, {
          input: { projectId: project.id, localStartAsString: '\u0000' },
        }),
      ),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['localStartAsString'],
    });
    expect(
      onlyError(
        await t.gql(owner, CREATE, {
          input: { projectId: project.id, timeZone: 'UTC\u0000', ...times },
        }),
      ),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['timeZone'],
    });
    expect(await count()).toBe(0);
  });

  test('too-long strings are VALIDATION_FAILED', async () => {
    const times = { start: '2026-01-05T10:00:00Z', stop: '2026-01-05T11:00:00Z' };
    expect(
      onlyError(
        await t.gql(owner, CREATE, {
          input: { projectId: project.id, notes: 'n'.repeat(10_001), ...times },
        }),
      ),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['notes'],
    });
    expect(
      onlyError(
        await t.gql(owner, CREATE, {
          input: { projectId: project.id, externalHref: 'h'.repeat(2049), ...times },
        }),
      ),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['externalHref'],
    });
    expect(
      onlyError(
        await t.gql(owner, CREATE, {
          input: { projectId: project.id, localStartAsString: 'x'.repeat(256) },
        }),
      ),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['localStartAsString'],
    });
    expect(
      onlyError(
        await t.gql(owner, CREATE, {
          input: { projectId: project.id, tagList: ['t'.repeat(65)], ...times },
        }),
      ),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      fields: ['tagList.0'],
    });
    expect(await count()).toBe(0);
    const fits = await create(owner, {
      projectId: project.id,
      notes: 'n'.repeat(10_000),
      externalHref: 'h'.repeat(2048),
      ...times,
    });
    expect((fits.notes as string).length).toBe(10_000);
    expect((fits.externalHref as string).length).toBe(2048);
    await t.gqlOk(owner, DELETE, { ref: { id: fits.id } });
  });
});
