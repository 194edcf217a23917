/**
 * A mutation reports everything it changed (issue 34 item 4). Deleting a company, a project or a
 * user deletes shifts by foreign-key cascade, and deleting an activity changes the shifts that
 * named it; setting or removing a rate changes the current rate of a project or user. For each:
 * the payload names what changed, the `shiftEvents` subscription (graphql-ws on a real port)
 * hears an event per shift, and each webhook receives one delivery per shift (the outbox sender
 * driven by hand, to a real HTTP receiver). A large cascade writes its events with a number of
 * statements that does not grow with the number of shifts.
 *
 * "Nothing else arrived" is shown by a later marker change: events arrive in commit order.
 */
import { OutboxSender } from '../../src/modules/delivery/outbox-sender';
import { basicAuthorization, GraphQLSocket } from '../support/graphql-ws-session';
import type { LiveSubscription } from '../support/graphql-ws-session';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

interface HeardEvent {
  kind: string;
  deletedShiftId: string | null;
  snapshot: { shiftId: string; notes: string | null; activityId: string | null };
  shift: { id: string; activityId: string | null } | null;
}
const EVENTS = `subscription { shiftEvents {
  kind deletedShiftId snapshot { shiftId notes activityId } shift { id activityId }
} }`;

/** A webhook body, as far as these tests read it. */
interface WebhookBody {
  type: string;
  data: { shift: { id: string; activityId: string | null } };
}

let t: TestApp;
let url: string;
let sender: OutboxSender;
let receiver: WebhookReceiver;
let owner: Credentials & { ownerId: string; ownerLegacyId: number; accountId: number };
let manager: Credentials & { id: string; legacyId: number };
let primer: { id: string };
let primerShift: { id: string };
let ownerSocket: GraphQLSocket;
let managerSocket: GraphQLSocket;
let ownerEvents: LiveSubscription<HeardEvent>;
let managerEvents: LiveSubscription<HeardEvent>;
let markers = 0;

beforeAll(async () => {
  receiver = new WebhookReceiver();
  await receiver.start();
  t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' });
  url = await t.listen();
  sender = new OutboxSender(t.db.orm, t.config.outbox);
  owner = await t.newAccount();
  manager = await t.newStaff(owner, { type: 'MANAGER' });
  await t.gqlOk(
    owner,
    'mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { webhook { id } } }',
    {
      input: {
        url: receiver.url,
        eventKinds: ['SHIFT_CREATED', 'SHIFT_UPDATED', 'SHIFT_DELETED'],
        description: 'cascades',
      },
    },
  );
  const company = await t.create(owner, 'createCompany', { name: 'Primer Co' });
  primer = await t.create(owner, 'createProject', {
    name: 'Primer',
    companyId: company.id,
    visibility: 'PUBLIC',
  });
  primerShift = await t.create(owner, 'createShift', {
    projectId: primer.id,
    start: '2026-01-01T09:00:00Z',
    stop: '2026-01-01T10:00:00Z',
  });

  ownerSocket = new GraphQLSocket(url, basicAuthorization(owner));
  managerSocket = new GraphQLSocket(url, basicAuthorization(manager));
  await Promise.all([ownerSocket.connected(), managerSocket.connected()]);
  ownerEvents = ownerSocket.subscribe(EVENTS, (data) => data.shiftEvents as HeardEvent);
  managerEvents = managerSocket.subscribe(EVENTS, (data) => data.shiftEvents as HeardEvent);
  await ownerEvents.primed(() => marker());
  await managerEvents.primed(() => marker());
  await delivered();
});
afterAll(async () => {
  await ownerSocket?.dispose();
  await managerSocket?.dispose();
  await sender?.stop();
  await t?.close();
  await receiver?.stop();
});

/** A change both subscribers hear: the notes of the primer shift. */
async function marker(): Promise<string> {
  markers += 1;
  const notes = `marker ${markers}`;
  await t.gqlOk(
    owner,
    'mutation($s: ID!, $n: String!) { updateShift(input: { shift: { id: $s }, patch: { notes: $n } }) { shift { id } } }',
    { s: primerShift.id, n: notes },
  );
  return notes;
}

/**
 * What `subscription` heard from now until a marker change made after `change`: the marker is
 * heard after every event of the change, which committed first.
 */
