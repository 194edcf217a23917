/**
 * GET /api/1/shifts.csv: the shifts the caller can see, filtered and ordered by the JSON
 * interface's where/order language, streamed as CSV page by page. Pages are tiny here
 * (PAGE_SIZE_MAX=4), so every export below crosses many page boundaries, and the ties, nulls and
 * booleans of the orders land on them; the expected order is computed independently in the test.
 */
import { parse } from 'csv-parse/sync';
import request from 'supertest';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

const PAGE_SIZE_MAX = 4;

let t: TestApp;
let owner: Credentials & { ownerId: string };
let staff: Credentials & { id: string };
let projectA: string;
let projectB: string;

interface Made {
  id: string;
  legacyId: number;
  start: string;
  stop: string | null;
  billable: boolean;
  timeZone: string;
  projectId: string;
  userId: string;
  notes: string | null;
}
const made: Made[] = [];

const ZONES = ['Asia/Tokyo', 'Europe/Berlin', 'UTC'];
const AWKWARD_NOTES = 'comma, "quotes"\nand a second line';
/** Notes that repeat, with nulls, so a notes order has ties and nulls on page boundaries. */
const NOTES = ['bravo', 'delta', null, 'bravo'];

beforeAll(async () => {
  t = await startTestApp({
    PAGE_SIZE_MAX: String(PAGE_SIZE_MAX),
    PAGE_SIZE_DEFAULT: String(PAGE_SIZE_MAX),
  });
  owner = await t.newAccount({ timeZone: 'UTC' });
  staff = await t.newStaff(owner);
  const company = await t.gqlOk<{ createCompany: { company: { id: string } } }>(
    owner,
    'mutation { createCompany(input: { name: "Export Ltd", visibility: PUBLIC }) { company { id } } }',
  );
  const project = async (name: string) =>
    (
      await t.gqlOk<{ createProject: { project: { id: string } } }>(
        owner,
        'mutation($c: ID!, $n: String!) { createProject(input: { companyId: $c, name: $n, visibility: PUBLIC }) { project { id } } }',
        {
          c: company.createCompany.company.id,
          n: name,
        },
      )
    ).createProject.project.id;
  projectA = await project('Alpha');
  projectB = await project('Beta');

  // 19 shifts: starts repeat (ties broken by the legacy id), one running shift per user (a null
  // stop), billable and zones mixed, so every order has ties across page boundaries.
  for (let i = 0; i < 19; i++) {
    const who = i % 5 === 4 ? staff : owner;
    const start = new Date(Date.UTC(2026, 0, 5 + Math.floor(i / 3), 9)).toISOString();
    const running = i === 17 || i === 18;
    const input = {
      projectId: i % 2 === 0 ? projectA : projectB,
      userId: who === staff ? staff.id : owner.ownerId,
      start,
      ...(running
        ? {}
        : { stop: new Date(Date.parse(start) + (1 + (i % 4)) * 3_600_000).toISOString() }),
      billable: i % 3 !== 0,
      timeZone: ZONES[i % ZONES.length],
      notes: i === 5 ? AWKWARD_NOTES : NOTES[i % NOTES.length],
    };
    const shift = (
      await t.gqlOk<{
        createShift: { shift: Made & { project: { id: string }; user: { id: string } } };
      }>(
        owner,
        'mutation($input: CreateShiftInput!) { createShift(input: $input) { shift { id legacyId start stop billable timeZone notes project { id } user { id } } } }',
        { input },
      )
    ).createShift.shift;
    made.push({ ...shift, projectId: shift.project.id, userId: shift.user.id });
  }
  // A later running shift of the same user stops the earlier one: read the stops back.
  for (const shift of made) {
    const now = await t.gqlOk<{ shift: { stop: string | null } }>(
      owner,
      'query($id: ID) { shift(id: $id) { stop } }',
      { id: shift.id },
    );
    shift.stop = now.shift.stop;
  }
});
afterAll(() => t?.close());

async function exportCsv(
  who: Credentials,
  path = '/api/1/shifts.csv',
  query: Record<string, string> = {},
) {
  const res = await request(t.app.express).get(path).query(query).auth(who.login, who.password);
  const rows =
    res.status === 200 ? (parse(res.text, { columns: true }) as Record<string, string>[]) : [];
  return { res, rows };
}

type Key = (s: Made) => string | number | boolean | null;

/** PostgreSQL's order: nulls last ascending and first descending, false before true, then the legacy id. */
function sorted(shifts: Made[], terms: [Key, 'asc' | 'desc'][]): string[] {
  const compare = (a: Made, b: Made): number => {
    for (const [key, direction] of terms) {
      const [x, y] = [key(a), key(b)];
      if (x === y) continue;
      const ascending = x === null ? 1 : y === null ? -1 : x < y ? -1 : 1;
      return direction === 'asc' ? ascending : -ascending;
    }
    return a.legacyId - b.legacyId;
  };
  return [...shifts].sort(compare).map((s) => s.id);
}

