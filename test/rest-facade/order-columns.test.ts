/**
 * The JSON lists' `order` parameter accepts every column their `where` accepts (docs/json-api.md,
 * "Columns": every listed column works in both), text columns included, through HTTP and the real
 * database. Ties end in the legacy id, so every order is deterministic.
 *
 * Text values are lower-case ASCII letters, which every collation orders alike.
 */
import request from 'supertest';
import type { ColumnTable } from '../../rest-facade/query/columns';
import { activityColumns } from '../../rest-facade/routes/activities.routes';
import { companyColumns } from '../../rest-facade/routes/companies.routes';
import { projectColumns } from '../../rest-facade/routes/projects.routes';
import { shiftColumns } from '../../rest-facade/routes/shifts.routes';
import { staffColumns } from '../../rest-facade/routes/staff.routes';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

type Json = Record<string, any>;

let t: TestApp;
let owner: Credentials & { ownerId: string };
let ann: { id: string };
const beas: string[] = [];
let projectA: string;
let projectB: string;
const activities: Json[] = [];
const shifts: Record<string, string> = {};

function api(path: string) {
  return request(t.app.express).get(`/api/1${path}`).auth(owner.login, owner.password);
}

async function create(path: string, body: Json): Promise<Json> {
  const res = await request(t.app.express)
    .post(`/api/1${path}`)
    .auth(owner.login, owner.password)
    .send(body);
  if (res.status !== 200)
    throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.response;
}

/** The rows of a list answer, after checking it is a 200 whose count is its length. */
async function rows(path: string, order: string): Promise<Json[]> {
  const res = await api(
    `${path}${path.includes('?') ? '&' : '?'}order=${encodeURIComponent(order)}`,
  );
  expect({ status: res.status, body: res.status === 200 ? 'list' : res.body }).toEqual({
    status: 200,
    body: 'list',
  });
  expect(res.body.count).toBe(res.body.response.length);
  return res.body.response;
}

beforeAll(async () => {
  t = await startTestApp();
  owner = await t.newAccount({ firstName: 'zed', timeZone: 'UTC' });
  ann = await t.newStaff(owner, { firstName: 'ann' });
  for (let i = 0; i < 2; i++) beas.push((await t.newStaff(owner, { firstName: 'bea' })).id);

  // Created out of order, so that no order here is the order of creation.
  const companies: Json[] = [];
  for (const last of ['young', 'zulu', 'xavier']) {
    companies.push(
      await create('/companies.json', { company: { name: `co ${last}`, contact_last_name: last } }),
    );
  }
  const company = companies[0]!.uuid as string;
  projectA = (
    await create('/projects.json', {
      project: { name: 'pa', company_uuid: company, notes: 'kilo' },
    })
  ).uuid;
  projectB = (await create('/projects.json', { project: { name: 'pb', company_uuid: company } }))
    .uuid;
  await create('/projects.json', {
    project: { name: 'pc', company_uuid: company, notes: 'juliet' },
  });

  for (const name of ['build', 'design', 'build']) {
    activities.push(await create(`/projects/${projectA}/activities.json`, { activity: { name } }));
  }

  // Starts repeat, so `start` alone leaves ties that `notes` must break; notes repeat too.
  const made: [string, string, string, string | null, Json][] = [
    ['s1', projectA, '2026-01-01T09:00:00Z', 'delta', { activity_uuid: activities[0]!.uuid }],
    ['s2', projectA, '2026-01-02T09:00:00Z', 'alpha', {}],
    ['s3', projectA, '2026-01-02T09:00:00Z', 'charlie', { activity_uuid: activities[1]!.uuid }],
    ['s4', projectA, '2026-01-01T09:00:00Z', null, { user_uuid: ann.id }],
    ['s5', projectA, '2026-01-03T09:00:00Z', 'alpha', {}],
    ['s6', projectB, '2026-01-04T09:00:00Z', 'bravo', { external_href: 'https://example.com/b' }],
  ];
  for (const [name, project, start, notes, extra] of made) {
    const stop = new Date(Date.parse(start) + 3_600_000).toISOString();
    shifts[name] = (
      await create(`/projects/${project}/shifts.json`, {
        shift: { start, stop, notes, time_zone: 'UTC', ...extra },
      })
    ).uuid;
  }
});
afterAll(() => t?.close());

