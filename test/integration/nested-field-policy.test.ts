import request from 'supertest';
import { codes, startTestApp, type Credentials, type TestApp } from '../support/test-app';

/*
 * Issue 20, finding 7: the read policy holds at every edge of the graph, not only at the root
 * fields. A staff member with a shift on a PRIVATE project reached the project through
 * `Shift.project` (its name, notes, rate, the owner's time in `grandTotal`, its activities and its
 * company), report rows named it, and `Account.owner`, `Project.users` and `Company.users` showed
 * other people's e-mail addresses, logins and rates, and `Project` its rates, to staff members.
 * Each test performs the leak of the finding through /graphql (or the legacy JSON interface) as
 * the staff member or manager it concerns, and checks what the owner and the person themself
 * still see.
 */

interface User extends Credentials {
  id: string;
  legacyId: number;
}

let t: TestApp;
let owner: User;
let manager: User;
let staff: User;
let colleague: User;
const ids: Record<string, { id: string; legacyId: number }> = {};
const shiftIds: Record<string, string> = {};

const HOUR = 3600;

beforeAll(async () => {
  t = await startTestApp();
  const account = await t.newAccount({ login: `nfp_owner_${Date.now().toString(36)}` });
  owner = {
    login: account.login,
    password: account.password,
    id: account.ownerId,
    legacyId: account.ownerLegacyId,
  };
  await t.gqlOk(
    owner,
    'mutation($id: ID!) { updateStaff(input: { staff: { id: $id }, patch: { hourlyRateCents: 15000 } }) { staff { id } } }',
    {
      id: owner.id,
    },
  );
  manager = await t.newStaff(owner, {
    type: 'MANAGER',
    emailAddress: 'mia@example.com',
    hourlyRateCents: 8000,
  });
  staff = await t.newStaff(owner, { emailAddress: 'sam@example.com', hourlyRateCents: 2500 });
  colleague = await t.newStaff(owner, { emailAddress: 'cat@example.com', hourlyRateCents: 3000 });

  const create = async (key: string, mutation: string, input: Record<string, unknown>) => {
    ids[key] = await t.create(owner, mutation, input);
    return ids[key]!.id;
  };
  const acme = await create('acme', 'createCompany', { name: 'Acme', visibility: 'PUBLIC' });
  await create('club', 'createCompany', {
    name: 'Club',
    visibility: 'CUSTOM',
    userIds: [staff.id, colleague.id, manager.id],
  });
  const secret = await create('secret', 'createProject', {
    name: 'Secret',
    companyId: acme,
    visibility: 'PRIVATE',
    notes: 'for the owner only',
    hourlyRateCents: 9900,
  });
  const open = await create('open', 'createProject', {
    name: 'Zenith',
    companyId: acme,
    visibility: 'PUBLIC',
    hourlyRate: '$50',
    invoiceAmountCents: 120000,
  });
  await create('shared', 'createProject', {
    name: 'Shared',
    companyId: acme,
    visibility: 'CUSTOM',
    userIds: [staff.id, colleague.id, manager.id],
  });
  const covert = await create('covert', 'createActivity', { projectId: secret, name: 'Covert' });
  const design = await create('design', 'createActivity', { projectId: open, name: 'Design' });

  const shift = async (key: string, input: Record<string, unknown>) => {
    shiftIds[key] = (await t.create(owner, 'createShift', input)).id;
  };
  // On Secret: 2 h of the staff member, 3 h of the owner, 1 h of the manager.
  await shift('staffOnSecret', {
    projectId: secret,
    activityId: covert,
    userId: staff.id,
    start: '2026-01-05T09:00:00Z',
    stop: '2026-01-05T11:00:00Z',
  });
  await shift('ownerOnSecret', {
    projectId: secret,
    start: '2026-01-05T09:00:00Z',
    stop: '2026-01-05T12:00:00Z',
  });
  await shift('managerOnSecret', {
    projectId: secret,
    userId: manager.id,
    start: '2026-01-06T09:00:00Z',
    stop: '2026-01-06T10:00:00Z',
  });
  // On Open: 1 h of the staff member.
  await shift('staffOnOpen', {
    projectId: open,
    activityId: design,
    userId: staff.id,
    start: '2026-01-07T09:00:00Z',
    stop: '2026-01-07T10:00:00Z',
  });
});
afterAll(() => t?.close());

const SHIFT_PROJECT = `
  id
  project { name notes hourlyRateCents grandTotal activities { name } company { name } }
  activity { name project { name } }`;

