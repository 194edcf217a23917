import { startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  // 200 punches of one account queue behind its 8 places in flight; on a busy CI machine (a run
  // took 107 s, not 6) the last waited past the default 30 s and got 429. The queue's limit is
  // fair-share.test.ts's subject, not this file's: here it may not depend on the machine's speed.
  t = await startTestApp({ ACCOUNT_QUEUE_WAIT_MS: '600000' });
});
afterAll(() => t?.close());

const PUNCH_IN =
  'mutation($id: ID!) { punchIn(input: { project: { id: $id } }) { project { id running } } }';

async function setUp() {
  const owner = await t.newAccount();
  const { createCompany } = await t.gqlOk(
    owner,
    'mutation { createCompany(input: { name: "Race Co", visibility: PUBLIC }) { company { id } } }',
  );
  const projectIds: string[] = [];
  for (let i = 0; i < 5; i++) {
    const data = await t.gqlOk(
      owner,
      'mutation($c: ID!, $n: String!) { createProject(input: { companyId: $c, name: $n, visibility: PUBLIC }) { project { id } } }',
      {
        c: createCompany.company.id,
        n: `Project ${i}`,
      },
    );
    projectIds.push(data.createProject.project.id);
  }
  return { owner, projectIds };
}

async function shiftsOf(owner: { login: string; password: string }) {
  const data = await t.gqlOk(
    owner,
    '{ shifts(first: 1000, order: [{ field: START }]) { nodes { start stop project { id } } } }',
  );
  return data.shifts.nodes as { start: string; stop: string | null; project: { id: string } }[];
}

function assertNoOverlap(shifts: { start: string; stop: string | null }[]) {
  for (let i = 1; i < shifts.length; i++) {
    const previousStop = shifts[i - 1]!.stop;
    expect(previousStop).not.toBeNull();
    expect(Date.parse(previousStop!)).toBeLessThanOrEqual(Date.parse(shifts[i]!.start));
  }
}

test('20 simultaneous punch-ins to one project leave exactly one running shift', async () => {
  const { owner, projectIds } = await setUp();
  const results = await Promise.all(
    Array.from({ length: 20 }, () => t.gql(owner, PUNCH_IN, { id: projectIds[0] })),
  );
  const succeeded = results.filter((r) => !r.errors);
  const refused = results.filter((r) => r.errors);
  expect(succeeded).toHaveLength(1);
  // The others are told why, with the catalogue's code, never a 500.
  expect(new Set(refused.map((r) => r.errors![0]!.extensions?.code))).toEqual(
    new Set(['PUNCHED_IN']),
  );
  const shifts = await shiftsOf(owner);
  expect(shifts).toHaveLength(1);
  expect(shifts[0]!.stop).toBeNull();
});

test.each([20, 50])(
  '%d simultaneous punch-ins across 5 projects: one running, the rest stopped, no overlaps',
  async (count) => {
    const { owner, projectIds } = await setUp();
    const results = await Promise.all(
      Array.from({ length: count }, (_, i) => t.gql(owner, PUNCH_IN, { id: projectIds[i % 5] })),
    );
    for (const r of results) {
      for (const e of r.errors ?? []) expect(e.extensions?.code).toBe('PUNCHED_IN');
    }
    const shifts = await shiftsOf(owner);
    expect(shifts.filter((s) => s.stop === null)).toHaveLength(1);
    expect(shifts.length).toBe(results.filter((r) => !r.errors).length);
    assertNoOverlap(shifts);
    // The database agrees, whatever the API says.
    const rows = await t.db.orm.em
      .getConnection()
      .execute('select count(*)::int as n from shifts where stop is null and user_id = ?', [
        owner.ownerLegacyId,
      ]);
    expect(rows[0].n).toBe(1);
  },
);

// ---------------------------------------------------------------------------------------------
// 200 at once, over real HTTP (a loopback port of this process), half of them through GraphQL
// and half through the legacy JSON facade. Every answer's status is asserted: no 5xx at all.
// ---------------------------------------------------------------------------------------------

interface Answer {
  via: 'graphql' | 'json';
  status: number;
  body: any;
}

const basic = (who: { login: string; password: string }) =>
  `Basic ${Buffer.from(`${who.login}:${who.password}`).toString('base64')}`;

