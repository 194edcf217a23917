import { codes, startTestApp, type Credentials, type TestApp } from '../support/test-app';

/** The rules of the domain, through GraphQL: punching, totals, limits, parsing, visibility. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const PROJECT_FIELDS =
  'id legacyId running runningTotal grandTotal startedAt timeLimit timeLeft overdue nearlyOverdue currentShift { id start stop tagList notes activity { name } }';

async function company(owner: Credentials, visibility = 'PUBLIC'): Promise<string> {
  const data = await t.gqlOk(
    owner,
    `mutation { createCompany(input: { name: "Co", visibility: ${visibility} }) { company { id } } }`,
  );
  return data.createCompany.company.id;
}

async function project(
  owner: Credentials,
  input: Record<string, unknown> = {},
): Promise<Record<string, any>> {
  const companyId = await company(owner);
  const data = await t.gqlOk(
    owner,
    `mutation($input: CreateProjectInput!) { createProject(input: $input) { project { ${PROJECT_FIELDS} timeLimitString hourlyRate hourlyRateCents } } }`,
    {
      input: { companyId, name: 'Project', visibility: 'PUBLIC', ...input },
    },
  );
  return data.createProject.project;
}

async function shift(
  who: Credentials,
  projectId: string,
  start: string,
  stop: string | null,
  extra: Record<string, unknown> = {},
) {
  return t.gql(
    who,
    'mutation($input: CreateShiftInput!) { createShift(input: $input) { shift { id start stop } } }',
    { input: { projectId, start, stop, ...extra } },
  );
}

async function countRows(table: string, accountId: number): Promise<number> {
  const [row] = await t.db.orm.em
    .getConnection()
    .execute(`select count(*)::int as n from ${table} where account_id = ?`, [accountId]);
  return row.n;
}

describe('punching', () => {
  test('punch in starts a running shift with the default tags, activity, notes and tags', async () => {
    const owner = await t.newAccount();
    const p = await project(owner, { defaultTags: ['billable', 'web'] });
    const { createActivity } = await t.gqlOk(
      owner,
      'mutation($p: ID!) { createActivity(input: { projectId: $p, name: "Design" }) { activity { id } } }',
      { p: p.id },
    );
    const data = await t.gqlOk(
      owner,
      `mutation($id: ID!, $a: ID!) { punchIn(input: { project: { id: $id }, activityId: $a, notes: "kick-off", tagList: ["meeting", "web"] }) { project { ${PROJECT_FIELDS} } } }`,
      {
        id: p.id,
        a: createActivity.activity.id,
      },
    );
    const punched = data.punchIn.project;
    expect(punched.running).toBe(true);
    expect(punched.currentShift).toMatchObject({
      stop: null,
      notes: 'kick-off',
      tagList: ['billable', 'web', 'meeting'],
      activity: { name: 'Design' },
    });
    expect(punched.startedAt).toBe(punched.currentShift.start);
  });

  test('punching in to another project stops the running shift at the same instant', async () => {
    const owner = await t.newAccount();
    const a = await project(owner);
    const b = await project(owner);
    await t.gqlOk(
      owner,
      'mutation($id: ID!) { punchIn(input: { project: { id: $id } }) { project { id } } }',
      { id: a.id },
    );
    const { punchIn } = await t.gqlOk(
      owner,
      'mutation($id: ID!) { punchIn(input: { project: { id: $id } }) { project { currentShift { start } } } }',
      { id: b.id },
    );
    const { shifts } = await t.gqlOk(
      owner,
      '{ shifts(order: [{ field: START }]) { nodes { stop project { id } } } }',
    );
    expect(shifts.nodes[0]).toEqual({
      stop: punchIn.project.currentShift.start,
      project: { id: a.id },
    });
    expect(shifts.nodes[1]).toEqual({ stop: null, project: { id: b.id } });
  });

  test('inactive project, already punched in, and not punched in are coded errors that change nothing', async () => {
    const owner = await t.newAccount();
    const inactive = await project(owner, { active: false });
    const p = await project(owner);
    expect(
      codes(
        await t.gql(
          owner,
          'mutation($id: ID!) { punchIn(input: { project: { id: $id } }) { project { id } } }',
          { id: inactive.id },
        ),
      ),
    ).toEqual(['PROJECT_INACTIVE']);
    expect(
      codes(
        await t.gql(
          owner,
          'mutation($id: ID!) { punchOut(input: { project: { id: $id } }) { project { id } } }',
          { id: p.id },
        ),
      ),
    ).toEqual(['PUNCHED_OUT']);
    await t.gqlOk(
      owner,
      'mutation($id: ID!) { punchIn(input: { project: { id: $id } }) { project { id } } }',
      { id: p.id },
    );
    expect(
      codes(
        await t.gql(
          owner,
          'mutation($id: ID!) { punchIn(input: { project: { id: $id } }) { project { id } } }',
          { id: p.id },
        ),
      ),
    ).toEqual(['PUNCHED_IN']);
    expect(await countRows('shifts', owner.accountId)).toBe(1);
    const out = await t.gqlOk(
      owner,
      `mutation($id: ID!) { punchOut(input: { project: { id: $id }, notes: "done" }) { project { ${PROJECT_FIELDS} } } }`,
      { id: p.id },
    );
    expect(out.punchOut.project).toMatchObject({
      running: false,
      currentShift: null,
      startedAt: null,
    });
  });
});

describe('project totals', () => {
  test('grand and running totals include the live part of running shifts, counted to the moment of the request', async () => {
    const owner = await t.newAccount();
    const staff = await t.newStaff(owner);
    const p = await project(owner, { timeLimit: 36_000 });
    expect(
      (await shift(owner, p.id, '2026-01-05T09:00:00Z', '2026-01-05T10:00:00Z')).errors,
    ).toBeUndefined();
    expect(
      (await shift(staff, p.id, '2026-01-05T09:00:00Z', '2026-01-05T09:30:00Z')).errors,
    ).toBeUndefined();
    // A running shift that started a known hour ago: its live part is bounded by the clock read
    // before and after the request, so the test needs the clock to move by no particular amount.
    const start = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
    expect((await shift(owner, p.id, new Date(start).toISOString(), null)).errors).toBeUndefined();

    const read = async (who: Credentials) =>
      (
        await t.gqlOk(who, `query($id: ID!) { project(id: $id) { ${PROJECT_FIELDS} } }`, {
          id: p.id,
        })
      ).project;
    const before = Date.now();
    const totals = await read(owner);
    const after = Date.now();
    const live = totals.grandTotal - 5400;
    expect(live).toBeGreaterThanOrEqual(Math.floor((before - start) / 1000) - 1);
    expect(live).toBeLessThanOrEqual(Math.ceil((after - start) / 1000) + 1);
    expect(totals.runningTotal).toBe(3600 + live);
    expect(totals.grandTotal - totals.runningTotal).toBe(1800);
    expect(totals.timeLeft).toBe(36_000 - totals.grandTotal);
    // The staff member's running total is their own half hour; they are not running.
    expect(await read(staff)).toMatchObject({
      runningTotal: 1800,
      running: false,
      currentShift: null,
    });
  });

  test.each([
    [3300, { overdue: false, nearlyOverdue: true, timeLeft: 300 }],
    [3000, { overdue: false, nearlyOverdue: false, timeLeft: 600 }],
    [3700, { overdue: true, nearlyOverdue: false, timeLeft: -100 }],
  ])('with a 1 h limit and %d s entered: %j', async (seconds, expected) => {
    const owner = await t.newAccount();
    const p = await project(owner, { timeLimit: 3600 });
    const stop = new Date(Date.parse('2026-01-05T09:00:00Z') + seconds * 1000).toISOString();
    expect((await shift(owner, p.id, '2026-01-05T09:00:00Z', stop)).errors).toBeUndefined();
    const data = await t.gqlOk(
      owner,
      `query($id: ID!) { project(id: $id) { ${PROJECT_FIELDS} } }`,
      { id: p.id },
    );
    expect(data.project).toMatchObject({ grandTotal: seconds, ...expected });
  });

  test('the nearly-overdue ratio is a setting of the account', async () => {
    const owner = await t.newAccount();
    const p = await project(owner, { timeLimit: 3600 });
    await shift(owner, p.id, '2026-01-05T09:00:00Z', '2026-01-05T09:45:00Z');
    const before = await t.gqlOk(owner, 'query($id: ID!) { project(id: $id) { nearlyOverdue } }', {
      id: p.id,
    });
    expect(before.project.nearlyOverdue).toBe(false);
    await t.gqlOk(
      owner,
      'mutation { updateAccount(input: { nearlyOverdueRatio: 0.75 }) { account { nearlyOverdueRatio } } }',
    );
    const after = await t.gqlOk(owner, 'query($id: ID!) { project(id: $id) { nearlyOverdue } }', {
      id: p.id,
    });
    expect(after.project.nearlyOverdue).toBe(true);
    expect(
      codes(
        await t.gql(
          owner,
          'mutation { updateAccount(input: { nearlyOverdueRatio: 1.5 }) { account { name } } }',
        ),
      ),
    ).toEqual(['VALIDATION_FAILED']);
    const manager = await t.newStaff(owner, { type: 'MANAGER' });
    expect(
      codes(
        await t.gql(
          manager,
          'mutation { updateAccount(input: { nearlyOverdueRatio: 0.5 }) { account { name } } }',
        ),
      ),
    ).toEqual(['UPDATE_DENIED']);
  });

  test('without a time limit, timeLeft, overdue and nearlyOverdue are null', async () => {
    const owner = await t.newAccount();
    const p = await project(owner);
    expect(p).toMatchObject({
      timeLimit: null,
      timeLeft: null,
      overdue: null,
      nearlyOverdue: null,
      grandTotal: 0,
      running: false,
    });
  });
});

describe('human strings', () => {
  test.each([
    ['12h', 43_200],
    ['2h 30m', 9_000],
    ['1:30', 5_400],
    ['90 minutes', 5_400],
    ['1.5 hours', 5_400],
  ])('timeLimitString %j fills timeLimit with %d seconds', async (text, seconds) => {
    const owner = await t.newAccount();
    expect(await project(owner, { timeLimitString: text })).toMatchObject({
      timeLimit: seconds,
      timeLimitString: text,
    });
  });

  test('a given timeLimit wins over the text; an update of the text alone refills it', async () => {
    const owner = await t.newAccount();
    const p = await project(owner, { timeLimit: 60, timeLimitString: '12h' });
    expect(p.timeLimit).toBe(60);
    const { updateProject } = await t.gqlOk(
      owner,
      'mutation($id: ID!) { updateProject(input: { project: { id: $id }, patch: { timeLimitString: "2h" } }) { project { timeLimit } } }',
      { id: p.id },
    );
    expect(updateProject.project.timeLimit).toBe(7200);
  });

  test.each([
    ['$85', 8_500],
    ['$12.50', 1_250],
    ['AU$ 90.00', 9_000],
  ])('hourlyRate %j fills hourlyRateCents with %d', async (text, cents) => {
    const owner = await t.newAccount();
    expect(await project(owner, { hourlyRate: text })).toMatchObject({
      hourlyRate: text,
      hourlyRateCents: cents,
    });
  });

  test('unreadable text is a validation error naming the field, and nothing is stored', async () => {
    const owner = await t.newAccount();
    const companyId = await company(owner);
    const res = await t.gql(
      owner,
      'mutation($c: ID!) { createProject(input: { companyId: $c, name: "P", timeLimitString: "whenever", hourlyRate: "free" }) { project { id } } }',
      { c: companyId },
    );
    expect(codes(res)).toEqual(['VALIDATION_FAILED']);
    expect(res.errors![0]!.extensions!.fieldErrors).toEqual([
      { field: 'timeLimitString', message: expect.stringMatching(/duration/) },
      { field: 'hourlyRate', message: expect.stringMatching(/amount/) },
    ]);
    expect(await countRows('projects', owner.accountId)).toBe(0);
  });
});

describe('plan limits', () => {
  test('the staff maximum: a refused create or enable stores nothing', async () => {
    const owner = await t.newAccount({ staffMax: 1 });
    const first = await t.newStaff(owner);
    const users = await countRows('users', owner.accountId);
    const refused = await t.gql(
      owner,
      'mutation { createStaff(input: { login: "one-too-many", password: "password-1" }) { staff { id } } }',
    );
    expect(codes(refused)).toEqual(['PAYMENT_REQUIRED']);
    expect(await countRows('users', owner.accountId)).toBe(users);

    await t.gqlOk(
      owner,
      'mutation($id: ID!) { disableStaff(input: { staff: { id: $id } }) { staff { active } } }',
      {
        id: first.id,
      },
    );
    const second = await t.newStaff(owner);
    expect(
      codes(
        await t.gql(
          owner,
          'mutation($id: ID!) { enableStaff(input: { staff: { id: $id } }) { staff { active } } }',
          {
            id: first.id,
          },
        ),
      ),
    ).toEqual(['PAYMENT_REQUIRED']);
    expect(
      codes(
        await t.gql(
          owner,
          'mutation($id: ID!) { updateStaff(input: { staff: { id: $id }, patch: { active: true } }) { staff { active } } }',
          { id: first.id },
        ),
      ),
    ).toEqual(['PAYMENT_REQUIRED']);
    const { staffMember } = await t.gqlOk(
      owner,
      'query($id: ID!) { staffMember(id: $id) { active } }',
      { id: first.id },
    );
    expect(staffMember.active).toBe(false);
    expect(second.id).toBeDefined();
  });

  test('an account that allows no staff refuses them with STAFF_NOT_ALLOWED', async () => {
    const owner = await t.newAccount({ staffMax: 0 });
    expect(
      codes(
        await t.gql(
          owner,
          'mutation { createStaff(input: { login: "nobody-allowed", password: "password-1" }) { staff { id } } }',
        ),
      ),
    ).toEqual(['STAFF_NOT_ALLOWED']);
    expect(await countRows('users', owner.accountId)).toBe(1);
  });

  test('the time maximum refuses shifts and punch-ins past it and stores nothing', async () => {
    const owner = await t.newAccount({ timeMaxHours: 1 });
    const p = await project(owner);
    expect(
      (await shift(owner, p.id, '2026-01-05T09:00:00Z', '2026-01-05T09:50:00Z')).errors,
    ).toBeUndefined();
    expect(codes(await shift(owner, p.id, '2026-01-05T10:00:00Z', '2026-01-05T10:20:00Z'))).toEqual(
      ['MAX_TIME'],
    );
    const { shifts } = await t.gqlOk(owner, '{ shifts { totalCount nodes { id } } }');
    expect(shifts.totalCount).toBe(1);
    // Lengthening the stored shift past the limit is refused too; the stored one is unchanged.
    expect(
      codes(
        await t.gql(
          owner,
          'mutation($id: ID!) { updateShift(input: { shift: { id: $id }, patch: { stop: "2026-01-05T10:30:00Z" } }) { shift { id } } }',
          { id: shifts.nodes[0].id },
        ),
      ),
    ).toEqual(['MAX_TIME']);
    const filled = await shift(owner, p.id, '2026-01-05T10:00:00Z', '2026-01-05T10:10:00Z');
    expect(filled.errors).toBeUndefined();
    // The time is used up exactly; a shift's own stored time makes room for its new length.
    expect(
      (
        await t.gql(
          owner,
          'mutation($id: ID!) { updateShift(input: { shift: { id: $id }, patch: { start: "2026-01-05T11:00:00Z", stop: "2026-01-05T11:10:00Z" } }) { shift { id } } }',
          { id: filled.data!.createShift.shift.id },
        )
      ).errors,
    ).toBeUndefined();
    expect(
      codes(
        await t.gql(
          owner,
          'mutation($id: ID!) { punchIn(input: { project: { id: $id } }) { project { id } } }',
          { id: p.id },
        ),
      ),
    ).toEqual(['MAX_TIME']);
    expect(await countRows('shifts', owner.accountId)).toBe(2);
  });
});

describe('visibility', () => {
  test("a staff member cannot see the owner's private project, nor punch into it", async () => {
    const owner = await t.newAccount();
    const staff = await t.newStaff(owner);
    const p = await project(owner, { visibility: 'PRIVATE' });
    expect(
      codes(await t.gql(staff, 'query($id: ID!) { project(id: $id) { id } }', { id: p.id })),
    ).toEqual(['NOT_FOUND']);
    expect(
      codes(
        await t.gql(staff, 'query($id: Int!) { project(legacyId: $id) { id } }', {
          id: p.legacyId,
        }),
      ),
    ).toEqual(['NOT_FOUND']);
    expect((await t.gqlOk(staff, '{ projects { totalCount } }')).projects.totalCount).toBe(0);
    expect(
      codes(
        await t.gql(
          staff,
          'mutation($id: ID!) { punchIn(input: { project: { id: $id } }) { project { id } } }',
          { id: p.id },
        ),
      ),
    ).toEqual(['NOT_FOUND']);
  });
});
