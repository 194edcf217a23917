import request from 'supertest';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * Nested reads must be batched: the number of SQL statements of a nested query may not grow
 * with the number of rows it returns.
 */
let t: TestApp;
beforeAll(async () => {
  // One connection, as the embedded database has: with several, sibling batches (a project's
  // members and its current shift's user) return in any order and are sometimes merged into one
  // statement, sometimes not. The count must not depend on the rows, and is compared exactly.
  t = await startTestApp({ DB_POOL_MAX: '1' });
});
afterAll(() => t?.close());

// Pages just large enough for the seeded rows: default pages nested three deep would cost more
// than GRAPHQL_MAX_COST allows.
const NESTED = `{
  companies(first: 50) {
    totalCount
    nodes {
      name
      users { login }
      projects(first: 10) {
        totalCount
        nodes {
          name grandTotal runningTotal running startedAt timeLeft overdue nearlyOverdue
          company { name }
          users { login }
          currentShift { id }
          activities { name project { name } }
          shifts(first: 10) { totalCount nodes { start stop user { login } activity { name } project { name } timeZoneOffset } }
        }
      }
    }
  }
}`;

async function seedAccount(companies: number): Promise<Credentials> {
  const owner = await t.newAccount();
  const staff = await t.newStaff(owner);
  for (let c = 0; c < companies; c++) {
    const { createCompany } = await t.gqlOk(
      owner,
      'mutation($n: String!, $u: [ID!]) { createCompany(input: { name: $n, visibility: CUSTOM, userIds: $u }) { company { id } } }',
      {
        n: `Company ${c}`,
        u: [staff.id],
      },
    );
    for (let p = 0; p < 2; p++) {
      const { createProject } = await t.gqlOk(
        owner,
        'mutation($c: ID!, $n: String!) { createProject(input: { companyId: $c, name: $n, visibility: PUBLIC, timeLimit: 7200 }) { project { id } } }',
        {
          c: createCompany.company.id,
          n: `Project ${c}.${p}`,
        },
      );
      const { createActivity } = await t.gqlOk(
        owner,
        'mutation($p: ID!) { createActivity(input: { projectId: $p, name: "Design" }) { activity { id } } }',
        { p: createProject.project.id },
      );
      await t.gqlOk(
        owner,
        'mutation($p: ID!, $a: ID!) { createShift(input: { projectId: $p, activityId: $a, start: "2026-01-05T09:00:00Z", stop: "2026-01-05T10:00:00Z", timeZone: "Europe/Paris" }) { shift { id } } }',
        {
          p: createProject.project.id,
          a: createActivity.activity.id,
        },
      );
    }
  }
  await t.gqlOk(
    owner,
    'mutation($id: ID!) { punchIn(input: { project: { id: $id } }) { project { id } } }',
    {
      id: (await t.gqlOk(owner, '{ projects(first: 1) { nodes { id } } }')).projects.nodes[0].id,
    },
  );
  return owner;
}

test('a nested query over 3 and over 30 companies issues the same number of statements', async () => {
  const small = await seedAccount(3);
  const large = await seedAccount(30);

  let smallResult: Record<string, any> = {};
  let largeResult: Record<string, any> = {};
  const smallCount = await t.countStatements(async () => {
    smallResult = await t.gqlOk(small, NESTED);
  });
  const largeCount = await t.countStatements(async () => {
    largeResult = await t.gqlOk(large, NESTED);
  });

  // The queries really returned the nested rows.
  expect(smallResult.companies.totalCount).toBe(3);
  expect(largeResult.companies.totalCount).toBe(30);
  expect(largeResult.companies.nodes[29].projects.nodes).toHaveLength(2);
  expect(largeResult.companies.nodes[29].projects.nodes[1].shifts.nodes[0].activity.name).toBe(
    'Design',
  );
  expect(largeResult.companies.nodes[29].projects.nodes[1].grandTotal).toBe(3600);

  expect(largeCount).toBe(smallCount);
  // Authentication, the page and its count, one batch per nested field and one grouped count per
  // nested totalCount: a small constant.
  expect(smallCount).toBeLessThanOrEqual(17);
});