describe('every where column orders', () => {
  /** What JavaScript's `<` orders as PostgreSQL does: ids, numbers, timestamps, booleans. */
  const COMPARABLE = new Set([
    'uuid',
    'integer',
    'float',
    'timestamp',
    'boolean',
    'string-boolean',
  ]);

  /** PostgreSQL's order of one column: nulls last ascending and first descending. */
  function sortedLike(values: unknown[], direction: 'asc' | 'desc'): unknown[] {
    return [...values].sort((x, y) => {
      if (x === y) return 0;
      const ascending = x === null ? 1 : y === null ? -1 : (x as never) < (y as never) ? -1 : 1;
      return direction === 'asc' ? ascending : -ascending;
    });
  }

  const RESOURCES: [string, () => string, ColumnTable, number][] = [
    ['staff', () => '/staff.json', staffColumns, 4],
    ['companies', () => '/companies.json', companyColumns, 3],
    ['projects', () => '/projects.json', projectColumns, 3],
    ['activities', () => `/projects/${projectA}/activities.json`, activityColumns, 3],
    ['shifts', () => '/shifts.json', shiftColumns, 6],
  ];

  test.each(RESOURCES)('%s: every column, both ways', async (_name, path, columns, count) => {
    for (const [column, spec] of Object.entries(columns)) {
      for (const direction of ['asc', 'desc'] as const) {
        const listed = await rows(path(), `${column} ${direction}`);
        expect(listed).toHaveLength(count);
        if (!COMPARABLE.has(spec.type as string)) continue;
        const values = listed.map((row) => row[column] as unknown);
        expect({ column, direction, values }).toEqual({
          column,
          direction,
          values: sortedLike(values, direction),
        });
      }
    }
  });
});

describe('text columns order the rows', () => {
  test('shifts: the issue example, start desc, notes asc, on a project', async () => {
    const listed = await rows(`/projects/${projectA}/shifts.json`, 'start desc, notes asc');
    expect(listed.map((s) => s.uuid)).toEqual(['s5', 's2', 's3', 's1', 's4'].map((s) => shifts[s]));
  });

  test('shifts: notes both ways, nulls last ascending, equal notes in the order of creation', async () => {
    expect((await rows('/shifts.json', 'notes asc')).map((s) => s.uuid)).toEqual(
      ['s2', 's5', 's6', 's3', 's1', 's4'].map((s) => shifts[s]),
    );
    expect((await rows('/shifts.json', 'notes desc')).map((s) => s.uuid)).toEqual(
      ['s4', 's1', 's3', 's6', 's2', 's5'].map((s) => shifts[s]),
    );
  });

  test('shifts: external_href, nulls last, the rest by the next term', async () => {
    expect((await rows('/shifts.json', 'external_href, start desc')).map((s) => s.uuid)).toEqual(
      ['s6', 's5', 's2', 's3', 's1', 's4'].map((s) => shifts[s]),
    );
  });

  test('projects: notes', async () => {
    expect((await rows('/projects.json', 'notes')).map((p) => p.notes)).toEqual([
      'juliet',
      'kilo',
      null,
    ]);
    expect((await rows('/projects.json', 'notes desc')).map((p) => p.notes)).toEqual([
      null,
      'kilo',
      'juliet',
    ]);
  });

  test('companies: contact_last_name', async () => {
    expect(
      (await rows('/companies.json', 'contact_last_name')).map((c) => c.contact_last_name),
    ).toEqual(['xavier', 'young', 'zulu']);
    expect(
      (await rows('/companies.json', 'contact_last_name desc')).map((c) => c.contact_last_name),
    ).toEqual(['zulu', 'young', 'xavier']);
  });

  test('activities: name, equal names by uuid descending', async () => {
    const builds = activities.filter((a) => a.name === 'build').map((a) => a.uuid as string);
    expect(
      (await rows(`/projects/${projectA}/activities.json`, 'name asc, uuid desc')).map(
        (a) => a.uuid,
      ),
    ).toEqual([...builds.sort().reverse(), activities[1]!.uuid]);
  });

  test('staff: first_name, equal names by uuid descending', async () => {
    expect((await rows('/staff.json', 'first_name, uuid desc')).map((s) => s.uuid)).toEqual([
      ann.id,
      ...[...beas].sort().reverse(),
      owner.ownerId,
    ]);
  });
});
