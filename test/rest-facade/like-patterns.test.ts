import request from 'supertest';
import { LogCapture } from '../support/log-capture';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * Issue 20, finding 10. A LIKE pattern ending in a backslash (`where=last_name ~= "\\"`, GraphQL
 * `like: "\\"`) made PostgreSQL fail at the first row compared: a 500, and an error log line
 * holding the statement with the filter's values. Now such a trailing backslash is a literal
 * backslash; `%` and `_` stay the client's wildcards and `\` escapes the next character, as
 * before. And whatever fails in the database, no value bound to a statement reaches the log.
 */
let t: TestApp;
let owner: Credentials;
const logs = new LogCapture();

/** Last names of the account's staff, each with the characters LIKE treats specially. */
const NAMES = ['\\', 'C:\\temp\\', 'back\\slash', '100%', '1000', 'under_score', 'underXscore'];

beforeAll(async () => {
  t = await startTestApp({ LOG_LEVEL: 'info' }, { logDestination: logs });
  owner = await t.newAccount({ lastName: 'Owner' });
  for (const lastName of NAMES) await t.newStaff(owner, { lastName });
});
afterAll(() => t?.close());
beforeEach(() => logs.clear());

const errorLines = () => logs.records().filter((r) => r.level === 'error');

/** The last names `where` selects on GET /api/1/staff.json, sorted; fails on anything but 200. */
async function jsonWhere(where: string): Promise<string[]> {
  const res = await request(t.app.express)
    .get('/api/1/staff.json')
    .query({ where })
    .auth(owner.login, owner.password);
  expect({ status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({
    status: 200,
    body: 'ok',
  });
  return (res.body.response as { last_name: string }[]).map((s) => s.last_name).sort();
}

async function graphqlLike(like: string): Promise<string[]> {
  const res = await t.gql(
    owner,
    'query($f: StaffFilter) { staff(filter: $f, first: 100) { nodes { lastName } } }',
    { f: { lastName: { like } } },
  );
  expect(res.errors).toBeUndefined();
  return res.data!.staff.nodes.map((s: { lastName: string }) => s.lastName).sort();
}

describe('a trailing backslash is a literal backslash', () => {
  // In the where language a backslash inside quotes is written `\\`.
  test.each([
    ['last_name ~= "\\\\"', ['\\']],
    ['last_name ~= "%\\\\"', ['C:\\temp\\', '\\'].sort()],
    ['last_name ~= "C:%\\\\"', ['C:\\temp\\']],
  ])('JSON where=%s', async (where, expected) => {
    expect(await jsonWhere(where)).toEqual(expected);
    expect(errorLines()).toEqual([]);
  });

  test.each([
    ['\\', ['\\']],
    ['%\\', ['C:\\temp\\', '\\'].sort()],
  ])('GraphQL like: %j', async (like, expected) => {
    expect(await graphqlLike(like)).toEqual(expected);
    expect(errorLines()).toEqual([]);
  });
});

describe('everything else of LIKE is as before', () => {
  test.each([
    // `%` and `_` are wildcards: `~=` is LIKE with the pattern as given (docs/json-api.md).
    ['last_name ~= "100%"', ['100%', '1000']],
    ['last_name ~= "under_score"', ['underXscore', 'under_score'].sort()],
    // `\` escapes the next character: a literal `%`, `_` or backslash.
    ['last_name ~= "100\\\\%"', ['100%']],
    ['last_name ~= "under\\\\_score"', ['under_score']],
    ['last_name ~= "%\\\\\\\\%"', ['C:\\temp\\', '\\', 'back\\slash'].sort()],
    // Case-insensitive, no implicit `%`.
    ['last_name ~= "OWNER"', ['Owner']],
    ['last_name ~= "own"', []],
  ])('JSON where=%s', async (where, expected) => {
    expect(await jsonWhere(where)).toEqual(expected);
  });
});

test('a statement PostgreSQL refuses is logged without the values bound to it', async () => {
  // A fault the code cannot foresee, injected in the database: a trigger that refuses every new
  // company, its detail quoting the row (as PostgreSQL's own details quote values).
  const sql = t.db.orm.em.getConnection();
  await sql.execute(`create function refuse_company() returns trigger language plpgsql as $$
    begin
      raise exception 'injected fault' using detail = 'Key (name)=(' || new.name || ') refused';
    end $$`);
  // On Citus a trigger on a distributed table needs the setting (docs/scaling.md).
  await t.db.orm.em.fork().transactional(async (em) => {
    await em.execute('set local citus.enable_unsafe_triggers = on');
    await em.execute(
      'create trigger refuse_company before insert on companies for each row execute function refuse_company()',
    );
  });
  try {
    const secret = 'Secret Client Name 4711';
    const res = await request(t.app.express)
      .post('/api/1/companies.json')
      .auth(owner.login, owner.password)
      .send({ company: { name: secret, notes: 'secret notes 0815' } });
    expect(res.status).toBe(500);
    const [logged] = errorLines().filter((r) => r.msg === 'unexpected error');
    // The fault is logged with what PostgreSQL said, its SQLSTATE and where in the code it arose,
    expect(logged?.err).toMatchObject({ code: 'P0001', message: 'injected fault' });
    expect(logged!.err.stack).toMatch(/^DriverException: injected fault\n\s+at /);
    // but not the statement, which MikroORM writes with its values inlined, nor the detail quoting
    // the row, on any line.
    expect(logs.text()).not.toMatch(/Secret Client Name|secret notes|4711|0815|insert into/);
  } finally {
    await t.db.orm.em.fork().transactional(async (em) => {
      await em.execute('set local citus.enable_unsafe_triggers = on');
      await em.execute('drop trigger refuse_company on companies');
    });
    await sql.execute('drop function refuse_company()');
  }
});