async function heardDuring(
  subscription: LiveSubscription<HeardEvent>,
  change: () => Promise<unknown>,
): Promise<HeardEvent[]> {
  await settled();
  const from = subscription.received.length;
  await change();
  const notes = await marker();
  await subscription.heard((event) => event.snapshot.notes === notes);
  return subscription.received
    .slice(from)
    .filter((event) => event.snapshot.shiftId !== primerShift.id);
}

/**
 * Both subscribers have heard every change made so far: events reach a socket a little after
 * their change answers, so a test that counts what a later change sends starts from a marker
 * made after them, which each subscriber hears after them.
 */
async function settled(): Promise<void> {
  const notes = await marker();
  await Promise.all(
    [ownerEvents, managerEvents].map((events) =>
      events.heard((event) => event.snapshot.notes === notes),
    ),
  );
}

/** Everything the outbox holds, delivered to the receiver; answers the bodies, markers left out. */
async function delivered(): Promise<WebhookBody[]> {
  receiver.take();
  for (;;) {
    const { claimed } = await sender.drainOnce();
    if (claimed === 0) break;
  }
  return receiver
    .take()
    .map((received) => JSON.parse(received.body) as WebhookBody)
    .filter((body) => body.data.shift.id !== primerShift.id);
}

async function projectWithShifts(name: string, companyId: string, shifts: number) {
  const project = await t.create(owner, 'createProject', {
    name,
    companyId,
    visibility: 'PUBLIC',
  });
  const activity = await t.create(owner, 'createActivity', { name: 'Work', projectId: project.id });
  const ids: string[] = [];
  for (let i = 0; i < shifts; i++) {
    const who = i % 2 === 0 ? owner : manager;
    const shift = await t.create(who, 'createShift', {
      projectId: project.id,
      activityId: activity.id,
      start: `2026-02-0${i + 1}T09:00:00Z`,
      stop: `2026-02-0${i + 1}T10:00:00Z`,
    });
    ids.push(shift.id);
  }
  return { project, activity, shiftIds: ids };
}

const sorted = (ids: readonly string[]) => [...ids].sort();