describe('order across pages', () => {
  const start: Key = (s) => s.start;
  const stop: Key = (s) => s.stop;
  const billable: Key = (s) => s.billable;
  const zone: Key = (s) => s.timeZone;
  const notes: Key = (s) => s.notes;
  const uuid: Key = (s) => s.id;
  const project: Key = (s) => s.projectId;
  const user: Key = (s) => s.userId;
  const none: Key = () => null; // activity_uuid and external_href: never set here
  const cases: [string, [Key, 'asc' | 'desc'][]][] = [
    ['', []],
    ['start desc', [[start, 'desc']]],
    ['start', [[start, 'asc']]],
    ['stop', [[stop, 'asc']]],
    ['stop desc', [[stop, 'desc']]],
    [
      'billable desc, start',
      [
        [billable, 'desc'],
        [start, 'asc'],
      ],
    ],
    [
      'billable, stop desc',
      [
        [billable, 'asc'],
        [stop, 'desc'],
      ],
    ],
    [
      'time_zone, stop',
      [
        [zone, 'asc'],
        [stop, 'asc'],
      ],
    ],
    [
      'time_zone desc, billable, start desc',
      [
        [zone, 'desc'],
        [billable, 'asc'],
        [start, 'desc'],
      ],
    ],
    // Every where column orders, text and uuid columns included.
    ['notes', [[notes, 'asc']]],
    [
      'notes desc, start',
      [
        [notes, 'desc'],
        [start, 'asc'],
      ],
    ],
    ['uuid desc', [[uuid, 'desc']]],
    [
      'project_uuid, notes desc',
      [
        [project, 'asc'],
        [notes, 'desc'],
      ],
    ],
    [
      'user_uuid desc, start desc',
      [
        [user, 'desc'],
        [start, 'desc'],
      ],
    ],
    [
      'activity_uuid desc, external_href, start desc',
      [
        [none, 'desc'],
        [none, 'asc'],
        [start, 'desc'],
      ],
    ],
  ];

  test.each(cases)('order=%p exports every shift once, in order', async (order, terms) => {
    const { res, rows } = await exportCsv(owner, '/api/1/shifts.csv', order ? { order } : {});
    expect(res.status).toBe(200);
    expect(rows.map((r) => r.uuid)).toEqual(sorted(made, terms));
  });
});

test('the file: a CSV attachment with a header, values as the JSON interface has them', async () => {
  const { res, rows } = await exportCsv(owner);
  expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
  expect(res.headers['content-disposition']).toBe('attachment; filename=shifts.csv');
  expect(res.text.split('\n')[0]).toBe(
    'uuid,legacy_id,start,stop,duration_seconds,time_zone,billable,project_uuid,project_name,user_uuid,user_login,activity_uuid,activity_name,tag_list,notes,external_href,project_code',
  );
  const fifth = rows.find((r) => r.uuid === made[5]!.id)!;
  expect(fifth).toMatchObject({
    legacy_id: String(made[5]!.legacyId),
    // The JSON interface's form, whole seconds (`...T09:00:00Z`); GraphQL has `...T09:00:00.000Z`.
    start: made[5]!.start.replace('.000Z', 'Z'),
    stop: made[5]!.stop!.replace('.000Z', 'Z'),
    duration_seconds: String((Date.parse(made[5]!.stop!) - Date.parse(made[5]!.start)) / 1000),
    billable: String(made[5]!.billable),
    project_name: 'Beta',
    notes: AWKWARD_NOTES,
  });
  const running = rows.find((r) => r.uuid === made[18]!.id)!;
  expect(running.stop).toBe('');
  expect(running.duration_seconds).toBe('');
});

test('where filters, and the project route exports only its project', async () => {
  const billable = await exportCsv(owner, '/api/1/shifts.csv', {
    where: 'billable = true',
    order: 'start desc',
  });
  expect(billable.rows.map((r) => r.uuid)).toEqual(
    sorted(
      made.filter((s) => s.billable),
      [[(s) => s.start, 'desc']],
    ),
  );

  const ofB = await exportCsv(owner, `/api/1/projects/${projectB}/shifts.csv`, { order: 'stop' });
  expect(ofB.rows.map((r) => r.uuid)).toEqual(
    sorted(
      made.filter((s) => s.projectId === projectB),
      [[(s) => s.stop, 'asc']],
    ),
  );
});

test('a staff member exports only their own shifts', async () => {
  const { rows } = await exportCsv(staff);
  expect(rows.map((r) => r.uuid).sort()).toEqual(
    made
      .filter((s) => s.userId === staff.id)
      .map((s) => s.id)
      .sort(),
  );
  expect(rows.length).toBeGreaterThan(0);
});

test('refusals before the first byte are the JSON error envelope', async () => {
  const badWhere = await exportCsv(owner, '/api/1/shifts.csv', { where: 'nonsense = 1' });
  expect(badWhere.res.status).toBe(400);
  expect(badWhere.res.body.error.message).toMatch(/nonsense/);
  expect(badWhere.res.body.error.position).toBe(0);

  const badOrder = await exportCsv(owner, '/api/1/shifts.csv', { order: 'nonsense' });
  expect(badOrder.res.status).toBe(400);

  const anonymous = await request(t.app.express).get('/api/1/shifts.csv');
  expect(anonymous.status).toBe(401);
  expect(anonymous.body.error.code).toBe('UNAUTHENTICATED');

  const unknownProject = await exportCsv(
    owner,
    '/api/1/projects/00000000-0000-4000-8000-000000000000/shifts.csv',
  );
  expect(unknownProject.res.status).toBe(404);
});
