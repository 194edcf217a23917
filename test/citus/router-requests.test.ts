import request from 'supertest';
import { withClient } from '../../bench/postgres-clients';
import { createTestDatabaseTarget, testCitusWorkers } from '../support/test-database';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * Every statement of the suite's typical requests is a router query on a Citus cluster: one task,
 * on the one worker that holds the account (issue 38). The service's connections run with
 * `citus.multi_task_query_log_level = error`, so a statement Citus would split into tasks on
 * several shards fails, and with it the request. Runs in the suite's pass on a Citus coordinator
 * (TEST_DATABASE_URL, `.ci/run`); skipped on every other database.
 */
const describeOnCitus = testCitusWorkers().length > 0 ? describe : describe.skip;

describeOnCitus('typical requests on Citus', () => {
  let t: TestApp;
  let owner: Credentials & { accountId: number };
  let member: Credentials;
  let project: string;

  beforeAll(async () => {
    const target = await createTestDatabaseTarget({ schema: 'migrated' });
    // Set before the service connects: each of its connections starts with it.
    await withClient(target.env.DATABASE_URL!, async (client) => {
      const database = (await client.query<{ name: string }>('select current_database() as name'))
        .rows[0]!.name;
      await client.query(
        `alter database ${client.escapeIdentifier(database)} set citus.multi_task_query_log_level = error`,
      );
    });
    t = await startTestApp({}, { target });
    // A second account beside it, with its own rows on the other shards.
    for (const other of [await t.newAccount(), await t.newAccount()])
      await t.create(other, 'createCompany', { name: 'Elsewhere' });
    owner = await t.newAccount();
    member = await t.newStaff(owner);
    const company = await t.create(owner, 'createCompany', { name: 'Routed' });
    project = (
      await t.create(owner, 'createProject', {
        companyId: company.id,
        name: 'Router',
        visibility: 'PUBLIC',
        hourlyRate: '90',
      })
    ).id;
  });
  afterAll(() => t?.close());

  test('the setting fails a statement that reads every shard', async () => {
    await expect(
      t.db.orm.em.fork().getConnection().execute('select count(*) from projects'),
    ).rejects.toThrow(/multi-task query about to be executed/);
  });

  test.each([
    [
      'a nested list with totals and references',
      `{ viewer { staff { firstName } account { name } }
         projects(first: 20) { totalCount nodes { id name grandTotal runningTotal running timeLeft company { name }
           users { id } activities { name } shifts(first: 5) { nodes { id start user { login } } } } } }`,
    ],
    [
      'a shift list by filter',
      `{ shifts(first: 10, filter: { notes: { eq: "routed" } }) { nodes { id project { name } activity { name } } } }`,
    ],
    [
      'a report by project and user',
      `{ report(input: { from: "2026-01-01T00:00:00Z", to: "2027-01-01T00:00:00Z", groupBy: [PROJECT, USER] }) { totals { seconds amountCents } rows { seconds } } }`,
    ],
  ])('GraphQL: %s', async (_name, query) => {
    const res = await t.gql(owner, query);
    expect(res.errors).toBeUndefined();
  });

  test('punching in and out with an Idempotency-Key, and a shift written by hand', async () => {
    for (const [key, mutation] of [
      ['router-in', 'punchIn'],
      ['router-out', 'punchOut'],
    ] as const) {
      const res = await request(t.app.express)
        .post('/graphql')
        .set('Idempotency-Key', key)
        .auth(member.login, member.password)
        .send({
          query: `mutation($p: ID!) { ${mutation}(input: { project: { id: $p } }) { project { id } } }`,
          variables: { p: project },
        });
      expect(res.body.errors).toBeUndefined();
    }
    const created = await t.gql(
      owner,
      `mutation($p: ID!) { createShift(input: { projectId: $p, start: "2026-03-02T09:00:00Z", stop: "2026-03-02T12:00:00Z", notes: "routed" }) { shift { id } } }`,
      { p: project },
    );
    expect(created.errors).toBeUndefined();
  });

  test.each([
    '/api/1/projects.json',
    '/api/1/shifts.json?where=notes%20=%20%22routed%22&order=start%20desc',
    '/api/1/staff.json',
    '/projects.xml',
    '/staff.xml',
  ])('the legacy facade: GET %s', async (path) => {
    const res = await request(t.app.express).get(path).auth(owner.login, owner.password);
    expect(res.status).toBe(200);
  });
});