async function post(
  url: string,
  who: { login: string; password: string },
  body: unknown,
): Promise<{ status: number; body: any }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: basic(who) },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Kept as text: the assertion below shows it.
  }
  return { status: res.status, body: parsed };
}

/** One punch-in, by one of four roads: GraphQL by uuid or legacy id, the JSON facade flat or nested. */
async function punchInSomehow(
  base: string,
  who: { login: string; password: string },
  project: { id: string; legacyId: number; companyId: string },
  road: number,
): Promise<Answer> {
  switch (road % 4) {
    case 0:
      return {
        via: 'graphql',
        ...(await post(`${base}/graphql`, who, { query: PUNCH_IN, variables: { id: project.id } })),
      };
    case 1:
      return {
        via: 'graphql',
        ...(await post(`${base}/graphql`, who, {
          query:
            'mutation($l: Int!) { punchIn(input: { project: { legacyId: $l } }) { project { id running } } }',
          variables: { l: project.legacyId },
        })),
      };
    case 2:
      return {
        via: 'json',
        ...(await post(`${base}/api/1/projects/${project.id}/punch_in.json`, who, {})),
      };
    default:
      return {
        via: 'json',
        ...(await post(
          `${base}/api/1/companies/${project.companyId}/projects/${project.id}/punch_in.json`,
          who,
          { notes: 'nested' },
        )),
      };
  }
}

/**
 * Succeeded (true) or refused with PUNCHED_IN (false); anything else fails the test. A success's
 * answer is read after its commit, so when other punch-ins run at once its `running` may already
 * be false (a later punch-in stopped the shift); `alone` says no other project is punched.
 */
function outcome(answer: Answer, projectId: string, alone: boolean): boolean {
  if (answer.via === 'graphql') {
    // GraphQL answers 200 either way; the error carries the catalogue's code.
    expect({ status: answer.status, type: typeof answer.body }).toEqual({
      status: 200,
      type: 'object',
    });
    if (!answer.body.errors) {
      expect(answer.body.data.punchIn.project.id).toBe(projectId);
      if (alone) expect(answer.body.data.punchIn.project.running).toBe(true);
      return true;
    }
    expect(answer.body.errors.map((e: any) => e.extensions?.code)).toEqual(['PUNCHED_IN']);
    expect(answer.body.data).toBeNull();
    return false;
  }
  // The facade maps PUNCHED_IN to 422 (rest-facade/errors.ts).
  if (answer.status === 200) {
    expect(answer.body.response.uuid).toBe(projectId);
    if (alone) expect(answer.body.response.running).toBe(true);
    return true;
  }
  expect({ status: answer.status, code: answer.body?.error?.code }).toEqual({
    status: 422,
    code: 'PUNCHED_IN',
  });
  return false;
}

async function setUpWithLegacyIds() {
  const owner = await t.newAccount();
  const { createCompany } = await t.gqlOk(
    owner,
    'mutation { createCompany(input: { name: "Race Co", visibility: PUBLIC }) { company { id } } }',
  );
  const projects: { id: string; legacyId: number; companyId: string }[] = [];
  for (let i = 0; i < 5; i++) {
    const data = await t.gqlOk(
      owner,
      'mutation($c: ID!, $n: String!) { createProject(input: { companyId: $c, name: $n, visibility: PUBLIC }) { project { id legacyId } } }',
      {
        c: createCompany.company.id,
        n: `Project ${i}`,
      },
    );
    projects.push({ ...data.createProject.project, companyId: createCompany.company.id });
  }
  return { owner, projects };
}

async function runningInDatabase(userId: number): Promise<number> {
  const rows = await t.db.orm.em
    .getConnection()
    .execute('select count(*)::int as n from shifts where stop is null and user_id = ?', [userId]);
  return rows[0].n;
}

/**
 * The user's shifts in the database, in start order, after checking in SQL that no two overlap, that
 * every stop is after its start, and that each stopped shift ends exactly where the next begins.
 */