describe('deletions that cascade to shifts', () => {
  test('deleteProject names its activities and shifts, and each shift sends SHIFT_DELETED to subscribers and webhooks', async () => {
    const company = await t.create(owner, 'createCompany', { name: 'Project Cascade Co' });
    const { project, activity, shiftIds } = await projectWithShifts('Doomed', company.id, 3);
    await delivered(); // the creations' own webhooks

    let payload: Record<string, unknown> = {};
    await settled();
    const fromManager = managerEvents.received.length;
    const heard = await heardDuring(ownerEvents, async () => {
      payload = (
        await t.gqlOk(
          owner,
          `mutation($p: ID!) { deleteProject(input: { project: { id: $p } }) {
            deletedProjectId deletedActivityIds deletedActivityCount deletedShiftIds deletedShiftCount
          } }`,
          { p: project.id },
        )
      ).deleteProject;
    });
    // The manager saw the PUBLIC project: they hear of its shifts although it is gone now.
    await managerEvents.heard((e) => e.snapshot.notes === `marker ${markers}`);
    const managerHeard = managerEvents.received
      .slice(fromManager)
      .filter((e) => e.snapshot.shiftId !== primerShift.id);

    expect(payload).toEqual({
      deletedProjectId: project.id,
      deletedActivityIds: [activity.id],
      deletedActivityCount: 1,
      deletedShiftIds: shiftIds,
      deletedShiftCount: 3,
    });
    expect(heard.map((e) => [e.kind, e.deletedShiftId, e.shift])).toEqual(
      shiftIds.map((id) => ['SHIFT_DELETED', id, null]),
    );
    expect(sorted(managerHeard.map((e) => e.deletedShiftId!))).toEqual(sorted(shiftIds));
    const bodies = await delivered();
    expect(bodies.map((b) => [b.type, b.data.shift.id])).toEqual(
      shiftIds.map((id) => ['SHIFT_DELETED', id]),
    );
  });

  test('deleteCompany names its projects, activities and shifts, and sends SHIFT_DELETED for each shift', async () => {
    const company = await t.create(owner, 'createCompany', { name: 'Company Cascade Co' });
    const first = await projectWithShifts('First', company.id, 2);
    const second = await projectWithShifts('Second', company.id, 1);
    await delivered();
    const shiftIds = [...first.shiftIds, ...second.shiftIds];

    let payload: Record<string, unknown> = {};
    const heard = await heardDuring(ownerEvents, async () => {
      payload = (
        await t.gqlOk(
          owner,
          `mutation($c: ID!) { deleteCompany(input: { company: { id: $c } }) {
            deletedCompanyId deletedProjectIds deletedProjectCount deletedActivityIds deletedActivityCount
            deletedShiftIds deletedShiftCount
          } }`,
          { c: company.id },
        )
      ).deleteCompany;
    });

    expect(payload).toEqual({
      deletedCompanyId: company.id,
      deletedProjectIds: [first.project.id, second.project.id],
      deletedProjectCount: 2,
      deletedActivityIds: [first.activity.id, second.activity.id],
      deletedActivityCount: 2,
      deletedShiftIds: shiftIds,
      deletedShiftCount: 3,
    });
    expect(heard.map((e) => [e.kind, e.deletedShiftId])).toEqual(
      shiftIds.map((id) => ['SHIFT_DELETED', id]),
    );
    expect((await delivered()).map((b) => [b.type, b.data.shift.id])).toEqual(
      shiftIds.map((id) => ['SHIFT_DELETED', id]),
    );
  });

  test('a manager deleting a company learns only of what they could see; subscribers hear by what they could see', async () => {
    const company = await t.create(owner, 'createCompany', {
      name: 'Mixed Co',
      visibility: 'PUBLIC',
    });
    const visible = await projectWithShifts('Seen', company.id, 1);
    const hidden = await t.create(owner, 'createProject', {
      name: 'Hidden',
      companyId: company.id,
      visibility: 'PRIVATE',
    });
    const hiddenShift = await t.create(owner, 'createShift', {
      projectId: hidden.id,
      start: '2026-05-01T09:00:00Z',
      stop: '2026-05-01T10:00:00Z',
    });
    await delivered();

    let payload: Record<string, unknown> = {};
    await settled();
    const fromManager = managerEvents.received.length;
    const heard = await heardDuring(ownerEvents, async () => {
      payload = (
        await t.gqlOk(
          manager,
          `mutation($c: ID!) { deleteCompany(input: { company: { id: $c } }) {
            deletedProjectIds deletedProjectCount deletedShiftIds deletedShiftCount
          } }`,
          { c: company.id },
        )
      ).deleteCompany;
    });
    await managerEvents.heard((e) => e.snapshot.notes === `marker ${markers}`);
    const managerHeard = managerEvents.received
      .slice(fromManager)
      .filter((e) => e.snapshot.shiftId !== primerShift.id);

    expect(payload).toEqual({
      deletedProjectIds: [visible.project.id],
      deletedProjectCount: 1,
      deletedShiftIds: visible.shiftIds,
      deletedShiftCount: 1,
    });
    // The owner sees every shift; the manager only the one on the PUBLIC project.
    expect(sorted(heard.map((e) => e.deletedShiftId!))).toEqual(
      sorted([...visible.shiftIds, hiddenShift.id]),
    );
    expect(managerHeard.map((e) => e.deletedShiftId)).toEqual(visible.shiftIds);
    // Webhooks are the account's: every shift.
    expect(sorted((await delivered()).map((b) => b.data.shift.id))).toEqual(
      sorted([...visible.shiftIds, hiddenShift.id]),
    );
  });

  test("deleteStaff names the user's shifts and the projects whose totals changed, and sends SHIFT_DELETED for each shift", async () => {
    const leaver = await t.newStaff(owner);
    const company = await t.create(owner, 'createCompany', { name: 'Staff Cascade Co' });
    const project = await t.create(owner, 'createProject', {
      name: 'Worked on',
      companyId: company.id,
      visibility: 'PUBLIC',
    });
    const kept = await t.create(owner, 'createShift', {
      projectId: project.id,
      start: '2026-03-01T09:00:00Z',
      stop: '2026-03-01T10:00:00Z',
    });
    const gone: string[] = [];
    for (const day of ['02', '03'])
      gone.push(
        (
          await t.create(leaver, 'createShift', {
            projectId: project.id,
            start: `2026-03-${day}T09:00:00Z`,
            stop: `2026-03-${day}T11:00:00Z`,
          })
        ).id,
      );
    await delivered();

    let payload: Record<string, unknown> = {};
    const heard = await heardDuring(ownerEvents, async () => {
      payload = (
        await t.gqlOk(
          owner,
          `mutation($s: ID!) { deleteStaff(input: { staff: { id: $s } }) {
            deletedStaffId deletedShiftIds deletedShiftCount
            updatedProjects { id grandTotal } updatedProjectCount updatedCompanyCount
          } }`,
          { s: leaver.id },
        )
      ).deleteStaff;
    });

    expect(payload).toEqual({
      deletedStaffId: leaver.id,
      deletedShiftIds: gone,
      deletedShiftCount: 2,
      // Only the owner's hour is left on the project.
      updatedProjects: [{ id: project.id, grandTotal: 3600 }],
      updatedProjectCount: 1,
      updatedCompanyCount: 0,
    });
    expect(heard.map((e) => [e.kind, e.deletedShiftId])).toEqual(
      gone.map((id) => ['SHIFT_DELETED', id]),
    );
    expect(heard.some((e) => e.snapshot.shiftId === kept.id)).toBe(false);
    expect((await delivered()).map((b) => [b.type, b.data.shift.id])).toEqual(
      gone.map((id) => ['SHIFT_DELETED', id]),
    );
  });
});