describe('Shift.project and Shift.activity follow the project read policy', () => {
  test("a staff member's shift on a PRIVATE project names no project, activity or company", async () => {
    const one = await t.gqlOk(staff, `query($id: ID!) { shift(id: $id) { ${SHIFT_PROJECT} } }`, {
      id: shiftIds.staffOnSecret,
    });
    expect(one.shift).toEqual({ id: shiftIds.staffOnSecret, project: null, activity: null });

    // The list primes its projects and activities in batches: the same answer.
    const list = await t.gqlOk(staff, `{ shifts(first: 100) { nodes { ${SHIFT_PROJECT} } } }`);
    const byId = new Map(list.shifts.nodes.map((n: { id: string }) => [n.id, n]));
    expect(byId.get(shiftIds.staffOnSecret)).toEqual({
      id: shiftIds.staffOnSecret,
      project: null,
      activity: null,
    });
    // A shift on a project the staff member sees still shows it (a staff member reads no rate).
    expect(byId.get(shiftIds.staffOnOpen)).toEqual({
      id: shiftIds.staffOnOpen,
      project: {
        name: 'Zenith',
        notes: null,
        hourlyRateCents: null,
        grandTotal: HOUR,
        activities: [{ name: 'Design' }],
        company: { name: 'Acme' },
      },
      activity: { name: 'Design', project: { name: 'Zenith' } },
    });

    // The owner still reads the project through the shift, with everyone's time.
    const data = await t.gqlOk(owner, `query($id: ID!) { shift(id: $id) { ${SHIFT_PROJECT} } }`, {
      id: shiftIds.staffOnSecret,
    });
    expect(data.shift).toEqual({
      id: shiftIds.staffOnSecret,
      project: {
        name: 'Secret',
        notes: 'for the owner only',
        hourlyRateCents: 9900,
        grandTotal: 6 * HOUR,
        activities: [{ name: 'Covert' }],
        company: { name: 'Acme' },
      },
      activity: { name: 'Covert', project: { name: 'Secret' } },
    });
  });

  test("a manager's own shift on a project they may not see names no project either", async () => {
    const data = await t.gqlOk(
      manager,
      `query($id: ID!) { shift(id: $id) { ${SHIFT_PROJECT} } shifts(first: 100) { nodes { ${SHIFT_PROJECT} } } }`,
      { id: shiftIds.managerOnSecret },
    );
    expect(data.shift).toEqual({ id: shiftIds.managerOnSecret, project: null, activity: null });
    expect(data.shifts.nodes).toContainEqual({
      id: shiftIds.managerOnSecret,
      project: null,
      activity: null,
    });
  });

  test('which project and activity a shift is on stays known by id, on GraphQL and the legacy interfaces', async () => {
    const query = `query($id: ID!) { shift(id: $id) { projectId projectLegacyId activityId activityLegacyId } }`;
    const expected = {
      projectId: ids.secret!.id,
      projectLegacyId: ids.secret!.legacyId,
      activityId: ids.covert!.id,
      activityLegacyId: ids.covert!.legacyId,
    };
    for (const who of [staff, owner]) {
      expect((await t.gqlOk(who, query, { id: shiftIds.staffOnSecret })).shift).toEqual(expected);
    }
    const json = await request(t.app.express)
      .get(`/api/1/shifts/${shiftIds.staffOnSecret}.json`)
      .auth(staff.login, staff.password);
    expect(json.status).toBe(200);
    expect(json.body.response).toMatchObject({
      project_uuid: ids.secret!.id,
      activity_uuid: ids.covert!.id,
    });
    const xml = await request(t.app.express)
      .get('/shifts.xml')
      .auth(staff.login, staff.password)
      .set('accept', 'application/xml');
    expect(xml.status).toBe(200);
    expect(xml.text).toContain(`<project_id type="integer">${ids.secret!.legacyId}</project_id>`);
  });
});