async function shiftRowsInDatabase(
  userId: number,
): Promise<{ running: boolean; project_id: number }[]> {
  const connection = t.db.orm.em.getConnection();
  const [checks] = await connection.execute(
    `select
        (select count(*)::int from shifts a join shifts b on a.account_id = b.account_id and a.user_id = b.user_id and a.id < b.id
          where a.user_id = ? and tstzrange(a.start, coalesce(a.stop, 'infinity')) && tstzrange(b.start, coalesce(b.stop, 'infinity'))) as overlaps,
        (select count(*)::int from shifts where user_id = ? and stop <= start) as backwards,
        (select count(*)::int from (select stop, lead(start) over (order by start, id) as next from shifts where user_id = ?) x
          where next is not null and stop is distinct from next) as gaps`,
    [userId, userId, userId],
  );
  expect(checks).toEqual({ overlaps: 0, backwards: 0, gaps: 0 });
  return connection.execute(
    'select stop is null as running, project_id from shifts where user_id = ? order by start, id',
    [userId],
  );
}

test('200 concurrent punch-ins to one project over GraphQL and the JSON facade: one succeeds, 199 are PUNCHED_IN, no 5xx', async () => {
  const base = await t.listen();
  const { owner, projects } = await setUpWithLegacyIds();
  const project = projects[0]!;
  const answers = await Promise.all(
    Array.from({ length: 200 }, (_, i) => punchInSomehow(base, owner, project, i)),
  );

  for (const a of answers) expect(a.status).toBeLessThan(500);
  const succeeded = answers.filter((a) => outcome(a, project.id, true));
  expect(succeeded).toHaveLength(1);
  expect(answers.filter((a) => a.via === 'json' && a.status === 422)).toHaveLength(
    100 - succeeded.filter((a) => a.via === 'json').length,
  );

  // Through the API: one shift, running, on the project, by GraphQL and by the facade.
  const shifts = await shiftsOf(owner);
  expect(shifts).toHaveLength(1);
  expect(shifts[0]).toMatchObject({ stop: null, project: { id: project.id } });
  const listed = await fetch(
    `${base}/api/1/shifts.json?where=${encodeURIComponent('stop = null')}`,
    { headers: { authorization: basic(owner) } },
  );
  expect(listed.status).toBe(200);
  const listedBody = (await listed.json()) as {
    count: number;
    response: { project_uuid: string }[];
  };
  expect(listedBody.count).toBe(1);
  expect(listedBody.response[0]!.project_uuid).toBe(project.id);
  // And in the database.
  expect(await runningInDatabase(owner.ownerLegacyId)).toBe(1);
  expect(await shiftRowsInDatabase(owner.ownerLegacyId)).toHaveLength(1);
});

test('200 concurrent punch-ins across 5 projects over GraphQL and the JSON facade: one running, no overlaps, every success stored, no 5xx', async () => {
  const base = await t.listen();
  const { owner, projects } = await setUpWithLegacyIds();
  // Project i % 5 by road i % 4: every project is reached by every road.
  const answers = await Promise.all(
    Array.from({ length: 200 }, (_, i) => punchInSomehow(base, owner, projects[i % 5]!, i)),
  );

  for (const a of answers) expect(a.status).toBeLessThan(500);
  const won = answers.map((a, i) => outcome(a, projects[i % 5]!.id, false));
  const succeeded = answers.filter((_, i) => won[i]);
  expect(succeeded.length).toBeGreaterThanOrEqual(1);

  const shifts = await shiftsOf(owner);
  expect(shifts.filter((s) => s.stop === null)).toHaveLength(1);
  expect(shifts).toHaveLength(succeeded.length);
  assertNoOverlap(shifts);
  for (const s of shifts)
    if (s.stop !== null) expect(Date.parse(s.stop)).toBeGreaterThan(Date.parse(s.start));
  // Every success is a stored shift on its project, and nothing else is.
  for (const p of projects) {
    expect(shifts.filter((s) => s.project.id === p.id)).toHaveLength(
      won.filter((w, i) => w && i % 5 === projects.indexOf(p)).length,
    );
  }

  expect(await runningInDatabase(owner.ownerLegacyId)).toBe(1);
  const rows = await shiftRowsInDatabase(owner.ownerLegacyId);
  expect(rows).toHaveLength(succeeded.length);
  // The running one is the last to start.
  expect(rows.map((r) => r.running)).toEqual([
    ...Array.from({ length: rows.length - 1 }, () => false),
    true,
  ]);
});