test('deleteActivity answers the shifts that lose it, and each sends SHIFT_UPDATED to subscribers and webhooks', async () => {
  const company = await t.create(owner, 'createCompany', { name: 'Activity Cascade Co' });
  const { project, activity, shiftIds } = await projectWithShifts('Active', company.id, 2);
  const other = await t.create(owner, 'createShift', {
    projectId: project.id,
    start: '2026-04-01T09:00:00Z',
    stop: '2026-04-01T10:00:00Z',
  });
  await delivered();
  const before = await t.gqlOk(owner, 'query($id: ID!) { shift(id: $id) { updatedAt } }', {
    id: shiftIds[0],
  });

  let payload: Record<string, any> = {};
  const heard = await heardDuring(ownerEvents, async () => {
    payload = (
      await t.gqlOk(
        owner,
        `mutation($a: ID!) { deleteActivity(input: { activity: { id: $a } }) {
          deletedActivityId updatedShiftCount updatedShifts { id activityId activity { id } updatedAt }
        } }`,
        { a: activity.id },
      )
    ).deleteActivity;
  });

  expect(payload.deletedActivityId).toBe(activity.id);
  expect(payload.updatedShiftCount).toBe(2);
  expect(payload.updatedShifts.map((s: any) => [s.id, s.activityId, s.activity])).toEqual(
    shiftIds.map((id) => [id, null, null]),
  );
  // What a fresh read answers, updatedAt included (it moved).
  for (const shift of payload.updatedShifts)
    expect(
      (
        await t.gqlOk(
          owner,
          'query($id: ID!) { shift(id: $id) { id activityId activity { id } updatedAt } }',
          {
            id: shift.id,
          },
        )
      ).shift,
    ).toEqual(shift);
  expect(payload.updatedShifts[0].updatedAt).not.toBe(before.shift.updatedAt);

  expect(heard.map((e) => [e.kind, e.snapshot.shiftId, e.snapshot.activityId, e.shift])).toEqual(
    shiftIds.map((id) => ['SHIFT_UPDATED', id, null, { id, activityId: null }]),
  );
  expect(heard.some((e) => e.snapshot.shiftId === other.id)).toBe(false);
  expect(
    (await delivered()).map((b) => [b.type, b.data.shift.id, b.data.shift.activityId]),
  ).toEqual(shiftIds.map((id) => ['SHIFT_UPDATED', id, null]));
});