test('a nested list is never read whole: every read of its rows has a limit per parent', async () => {
  const owner = await seedAccount(3);
  const { projects } = await t.gqlOk(owner, '{ projects(first: 1) { nodes { id } } }');
  const busy = projects.nodes[0].id;
  for (let day = 10; day < 22; day++) {
    await t.gqlOk(
      owner,
      'mutation($p: ID!, $s: DateTimeISO!, $e: DateTimeISO!) { createShift(input: { projectId: $p, start: $s, stop: $e }) { shift { id } } }',
      { p: busy, s: `2026-02-${day}T09:00:00Z`, e: `2026-02-${day}T10:00:00Z` },
    );
  }
  const PAGES = `query($after: String) {
    companies(first: 3) { nodes {
      projects(first: 5) { nodes { id
        shifts(first: 4, after: $after) { totalCount pageInfo { hasNextPage hasPreviousPage endCursor } nodes { start } }
      } }
    } }
  }`;
  let answer: Record<string, any> = {};
  const statements = await t.recordStatements(async () => {
    answer = await t.gqlOk(owner, PAGES);
  });
  // The reads of rows (their columns), not the counts: the executor's statements, or the one a
  // read compiled to SQL answers with, whose every page has its limit.
  const rowReads = statements.filter(
    (sql) => /from "(projects|shifts)"/.test(sql) && !/^select count\(\*\)|group by/.test(sql),
  );
  for (const table of ['projects', 'shifts'])
    expect(rowReads.some((sql) => sql.includes(`from "${table}"`))).toBe(true);
  for (const sql of rowReads) {
    // A read by id (a shift's project) is bounded by the ids it names.
    if (/\b\w0\.id = any\(/.test(sql)) continue;
    expect(sql).toMatch(/ limit /);
    // Compiled: each list's page (companies, projects per company, shifts per project) is limited.
    const pages = sql.match(/ as "__n" from \(select "\w0"\.\* from "\w+"/g) ?? [];
    const limited = sql.match(/\) as "x" order by [^)]* limit \d+\)/g) ?? [];
    expect(limited).toHaveLength(pages.length);
  }

  const shiftsOf = (data: Record<string, any>) =>
    data.companies.nodes.flatMap((c: any) => c.projects.nodes).find((p: any) => p.id === busy)
      .shifts;
  const first = shiftsOf(answer);
  // The seeded shift, the running one and twelve more, in the order of their ids.
  expect(first.totalCount).toBe(14);
  expect(first.nodes).toHaveLength(4);
  expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
  // The next page continues after the cursor, for this project and no other.
  const next = shiftsOf(await t.gqlOk(owner, PAGES, { after: first.pageInfo.endCursor }));
  expect(next.nodes.map((s: any) => s.start)).toEqual([
    '2026-02-12T09:00:00.000Z',
    '2026-02-13T09:00:00.000Z',
    '2026-02-14T09:00:00.000Z',
    '2026-02-15T09:00:00.000Z',
  ]);
  expect(next.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });

  // Backwards from that page's end cursor (Feb 15): the last two rows before it, in order.
  const { companies } = await t.gqlOk(
    owner,
    `query($before: String) { companies(first: 3) { nodes { projects(first: 5) { nodes { id
      shifts(last: 2, before: $before) { pageInfo { hasPreviousPage hasNextPage } nodes { start } }
    } } } } }`,
    { before: next.pageInfo.endCursor },
  );
  const back = shiftsOf({ companies });
  expect(back.nodes.map((s: any) => s.start)).toEqual([
    '2026-02-13T09:00:00.000Z',
    '2026-02-14T09:00:00.000Z',
  ]);
  expect(back.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: true });
});

test('the legacy project lists (JSON and XML) issue the same number of statements for 6 and 60 projects', async () => {
  const small = await seedAccount(3);
  const large = await seedAccount(30);
  const http = request(t.app.express);
  const counts: Record<string, number> = {};
  // Warm-up: a pool on real PostgreSQL may open a connection (with its session set-up statements)
  // on any first request; only the steady state is compared.
  for (const who of [small, large])
    await http.get('/api/1/projects.json').auth(who.login, who.password);
  for (const [name, who] of [
    ['small', small],
    ['large', large],
  ] as const) {
    for (const path of ['/api/1/projects.json', '/projects.xml', '/api/1/shifts.json']) {
      let status = 0;
      counts[`${name} ${path}`] = await t.countStatements(async () => {
        status = (await http.get(path).auth(who.login, who.password)).status;
      });
      expect(status).toBe(200);
    }
  }
  const json = await http.get('/api/1/projects.json').auth(large.login, large.password);
  expect(json.body.count).toBe(60);
  expect(json.body.response[59].activities[0].name).toBe('Design');
  for (const path of ['/api/1/projects.json', '/projects.xml', '/api/1/shifts.json']) {
    expect(counts[`large ${path}`]).toBe(counts[`small ${path}`]);
  }
});

test('compiled to SQL, a read is the sign-in and one statement per root list, whatever the rows', async () => {
  const small = await seedAccount(3);
  const large = await seedAccount(30);
  const http = request(t.app.express);
  const reads: Record<string, (who: Credentials) => Promise<unknown>> = {
    'nested pages (scenario n)': (who) => t.gqlOk(who, NESTED),
    'a dashboard (scenario c)': (who) =>
      t.gqlOk(
        who,
        '{ companies(first: 50) { nodes { id name projects(first: 100) { nodes { id name grandTotal activities { id name } } } } } }',
      ),
    'two lists in one operation': (who) =>
      t.gqlOk(who, '{ shifts(first: 100) { nodes { id } } projects { totalCount } }'),
    'the legacy shift list (scenario a)': (who) =>
      http.get('/api/1/shifts.json').auth(who.login, who.password),
    'the legacy project list (scenario b)': (who) =>
      http.get('/api/1/projects.json').auth(who.login, who.password),
  };
  const lists: Record<string, number> = {
    'nested pages (scenario n)': 1,
    'a dashboard (scenario c)': 1,
    'two lists in one operation': 2,
    'the legacy shift list (scenario a)': 1,
    'the legacy project list (scenario b)': 1,
  };
  for (const [name, read] of Object.entries(reads)) {
    await read(small);
    const counts = [];
    for (const who of [small, large]) {
      const statements = await t.recordStatements(() => read(who));
      // Past the sign-in (the login's account and user, then the user's row), only compiled
      // statements.
      const signIn =
        /^select id, uuid, login|^select account_id as "accountId", user_id as "userId" from logins/;
      expect(statements.filter((sql) => !signIn.test(sql))).toHaveLength(lists[name]!);
      expect(statements.filter((sql) => /_page" as \(select "x"\.\*/.test(sql))).toHaveLength(
        lists[name]!,
      );
      counts.push(statements.length);
    }
    expect(counts[1]).toBe(counts[0]);
  }
});