describe('report rows name only what the caller may see', () => {
  const REPORT = `query($input: ReportInput!) { report(input: $input) {
    totals { seconds amountCents }
    rows { company { id: nodeId name } project { id: nodeId legacyId name } activity { id: nodeId name } seconds amountCents } } }`;
  const input = {
    from: '2026-01-01T00:00:00Z',
    to: '2026-02-01T00:00:00Z',
    groupBy: ['COMPANY', 'PROJECT', 'ACTIVITY'],
  };
  type Row = {
    company: { id: string; name: string | null };
    project: { id: string; legacyId: number; name: string | null };
    activity: { id: string; name: string | null } | null;
    seconds: number;
    amountCents: number | null;
  };
  const rowOf = (rows: Row[], project: string) => rows.find((r) => r.project.id === project);

  test("a staff member's own time on a PRIVATE project counts, unnamed", async () => {
    const { report } = await t.gqlOk(staff, REPORT, { input });
    expect(rowOf(report.rows, ids.secret!.id)).toMatchObject({
      company: { id: ids.acme!.id, name: 'Acme' },
      project: { id: ids.secret!.id, legacyId: ids.secret!.legacyId, name: null },
      activity: { id: ids.covert!.id, name: null },
      seconds: 2 * HOUR,
    });
    expect(rowOf(report.rows, ids.open!.id)).toMatchObject({
      project: { name: 'Zenith' },
      activity: { name: 'Design' },
      seconds: HOUR,
    });
    // The unnamed row sorts as a null name (last), not by its name (Secret would come before
    // Zenith), so its place says nothing about the name.
    expect(report.rows.map((r: Row) => r.project.name)).toEqual(['Zenith', null]);
    expect(report.totals.seconds).toBe(3 * HOUR);

    // The owner gets every name.
    const asOwner = (await t.gqlOk(owner, REPORT, { input })).report;
    const secret = asOwner.rows.filter((r: Row) => r.project.id === ids.secret!.id);
    expect(secret.map((r: Row) => [r.project.name, r.activity?.name ?? null, r.seconds])).toEqual([
      ['Secret', 'Covert', 2 * HOUR],
      ['Secret', null, 4 * HOUR],
    ]);
  });

  test("a manager's own time on a project they may not see counts, unnamed", async () => {
    const { report } = await t.gqlOk(manager, REPORT, { input });
    expect(rowOf(report.rows, ids.secret!.id)).toMatchObject({
      project: { name: null },
      activity: null,
      seconds: HOUR,
    });
  });
});

describe('personal fields of people: the owner, managers and the person themself', () => {
  const PERSONAL = 'id login emailAddress hourlyRateCents';
  const hidden = (user: User) => ({
    id: user.id,
    login: null,
    emailAddress: null,
    hourlyRateCents: null,
  });

  test("viewer.account.owner and Project.account.owner: a staff member reads no owner's e-mail, login or rate", async () => {
    const query = `query($p: ID!) {
      viewer { staff { ${PERSONAL} } account { owner { ${PERSONAL} } } }
      project(id: $p) { account { owner { ${PERSONAL} } } } }`;
    const asStaff = await t.gqlOk(staff, query, { p: ids.open!.id });
    expect(asStaff.viewer.account.owner).toEqual(hidden(owner));
    expect(asStaff.project.account.owner).toEqual(hidden(owner));
    // Their own record they read whole, but for their rate: money, which the account keeps from
    // staff unless its owner lets them see it (issue 23; permissions.test.ts, staff-rate-self).
    expect(asStaff.viewer.staff).toEqual({
      id: staff.id,
      login: staff.login,
      emailAddress: 'sam@example.com',
      hourlyRateCents: null,
    });

    const shown = {
      id: owner.id,
      login: owner.login,
      emailAddress: `${owner.login}@example.com`,
      hourlyRateCents: 15000,
    };
    for (const who of [manager, owner]) {
      const data = await t.gqlOk(who, query, { p: ids.open!.id });
      expect(data.viewer.account.owner).toEqual(shown);
      expect(data.project.account.owner).toEqual(shown);
    }
  });

  test("Project.users and Company.users: a staff member reads no colleague's e-mail, login or rate", async () => {
    const query = `query($p: ID!, $c: ID!) {
      project(id: $p) { users { ${PERSONAL} type firstName } }
      company(id: $c) { users { ${PERSONAL} type firstName } } }`;
    const variables = { p: ids.shared!.id, c: ids.club!.id };
    const mine = {
      id: staff.id,
      login: staff.login,
      emailAddress: 'sam@example.com',
      hourlyRateCents: 2500,
      type: 'STAFF',
      firstName: 'Sam',
    };
    const theirs = {
      id: colleague.id,
      login: colleague.login,
      emailAddress: 'cat@example.com',
      hourlyRateCents: 3000,
      type: 'STAFF',
      firstName: 'Sam',
    };
    const managers = {
      id: manager.id,
      login: manager.login,
      emailAddress: 'mia@example.com',
      hourlyRateCents: 8000,
      type: 'MANAGER',
      firstName: 'Sam',
    };
    const byId = (users: { id: string }[]) => [...users].sort((a, b) => a.id.localeCompare(b.id));
    // Their own rate is money, kept from staff by default (as above).
    const mineAsStaff = { ...mine, hourlyRateCents: null };
    const asStaff = await t.gqlOk(staff, query, variables);
    for (const users of [asStaff.project.users, asStaff.company.users]) {
      expect(byId(users)).toEqual(
        byId([
          mineAsStaff,
          { ...theirs, ...hidden(colleague) },
          { ...managers, ...hidden(manager) },
        ]),
      );
    }
    const asManager = await t.gqlOk(manager, query, variables);
    for (const users of [asManager.project.users, asManager.company.users]) {
      expect(byId(users)).toEqual(byId([mine, theirs, managers]));
    }
  });
});