describe('rates', () => {
  test('setRate and deleteRate answer the project whose current rate changed', async () => {
    const company = await t.create(owner, 'createCompany', { name: 'Rate Co' });
    const project = await t.create(owner, 'createProject', {
      name: 'Rated',
      companyId: company.id,
      hourlyRateCents: 5000,
    });
    const set = (
      await t.gqlOk(
        owner,
        `mutation($p: ID!) { setRate(input: { project: { id: $p }, cents: 7000, effectiveFrom: "2020-01-01T00:00:00Z" }) {
          rate { id cents } project { id hourlyRateCents rates { cents } } staff { id }
        } }`,
        { p: project.id },
      )
    ).setRate;
    expect(set.project).toEqual({
      id: project.id,
      hourlyRateCents: 7000,
      rates: [{ cents: 5000 }, { cents: 7000 }],
    });
    expect(set.staff).toBeNull();
    const fresh = async () =>
      (
        await t.gqlOk(
          owner,
          'query($id: ID!) { project(id: $id) { id hourlyRateCents rates { cents } } }',
          {
            id: project.id,
          },
        )
      ).project;
    expect(await fresh()).toEqual(set.project);

    const removed = (
      await t.gqlOk(
        owner,
        `mutation($id: Int!) { deleteRate(input: { id: $id }) { deletedRateId project { id hourlyRateCents rates { cents } } } }`,
        { id: set.rate.id },
      )
    ).deleteRate;
    expect(removed.project).toEqual({
      id: project.id,
      hourlyRateCents: 5000,
      rates: [{ cents: 5000 }],
    });
    expect(await fresh()).toEqual(removed.project);
  });

  test('setRate for a user answers the user whose current rates changed', async () => {
    const worker = await t.newStaff(owner);
    const set = (
      await t.gqlOk(
        owner,
        `mutation($u: ID!) { setRate(input: { user: { id: $u }, kind: COST, cents: 2500, effectiveFrom: "2020-01-01T00:00:00Z" }) {
          project { id } staff { id costRateCents hourlyRateCents }
        } }`,
        { u: worker.id },
      )
    ).setRate;
    expect(set).toEqual({
      project: null,
      staff: { id: worker.id, costRateCents: 2500, hourlyRateCents: null },
    });
  });
});

/**
 * The statements of the deletion itself: the subscribers' credential checks for the events of the
 * change run meanwhile on the same database, whenever their sockets get to them.
 */
function ownStatements(statements: readonly string[]): string[] {
  return statements.filter((sql) => !/password_hash|oauth2_tokens|oauth1_tokens/.test(sql));
}

test('a large cascade writes its events with as many statements as a small one', async () => {
  const company = await t.create(owner, 'createCompany', { name: 'Large Cascade Co' });
  const make = async (name: string, shifts: number) => {
    const project = await t.create(owner, 'createProject', {
      name,
      companyId: company.id,
      visibility: 'PUBLIC',
    });
    // Rows straight into the table: the test is about the deletion, not about creating them.
    await t.db.orm.em.getConnection().execute(
      `insert into shifts (account_id, project_id, user_id, start, stop)
       select p.account_id, p.id, ?, timestamptz '2025-01-01' + make_interval(hours => g), timestamptz '2025-01-01' + make_interval(hours => g, mins => 30)
         from projects p, generate_series(1, ?) g where p.id = ?`,
      [owner.ownerLegacyId, shifts, project.legacyId],
    );
    return project;
  };
  const small = await make('Small', 3);
  const large = await make('Large', 1100);
  await delivered();

  const remove = (project: { id: string }) => () =>
    t.gqlOk(
      owner,
      'mutation($p: ID!) { deleteProject(input: { project: { id: $p } }) { deletedShiftCount } }',
      {
        p: project.id,
      },
    );
  let smallStatements: string[] = [];
  let largeStatements: string[] = [];
  const heard = await heardDuring(ownerEvents, async () => {
    smallStatements = ownStatements(await t.recordStatements(remove(small)));
    largeStatements = ownStatements(await t.recordStatements(remove(large)));
  });
  // The manager hears them all too before the test ends (its socket closes after).
  await managerEvents.heard((e) => e.snapshot.notes === `marker ${markers}`);
  expect(heard.filter((e) => e.kind === 'SHIFT_DELETED')).toHaveLength(1103);
  // 1100 shifts are two chunks of snapshots (1000 a chunk) where 3 are one: the second chunk's
  // read, its projects' listings and each sink's statements (the webhook sink's two: the account's
  // webhooks, then the deliveries from VALUES, whose ids Citus draws on the coordinator).
  expect(largeStatements.length - smallStatements.length).toBeLessThanOrEqual(5);
  const bodies = await delivered();
  expect(bodies.filter((b) => b.type === 'SHIFT_DELETED')).toHaveLength(1103);
  expect(new Set(bodies.map((b) => b.data.shift.id)).size).toBe(1103);
});