describe("a project's money is the owner's and the managers'", () => {
  const MONEY = 'hourlyRate hourlyRateCents invoiceAmountCents';

  test('a staff member reads no rate or invoice amount of a project they see; a manager does', async () => {
    const query = `query($p: ID!) { project(id: $p) { name ${MONEY} } projects(first: 100) { nodes { id ${MONEY} } } }`;
    const asStaff = await t.gqlOk(staff, query, { p: ids.open!.id });
    expect(asStaff.project).toEqual({
      name: 'Zenith',
      hourlyRate: null,
      hourlyRateCents: null,
      invoiceAmountCents: null,
    });
    for (const node of asStaff.projects.nodes) {
      expect(node).toEqual({
        id: node.id,
        hourlyRate: null,
        hourlyRateCents: null,
        invoiceAmountCents: null,
      });
    }
    const asManager = await t.gqlOk(manager, query, { p: ids.open!.id });
    expect(asManager.project).toEqual({
      name: 'Zenith',
      hourlyRate: '$50',
      hourlyRateCents: 5000,
      invoiceAmountCents: 120000,
    });

    // The legacy JSON project of a staff member: the same fields, null.
    const json = await request(t.app.express)
      .get(`/api/1/projects/${ids.open!.id}.json`)
      .auth(staff.login, staff.password);
    expect(json.status).toBe(200);
    expect(json.body.response).toMatchObject({
      name: 'Zenith',
      hourly_rate: null,
      hourly_rate_cents: null,
      invoice_amount: null,
    });
  });

  test('a staff member cannot find a rate by filtering or ordering on it', async () => {
    const filtered = await t.gql(
      staff,
      '{ projects(filter: { or: [{ name: { eq: "x" } }, { hourlyRateCents: { gt: 4999 } }] }) { totalCount } }',
    );
    expect(codes(filtered)).toEqual(['READ_DENIED']);
    const ordered = await t.gql(
      staff,
      '{ projects(order: [{ field: HOURLY_RATE_CENTS }]) { totalCount } }',
    );
    expect(codes(ordered)).toEqual(['READ_DENIED']);
    const nested = await t.gql(
      staff,
      `query($c: ID!) { company(id: $c) { projects(filter: { hourlyRate: { like: "$5%" } }) { totalCount } } }`,
      { c: ids.acme!.id },
    );
    expect(codes(nested)).toEqual(['READ_DENIED']);
    const legacy = await request(t.app.express)
      .get('/api/1/projects.json')
      .query({ where: 'hourly_rate_cents > 4999' })
      .auth(staff.login, staff.password);
    expect(legacy.status).toBe(403);

    const asManager = await t.gqlOk(
      manager,
      '{ projects(filter: { hourlyRateCents: { gt: 4999 } }, order: [{ field: HOURLY_RATE_CENTS }]) { nodes { name } } }',
    );
    expect(asManager.projects.nodes).toEqual([{ name: 'Zenith' }]);
  });

  test("a staff member's report carries time, not money", async () => {
    const query = `query($input: ReportInput!) { report(input: $input) { totals { seconds amountCents } rows { seconds amountCents } } }`;
    const input = {
      from: '2026-01-01T00:00:00Z',
      to: '2026-02-01T00:00:00Z',
      groupBy: ['PROJECT'],
    };
    const asStaff = await t.gqlOk(staff, query, { input });
    expect(asStaff.report.totals).toEqual({ seconds: 3 * HOUR, amountCents: null });
    expect(asStaff.report.rows).toEqual([
      { seconds: HOUR, amountCents: null },
      { seconds: 2 * HOUR, amountCents: null },
    ]);
    const asManager = await t.gqlOk(manager, query, {
      input: { ...input, filter: { userIds: [manager.id] } },
    });
    // The manager's hour on Secret, which they may not see: its time, and no money (at the
    // project's 99.00 it would give the hidden rate away).
    expect(asManager.report.totals).toEqual({ seconds: HOUR, amountCents: 0 });
    expect(asManager.report.rows).toEqual([{ seconds: HOUR, amountCents: null }]);
  });
});
