/**
 * Contract tests of the legacy JSON facade (/api/1) for projects, activities and shifts, written
 * from docs/json-api.md, docs/domain-rules.md and docs/permissions.md (not from the facade's code):
 * status, envelope, exact field sets and wire types, nesting, merging updates, punching, the
 * query language, and who sees what.
 */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { activityResource } from '../../rest-facade/routes/activities.routes';
import { projectResource } from '../../rest-facade/routes/projects.routes';
import { shiftResource } from '../../rest-facade/routes/shifts.routes';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

// ---------------------------------------------------------------------------------------------
// Field sets, written from the Project, Activity and Shift tables of docs/json-api.md (the
// running-project extras included). `user_uuids` is implied by visibility 'custom'.
// ---------------------------------------------------------------------------------------------

const PROJECT_KEYS = [
  'uuid',
  'name',
  'active',
  'company_uuid',
  'visibility',
  'user_uuids',
  'time_limit',
  'time_limit_string',
  'default_tags',
  'tag_list',
  'notes',
  'hourly_rate',
  'hourly_rate_cents',
  'invoice_amount',
  'billable_by_default',
  'activities',
  'grand_total',
  'running_total',
  'running',
  'time_left',
  'overdue',
  'nearly_overdue',
  'started_at',
].sort();
const RUNNING_PROJECT_KEYS = [
  ...PROJECT_KEYS,
  'current_shift',
  'shift_notes',
  'shift_tag_list',
  'shift_billable',
].sort();
const ACTIVITY_KEYS = ['uuid', 'name', 'project_uuid'].sort();
const SHIFT_KEYS = [
  'uuid',
  'start',
  'stop',
  'notes',
  'time_zone',
  'time_zone_offset',
  'billable',
  'project_uuid',
  'user_uuid',
  'tag_list',
  'activity_uuid',
  'external_href',
].sort();
const ERROR_KEYS = ['code', 'status', 'title', 'message', 'field_errors'];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** RFC 3339 in UTC with the Z suffix (fractional seconds allowed). */
const RFC3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

type Json = Record<string, any>;

function keysOf(obj: Json): string[] {
  return Object.keys(obj).sort();
}

function expectActivity(a: Json): void {
  expect(keysOf(a)).toEqual(ACTIVITY_KEYS);
  activityResource.wire.parse(a);
  expect(a.uuid).toMatch(UUID);
  expect(typeof a.name).toBe('string');
  expect(a.project_uuid).toMatch(UUID);
}

function expectShift(s: Json): void {
  expect(keysOf(s)).toEqual(SHIFT_KEYS);
  shiftResource.wire.parse(s);
  expect(s.uuid).toMatch(UUID);
  expect(s.start).toMatch(RFC3339_UTC);
  if (s.stop !== null) expect(s.stop).toMatch(RFC3339_UTC);
  expect(s.notes === null || typeof s.notes === 'string').toBe(true);
  expect(typeof s.time_zone).toBe('string');
  expect(s.time_zone_offset === null || Number.isInteger(s.time_zone_offset)).toBe(true);
  expect(typeof s.billable).toBe('boolean');
  expect(s.project_uuid).toMatch(UUID);
  expect(s.user_uuid).toMatch(UUID);
  expect(Array.isArray(s.tag_list)).toBe(true);
  for (const tag of s.tag_list) expect(typeof tag).toBe('string');
  expect(s.activity_uuid === null || UUID.test(s.activity_uuid)).toBe(true);
}

/** A project on the wire; `running` says whether the caller is punched in to it. */
function expectProject(p: Json, running: boolean): void {
  expect(keysOf(p)).toEqual(running ? RUNNING_PROJECT_KEYS : PROJECT_KEYS);
  projectResource.wire.parse(p);
  expect(p.uuid).toMatch(UUID);
  expect(typeof p.name).toBe('string');
  expect(['true', 'false']).toContain(p.active);
  expect(p.company_uuid).toMatch(UUID);
  expect(['public', 'private', 'custom']).toContain(p.visibility);
  expect(p.time_limit === null || Number.isInteger(p.time_limit)).toBe(true);
  expect(typeof p.tag_list).toBe('string');
  expect(p.default_tags === null || typeof p.default_tags === 'string').toBe(true);
  expect(p.hourly_rate_cents === null || Number.isInteger(p.hourly_rate_cents)).toBe(true);
  expect(typeof p.grand_total).toBe('number');
  expect(Number.isInteger(p.grand_total)).toBe(true);
  expect(typeof p.running_total).toBe('number');
  expect(Number.isInteger(p.running_total)).toBe(true);
  expect(p.running).toBe(running);
  for (const a of p.activities) expectActivity(a);
  if (p.time_limit === null) {
    expect([p.time_left, p.overdue, p.nearly_overdue]).toEqual([null, null, null]);
  } else {
    expect(p.time_left).toBe(p.time_limit - p.grand_total);
    expect(p.overdue).toBe(p.grand_total > p.time_limit);
  }
  if (!running) {
    expect(p.started_at).toBeNull();
    return;
  }
  expectShift(p.current_shift);
  expect(p.current_shift.stop).toBeNull();
  expect(p.current_shift.project_uuid).toBe(p.uuid);
  expect(Number.isInteger(p.started_at)).toBe(true);
  expect(p.started_at).toBe(Math.floor(Date.parse(p.current_shift.start) / 1000));
  expect(p.shift_notes).toBe(p.current_shift.notes);
  expect(typeof p.shift_tag_list).toBe('string');
  expect(p.shift_tag_list).toBe(p.current_shift.tag_list.join(','));
  expect(typeof p.shift_billable).toBe('boolean');
  expect(p.shift_billable).toBe(p.current_shift.billable);
}

/** `{response: obj}` and nothing else; returns obj. */
function one(res: request.Response): Json {
  expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(keysOf(res.body)).toEqual(['response']);
  expect(typeof res.body.response).toBe('object');
  expect(Array.isArray(res.body.response)).toBe(false);
  return res.body.response;
}

/** `{response: [...], count}` with count the total; returns the list. */
function list(res: request.Response): Json[] {
  expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
  expect(keysOf(res.body)).toEqual(['count', 'response']);
  expect(Array.isArray(res.body.response)).toBe(true);
  expect(Number.isInteger(res.body.count)).toBe(true);
  expect(res.body.count).toBe(res.body.response.length);
  return res.body.response;
}

/** The JSON error body; `fields` are the legacy field names its field_errors must name. */
function expectError(res: request.Response, status: number, code: string, fields?: string[]): Json {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
  expect(keysOf(res.body)).toEqual(['error']);
  const error = res.body.error as Json;
  for (const key of Object.keys(error)) expect(ERROR_KEYS).toContain(key);
  expect(error.status).toBe(status);
  expect(typeof error.title).toBe('string');
  expect(typeof error.message).toBe('string');
  expect(error.message.length).toBeGreaterThan(0);
  if (fields) {
    expect(Array.isArray(error.field_errors)).toBe(true);
    expect(error.field_errors.map((fe: Json) => fe.field)).toEqual(expect.arrayContaining(fields));
    for (const fe of error.field_errors) expect(typeof fe.message).toBe('string');
  }
  return error;
}

function expect404(res: request.Response): void {
  expectError(res, 404, 'NOT_FOUND');
}

/** Requests to /api/1 as one user. */
function api(who: Credentials) {
  const http = () => request(t.app.express);
  return {
    get: (path: string) => http().get(`/api/1${path}`).auth(who.login, who.password),
    post: (path: string, body?: object) => {
      const req = http().post(`/api/1${path}`).auth(who.login, who.password);
      return body === undefined ? req : req.send(body);
    },
    put: (path: string, body: object) =>
      http().put(`/api/1${path}`).auth(who.login, who.password).send(body),
    del: (path: string) => http().delete(`/api/1${path}`).auth(who.login, who.password),
  };
}
type Api = ReturnType<typeof api>;

async function newCompany(who: Credentials, visibility = 'PUBLIC'): Promise<string> {
  const data = await t.gqlOk(
    who,
    'mutation($input: CreateCompanyInput!) { createCompany(input: $input) { company { id } } }',
    {
      input: { name: `Company ${randomUUID().slice(0, 6)}`, visibility },
    },
  );
  return data.createCompany.company.id;
}

async function newProject(who: Credentials, input: Record<string, unknown>): Promise<string> {
  const data = await t.gqlOk(
    who,
    'mutation($input: CreateProjectInput!) { createProject(input: $input) { project { id } } }',
    {
      input: { name: `Project ${randomUUID().slice(0, 6)}`, visibility: 'PUBLIC', ...input },
    },
  );
  return data.createProject.project.id;
}

async function newActivity(who: Credentials, projectId: string, name = 'Design'): Promise<string> {
  const data = await t.gqlOk(
    who,
    'mutation($input: CreateActivityInput!) { createActivity(input: $input) { activity { id } } }',
    {
      input: { projectId, name },
    },
  );
  return data.createActivity.activity.id;
}

async function newShift(who: Credentials, input: Record<string, unknown>): Promise<string> {
  const data = await t.gqlOk(
    who,
    'mutation($input: CreateShiftInput!) { createShift(input: $input) { shift { id } } }',
    { input },
  );
  return data.createShift.shift.id;
}

const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();

interface World {
  owner: Credentials & { ownerId: string };
  as: Api;
  company: string;
  project: string;
}

async function world(): Promise<World> {
  const owner = await t.newAccount();
  const company = await newCompany(owner);
  const project = await newProject(owner, { companyId: company });
  return { owner, as: api(owner), company, project };
}

/** Another account with one of each resource, all of which must not exist for the first. */
async function strangerWorld() {
  const w = await world();
  const activity = await newActivity(w.owner, w.project);
  const shift = await newShift(w.owner, {
    projectId: w.project,
    start: '2024-03-01T09:00:00Z',
    stop: '2024-03-01T10:00:00Z',
  });
  return { ...w, activity, shift };
}

/** The error body with every uuid blanked, to compare "another account's" with "missing". */
function withoutUuids(body: unknown): unknown {
  return JSON.parse(
    JSON.stringify(body).replace(
      /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g,
      '<uuid>',
    ),
  );
}

// =============================================================================================
// Projects
// =============================================================================================

describe('projects: create', () => {
  test('POST /projects.json creates; text forms fill time_limit and hourly_rate_cents; wire types', async () => {
    const { as, company } = await world();
    const res = await as.post('/projects.json', {
      project: {
        name: 'Website',
        company_uuid: company,
        time_limit: null,
        time_limit_string: '2h 30m',
        hourly_rate: '$12.50',
        hourly_rate_cents: null,
        default_tags: 'design,web',
        tag_list: 'big,urgent',
        notes: 'Due soon',
      },
    });
    const p = one(res);
    expectProject(p, false);
    expect(p).toMatchObject({
      name: 'Website',
      active: 'true',
      company_uuid: company,
      time_limit: 9000,
      time_limit_string: '2h 30m',
      hourly_rate: '$12.50',
      hourly_rate_cents: 1250,
      default_tags: 'design,web',
      tag_list: 'big,urgent',
      notes: 'Due soon',
      grand_total: 0,
      running_total: 0,
      running: false,
      started_at: null,
      activities: [],
    });
    // It is stored: show answers the same object.
    expect(one(await as.get(`/projects/${p.uuid}.json`))).toEqual(p);
  });

  test('omitted time_limit / hourly_rate_cents are filled from the text forms too', async () => {
    const { as, company } = await world();
    const p = one(
      await as.post('/projects.json', {
        project: { name: 'X', company_uuid: company, time_limit_string: '12h', hourly_rate: '$85' },
      }),
    );
    expect(p).toMatchObject({ time_limit: 43_200, hourly_rate_cents: 8500 });
  });

  test('a supplied time_limit / hourly_rate_cents wins over the text forms', async () => {
    const { as, company } = await world();
    const p = one(
      await as.post('/projects.json', {
        project: {
          name: 'X',
          company_uuid: company,
          time_limit: 600,
          time_limit_string: '2h 30m',
          hourly_rate: '$12.50',
          hourly_rate_cents: 999,
        },
      }),
    );
    expectProject(p, false);
    expect(p).toMatchObject({
      time_limit: 600,
      time_limit_string: '2h 30m',
      hourly_rate: '$12.50',
      hourly_rate_cents: 999,
    });
  });

  test('a caller-supplied uuid is kept; active "false" is stored and rendered as the string "false"', async () => {
    const { as, company } = await world();
    const uuid = randomUUID();
    const p = one(
      await as.post('/projects.json', {
        project: { uuid, name: 'Dormant', company_uuid: company, active: 'false' },
      }),
    );
    expectProject(p, false);
    expect(p).toMatchObject({ uuid, active: 'false' });
  });

  test('POST /companies/:company_uuid/projects.json creates in the company of the path', async () => {
    const { as, owner } = await world();
    const company = await newCompany(owner);
    const p = one(
      await as.post(`/companies/${company}/projects.json`, { project: { name: 'Nested' } }),
    );
    expectProject(p, false);
    expect(p.company_uuid).toBe(company);
    expect(one(await as.get(`/companies/${company}/projects/${p.uuid}.json`)).name).toBe('Nested');
  });

  test("creating under another account's company, or a missing one, is 404 and stores nothing", async () => {
    const { as } = await world();
    const stranger = await strangerWorld();
    expect404(
      await as.post(`/companies/${stranger.company}/projects.json`, {
        project: { name: 'Intruder' },
      }),
    );
    expect404(
      await as.post(`/companies/${randomUUID()}/projects.json`, { project: { name: 'Nowhere' } }),
    );
    expect404(
      await as.post('/projects.json', {
        project: { name: 'Intruder', company_uuid: stranger.company },
      }),
    );
    const names = list(await api(stranger.owner).get('/projects.json')).map((p) => p.name);
    expect(names).not.toContain('Intruder');
  });
});

describe('projects: list and show', () => {
  test('GET /projects.json lists every visible project with count; list items have the project field set', async () => {
    const { as, owner, company, project } = await world();
    const other = await newCompany(owner);
    const second = await newProject(owner, { companyId: other, timeLimit: 3600 });
    const items = list(await as.get('/projects.json'));
    expect(items.map((p) => p.uuid).sort()).toEqual([project, second].sort());
    for (const p of items) expectProject(p, false);
    expect(items.find((p) => p.uuid === project)!.company_uuid).toBe(company);
  });

  test('GET /companies/:company_uuid/projects.json lists only that company', async () => {
    const { as, owner, company, project } = await world();
    const other = await newCompany(owner);
    await newProject(owner, { companyId: other });
    const items = list(await as.get(`/companies/${company}/projects.json`));
    expect(items.map((p) => p.uuid)).toEqual([project]);
    expectProject(items[0]!, false);
  });

  test("listing the projects of another account's company or a missing company is 404", async () => {
    const { as } = await world();
    const stranger = await strangerWorld();
    expect404(await as.get(`/companies/${stranger.company}/projects.json`));
    expect404(await as.get(`/companies/${randomUUID()}/projects.json`));
  });

  test('GET /projects/:uuid.json and the company-nested form show the project', async () => {
    const { as, company, project } = await world();
    const flat = one(await as.get(`/projects/${project}.json`));
    expectProject(flat, false);
    expect(flat.uuid).toBe(project);
    const nested = one(await as.get(`/companies/${company}/projects/${project}.json`));
    expect(nested).toEqual(flat);
  });

  test('a project addressed under another company of the same account is 404 on every nested route', async () => {
    const { as, owner, project } = await world();
    const other = await newCompany(owner);
    const base = `/companies/${other}/projects/${project}`;
    expect404(await as.get(`${base}.json`));
    expect404(await as.put(`${base}.json`, { project: { name: 'Moved?' } }));
    expect404(await as.post(`${base}/punch_in.json`, {}));
    expect404(await as.post(`${base}/punch_out.json`, {}));
    expect404(await as.del(`${base}.json`));
    const p = one(await as.get(`/projects/${project}.json`));
    expect(p.name).not.toBe('Moved?');
    expect(p.running).toBe(false);
  });

  test("another account's project is 404 on every route, with the same body as a missing uuid", async () => {
    const { as } = await world();
    const stranger = await strangerWorld();
    const routes: [string, (uuid: string, company: string) => Promise<request.Response>][] = [
      ['show', (u) => as.get(`/projects/${u}.json`)],
      ['nested show', (u, c) => as.get(`/companies/${c}/projects/${u}.json`)],
      ['update', (u) => as.put(`/projects/${u}.json`, { project: { name: 'Hijacked' } })],
      [
        'nested update',
        (u, c) => as.put(`/companies/${c}/projects/${u}.json`, { project: { name: 'Hijacked' } }),
      ],
      ['punch in', (u) => as.post(`/projects/${u}/punch_in.json`, {})],
      ['nested punch in', (u, c) => as.post(`/companies/${c}/projects/${u}/punch_in.json`, {})],
      ['punch out', (u) => as.post(`/projects/${u}/punch_out.json`, {})],
      ['nested punch out', (u, c) => as.post(`/companies/${c}/projects/${u}/punch_out.json`, {})],
      ['delete', (u) => as.del(`/projects/${u}.json`)],
      ['nested delete', (u, c) => as.del(`/companies/${c}/projects/${u}.json`)],
    ];
    for (const [, call] of routes) {
      const theirs = await call(stranger.project, stranger.company);
      expect404(theirs);
      const missing = await call(randomUUID(), stranger.company);
      expect404(missing);
      expect(withoutUuids(theirs.body)).toEqual(withoutUuids(missing.body));
    }
    const survivor = one(await api(stranger.owner).get(`/projects/${stranger.project}.json`));
    expect(survivor.name).not.toBe('Hijacked');
    expect(survivor.running).toBe(false);
  });

  test('a malformed uuid in the path is 404, not 500', async () => {
    const { as, company } = await world();
    expect404(await as.get('/projects/not-a-uuid.json'));
    expect404(await as.get(`/companies/${company}/projects/12345.json`));
    expect404(await as.put('/projects/not-a-uuid.json', { project: { name: 'x' } }));
    expect404(await as.post('/projects/not-a-uuid/punch_in.json', {}));
  });
});

describe('projects: update and delete', () => {
  test('PUT /projects/:uuid.json merges: omitted fields are kept; the answer carries running and totals', async () => {
    const { as, company } = await world();
    const created = one(
      await as.post('/projects.json', {
        project: {
          name: 'Keep',
          company_uuid: company,
          time_limit: 7200,
          hourly_rate_cents: 4000,
          tag_list: 'a,b',
          notes: 'old',
          default_tags: 'x',
        },
      }),
    );
    const updated = one(
      await as.put(`/projects/${created.uuid}.json`, { project: { notes: 'new' } }),
    );
    expectProject(updated, false);
    expect(updated).toEqual({ ...created, notes: 'new' });
    expect(updated).toHaveProperty('running', false);
    expect(updated).toHaveProperty('running_total', 0);
    expect(updated).toHaveProperty('grand_total', 0);
    expect(one(await as.get(`/projects/${created.uuid}.json`))).toEqual(updated);
  });

  test('PUT under /companies/:company_uuid/ updates and merges', async () => {
    const { as, company, project } = await world();
    const before = one(await as.get(`/projects/${project}.json`));
    const updated = one(
      await as.put(`/companies/${company}/projects/${project}.json`, {
        project: { name: 'Renamed', active: 'false' },
      }),
    );
    expectProject(updated, false);
    expect(updated).toEqual({ ...before, name: 'Renamed', active: 'false' });
  });

  test('PUT: time_limit_string fills time_limit when time_limit is null or omitted, not when supplied', async () => {
    const { as, project } = await world();
    expect(
      one(
        await as.put(`/projects/${project}.json`, {
          project: { time_limit: null, time_limit_string: '2h 30m' },
        }),
      ).time_limit,
    ).toBe(9000);
    expect(
      one(
        await as.put(`/projects/${project}.json`, {
          project: { time_limit: 60, time_limit_string: '1h' },
        }),
      ).time_limit,
    ).toBe(60);
    expect(
      one(
        await as.put(`/projects/${project}.json`, { project: { time_limit_string: '45 minutes' } }),
      ).time_limit,
    ).toBe(2700);
    expect(
      one(
        await as.put(`/projects/${project}.json`, {
          project: { hourly_rate: '$12.50', hourly_rate_cents: null },
        }),
      ).hourly_rate_cents,
    ).toBe(1250);
    expect(
      one(
        await as.put(`/projects/${project}.json`, {
          project: { hourly_rate: '$99', hourly_rate_cents: 100 },
        }),
      ).hourly_rate_cents,
    ).toBe(100);
  });

  test('DELETE /projects/:uuid.json returns the project and takes its activities and shifts with it', async () => {
    const { as, owner, project } = await world();
    const activity = await newActivity(owner, project);
    const shift = await newShift(owner, {
      projectId: project,
      start: '2024-01-01T09:00:00Z',
      stop: '2024-01-01T10:00:00Z',
    });
    const deleted = one(await as.del(`/projects/${project}.json`));
    expectProject(deleted, false);
    expect(deleted.uuid).toBe(project);
    expect404(await as.get(`/projects/${project}.json`));
    expect404(await as.get(`/shifts/${shift}.json`));
    expect404(await as.get(`/projects/${project}/activities/${activity}.json`));
    expect(list(await as.get('/projects.json'))).toEqual([]);
  });

  test('DELETE under /companies/:company_uuid/ deletes', async () => {
    const { as, company, project } = await world();
    expect(one(await as.del(`/companies/${company}/projects/${project}.json`)).uuid).toBe(project);
    expect404(await as.get(`/projects/${project}.json`));
  });
});

// =============================================================================================
// Punching
// =============================================================================================

describe('projects: punch in and punch out', () => {
  test('POST /projects/:uuid/punch_in.json answers the running project with every running field', async () => {
    const { as, owner, company } = await world();
    const project = await newProject(owner, {
      companyId: company,
      defaultTags: ['design'],
      timeLimit: 3600,
    });
    const activity = await newActivity(owner, project);
    const before = Math.floor(Date.now() / 1000);
    const p = one(
      await as.post(`/projects/${project}/punch_in.json`, {
        activity_uuid: activity,
        notes: 'Starting',
        tag_list: 'extra',
      }),
    );
    expectProject(p, true);
    expect(p.running).toBe(true);
    expect(p.current_shift).toMatchObject({
      stop: null,
      notes: 'Starting',
      activity_uuid: activity,
      user_uuid: owner.ownerId,
      tag_list: ['design', 'extra'],
    });
    expect(p.shift_notes).toBe('Starting');
    expect(p.shift_tag_list).toBe('design,extra');
    expect(p.shift_billable).toBe(true);
    expect(p.started_at).toBeGreaterThanOrEqual(before - 1);
    expect(p.started_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 1);

    // Every representation of the running project carries the running fields.
    const shown = one(await as.get(`/projects/${project}.json`));
    expectProject(shown, true);
    expect(shown.current_shift.uuid).toBe(p.current_shift.uuid);
    expect(shown.started_at).toBe(p.started_at);
    expectProject(one(await as.get(`/companies/${company}/projects/${project}.json`)), true);
    const listed = list(await as.get('/projects.json')).find((x) => x.uuid === project)!;
    expectProject(listed, true);
    expect(listed.started_at).toBe(p.started_at);
    expectProject(
      list(await as.get(`/companies/${company}/projects.json`)).find((x) => x.uuid === project)!,
      true,
    );
    const updated = one(await as.put(`/projects/${project}.json`, { project: { notes: 'busy' } }));
    expectProject(updated, true);
    expect(updated.current_shift.uuid).toBe(p.current_shift.uuid);
  });

  test('punch in twice is 422 PUNCHED_IN and leaves one running shift', async () => {
    const { as, project } = await world();
    one(await as.post(`/projects/${project}/punch_in.json`, {}));
    expectError(await as.post(`/projects/${project}/punch_in.json`, {}), 422, 'PUNCHED_IN');
    expect(list(await as.get('/shifts.json?where=stop%20%3D%20null'))).toHaveLength(1);
  });

  test('punch out stops the shift, appends the notes and answers the stopped project', async () => {
    const { as, project } = await world();
    const running = one(await as.post(`/projects/${project}/punch_in.json`, { notes: 'Started' }));
    const p = one(await as.post(`/projects/${project}/punch_out.json`, { notes: 'Done' }));
    expectProject(p, false);
    expect(p.running).toBe(false);
    expect(p.started_at).toBeNull();
    const shift = one(await as.get(`/shifts/${running.current_shift.uuid}.json`));
    expectShift(shift);
    expect(shift.stop).not.toBeNull();
    expect(Date.parse(shift.stop)).toBeGreaterThanOrEqual(Date.parse(shift.start));
    expect(shift.notes).toContain('Started');
    expect(shift.notes).toContain('Done');
  });

  test('punch out of a project that is not running is 422 PUNCHED_OUT', async () => {
    const { as, project } = await world();
    expectError(await as.post(`/projects/${project}/punch_out.json`, {}), 422, 'PUNCHED_OUT');
    one(await as.post(`/projects/${project}/punch_in.json`, {}));
    one(await as.post(`/projects/${project}/punch_out.json`, {}));
    expectError(await as.post(`/projects/${project}/punch_out.json`, {}), 422, 'PUNCHED_OUT');
  });

  test('punch in to an inactive project is 422 PROJECT_INACTIVE and creates no shift', async () => {
    const { as, owner, company } = await world();
    const project = await newProject(owner, { companyId: company, active: false });
    expectError(await as.post(`/projects/${project}/punch_in.json`, {}), 422, 'PROJECT_INACTIVE');
    expectError(
      await as.post(`/companies/${company}/projects/${project}/punch_in.json`, {}),
      422,
      'PROJECT_INACTIVE',
    );
    expect(list(await as.get(`/projects/${project}/shifts.json`))).toEqual([]);
  });

  test('punching in to another project punches out of the first', async () => {
    const { as, owner, company, project } = await world();
    const second = await newProject(owner, { companyId: company });
    const first = one(await as.post(`/projects/${project}/punch_in.json`, {}));
    expectProject(one(await as.post(`/projects/${second}/punch_in.json`, {})), true);
    expectProject(one(await as.get(`/projects/${project}.json`)), false);
    const stopped = one(await as.get(`/shifts/${first.current_shift.uuid}.json`));
    expect(stopped.stop).not.toBeNull();
    const runningShifts = list(await as.get('/shifts.json?where=stop%20%3D%20null'));
    expect(runningShifts.map((s) => s.project_uuid)).toEqual([second]);
  });

  test('the company-nested punch in and punch out work like the flat ones', async () => {
    const { as, company, project } = await world();
    const p = one(await as.post(`/companies/${company}/projects/${project}/punch_in.json`, {}));
    expectProject(p, true);
    expectError(
      await as.post(`/companies/${company}/projects/${project}/punch_in.json`, {}),
      422,
      'PUNCHED_IN',
    );
    const out = one(await as.post(`/companies/${company}/projects/${project}/punch_out.json`, {}));
    expectProject(out, false);
    expectError(
      await as.post(`/companies/${company}/projects/${project}/punch_out.json`, {}),
      422,
      'PUNCHED_OUT',
    );
  });

  test('totals: grand_total counts all users and live time, running_total the caller; time_left follows', async () => {
    const { as, owner, company } = await world();
    const staff = await t.newStaff(owner);
    const project = await newProject(owner, { companyId: company, timeLimit: 100_000 });
    await newShift(owner, {
      projectId: project,
      userId: staff.id,
      start: '2024-01-01T09:00:00Z',
      stop: '2024-01-01T09:30:00Z',
    });
    const start = ago(3600);
    const created = one(await as.post('/shifts.json', { shift: { project_uuid: project, start } }));
    expect(created.stop).toBeNull();
    const p = one(await as.get(`/projects/${project}.json`));
    expectProject(p, true);
    expect(p.started_at).toBe(Math.floor(Date.parse(start) / 1000));
    expect(p.current_shift.uuid).toBe(created.uuid);
    expect(p.grand_total).toBeGreaterThanOrEqual(1800 + 3600);
    expect(p.grand_total).toBeLessThan(1800 + 3600 + 120);
    expect(p.running_total).toBeGreaterThanOrEqual(3600);
    expect(p.running_total).toBeLessThan(3600 + 120);
    expect(p.time_left).toBe(100_000 - p.grand_total);
  });
});

describe('who sees what', () => {
  test("a staff member gets 404 for the owner's private project, exactly like a missing one", async () => {
    const { as, owner, company, project: publicProject } = await world();
    const staff = await t.newStaff(owner);
    const privateProject = await newProject(owner, {
      companyId: company,
      visibility: 'PRIVATE',
      name: 'Secret',
    });
    const mine = api(staff);
    const visible = list(await mine.get('/projects.json')).map((p) => p.uuid);
    expect(visible).toContain(publicProject);
    expect(visible).not.toContain(privateProject);
    expect(
      list(await mine.get(`/companies/${company}/projects.json`)).map((p) => p.uuid),
    ).not.toContain(privateProject);

    const shown = await mine.get(`/projects/${privateProject}.json`);
    expect404(shown);
    const missing = await mine.get(`/projects/${randomUUID()}.json`);
    expect(withoutUuids(shown.body)).toEqual(withoutUuids(missing.body));
    expect404(await mine.get(`/companies/${company}/projects/${privateProject}.json`));
    expect404(await mine.get(`/projects/${privateProject}/activities.json`));
    expect404(await mine.post(`/projects/${privateProject}/punch_in.json`, {}));
    // The owner still sees it and it is not running.
    expectProject(one(await as.get(`/projects/${privateProject}.json`)), false);
  });
});

// =============================================================================================
// Activities
// =============================================================================================

describe('activities', () => {
  test('create, list, show, update, delete under /projects/:project_uuid/', async () => {
    const { as, project } = await world();
    const created = one(
      await as.post(`/projects/${project}/activities.json`, { activity: { name: 'Design' } }),
    );
    expectActivity(created);
    expect(created).toMatchObject({ name: 'Design', project_uuid: project });
    const uuid = randomUUID();
    const second = one(
      await as.post(`/projects/${project}/activities.json`, { activity: { uuid, name: 'Build' } }),
    );
    expect(second.uuid).toBe(uuid);

    const items = list(await as.get(`/projects/${project}/activities.json`));
    expect(items.map((a) => a.uuid).sort()).toEqual([created.uuid, uuid].sort());
    for (const a of items) expectActivity(a);
    expect(
      list(await as.get(`/projects/${project}/activities.json?order=name%20desc`)).map(
        (a) => a.name,
      ),
    ).toEqual(['Design', 'Build']);
    expect(
      list(await as.get(`/projects/${project}/activities.json?order=name%20asc`)).map(
        (a) => a.name,
      ),
    ).toEqual(['Build', 'Design']);

    expect(one(await as.get(`/projects/${project}/activities/${created.uuid}.json`))).toEqual(
      created,
    );
    // The project embeds its activities.
    const p = one(await as.get(`/projects/${project}.json`));
    expect(p.activities.map((a: Json) => a.uuid).sort()).toEqual([created.uuid, uuid].sort());

    const updated = one(
      await as.put(`/projects/${project}/activities/${created.uuid}.json`, {
        activity: { name: 'Sketching' },
      }),
    );
    expectActivity(updated);
    expect(updated).toEqual({ ...created, name: 'Sketching' });
    expect(one(await as.get(`/projects/${project}/activities/${created.uuid}.json`)).name).toBe(
      'Sketching',
    );

    const deleted = one(await as.del(`/projects/${project}/activities/${created.uuid}.json`));
    expectActivity(deleted);
    expect(deleted.uuid).toBe(created.uuid);
    expect404(await as.get(`/projects/${project}/activities/${created.uuid}.json`));
    expect(list(await as.get(`/projects/${project}/activities.json`)).map((a) => a.uuid)).toEqual([
      uuid,
    ]);
  });

  test('an activity addressed under another project of the same account is 404 and is not changed', async () => {
    const { as, owner, company, project } = await world();
    const other = await newProject(owner, { companyId: company });
    const activity = await newActivity(owner, project, 'Original');
    expect404(await as.get(`/projects/${other}/activities/${activity}.json`));
    expect404(
      await as.put(`/projects/${other}/activities/${activity}.json`, {
        activity: { name: 'Changed' },
      }),
    );
    expect404(await as.del(`/projects/${other}/activities/${activity}.json`));
    expect(list(await as.get(`/projects/${other}/activities.json`))).toEqual([]);
    expect(one(await as.get(`/projects/${project}/activities/${activity}.json`)).name).toBe(
      'Original',
    );
  });

  test("another account's project or activity is 404 on every activity route", async () => {
    const { as, project } = await world();
    const s = await strangerWorld();
    expect404(await as.get(`/projects/${s.project}/activities.json`));
    expect404(
      await as.post(`/projects/${s.project}/activities.json`, { activity: { name: 'Intruder' } }),
    );
    expect404(await as.get(`/projects/${s.project}/activities/${s.activity}.json`));
    expect404(
      await as.put(`/projects/${s.project}/activities/${s.activity}.json`, {
        activity: { name: 'Hijacked' },
      }),
    );
    expect404(await as.del(`/projects/${s.project}/activities/${s.activity}.json`));
    // Their activity under my project is no better.
    expect404(await as.get(`/projects/${project}/activities/${s.activity}.json`));
    expect404(
      await as.put(`/projects/${project}/activities/${s.activity}.json`, {
        activity: { name: 'Hijacked' },
      }),
    );
    expect404(await as.del(`/projects/${project}/activities/${s.activity}.json`));
    const theirs = list(await api(s.owner).get(`/projects/${s.project}/activities.json`));
    expect(theirs.map((a) => a.name)).toEqual(['Design']);
  });
});

// =============================================================================================
// Shifts
// =============================================================================================

describe('shifts: create', () => {
  test('POST /shifts.json: input with an offset is normalised to RFC 3339 UTC with Z; defaults', async () => {
    const { as, owner, project } = await world();
    const res = await as.post('/shifts.json', {
      shift: {
        project_uuid: project,
        start: '2024-05-01T10:00:00+02:00',
        stop: '2024-05-01T12:30:00-01:00',
        notes: 'Kick-off',
        time_zone: 'Europe/Berlin',
        tag_list: ['meeting', 'client'],
      },
    });
    const s = one(res);
    expectShift(s);
    expect(s.start).toMatch(RFC3339_UTC);
    expect(s.stop).toMatch(RFC3339_UTC);
    expect(Date.parse(s.start)).toBe(Date.parse('2024-05-01T08:00:00Z'));
    expect(Date.parse(s.stop)).toBe(Date.parse('2024-05-01T13:30:00Z'));
    expect(s).toMatchObject({
      notes: 'Kick-off',
      time_zone: 'Europe/Berlin',
      time_zone_offset: 7200,
      billable: true,
      project_uuid: project,
      user_uuid: owner.ownerId,
      tag_list: ['meeting', 'client'],
      activity_uuid: null,
    });
    expect(one(await as.get(`/shifts/${s.uuid}.json`))).toEqual(s);
  });

  test('POST /projects/:project_uuid/shifts.json creates on the project of the path', async () => {
    const { as, project, owner, company } = await world();
    const activity = await newActivity(owner, project);
    const uuid = randomUUID();
    const s = one(
      await as.post(`/projects/${project}/shifts.json`, {
        shift: {
          uuid,
          start: '2024-05-02T09:00:00Z',
          stop: '2024-05-02T10:00:00Z',
          activity_uuid: activity,
          billable: false,
          tag_list: 'a,b',
        },
      }),
    );
    expectShift(s);
    expect(s).toMatchObject({
      uuid,
      project_uuid: project,
      activity_uuid: activity,
      billable: false,
      tag_list: ['a', 'b'],
    });
    // It lands on the project: totals count it.
    const other = await newProject(owner, { companyId: company });
    expect(list(await as.get(`/projects/${other}/shifts.json`))).toEqual([]);
    expect(one(await as.get(`/projects/${project}.json`)).grand_total).toBe(3600);
  });

  test('creating without stop stops the caller’s running shift at the new start', async () => {
    const { as, owner, company, project } = await world();
    const second = await newProject(owner, { companyId: company });
    const first = one(
      await as.post('/shifts.json', { shift: { project_uuid: project, start: ago(7200) } }),
    );
    expect(first.stop).toBeNull();
    const laterStart = new Date(Math.floor(Date.now() / 1000) * 1000 - 3600 * 1000).toISOString();
    const next = one(
      await as.post(`/projects/${second}/shifts.json`, { shift: { start: laterStart } }),
    );
    expectShift(next);
    expect(next.stop).toBeNull();
    const stopped = one(await as.get(`/shifts/${first.uuid}.json`));
    expect(stopped.stop).not.toBeNull();
    expect(Date.parse(stopped.stop)).toBe(Date.parse(laterStart));
    expect(list(await as.get('/shifts.json?where=stop%20%3D%20null')).map((s) => s.uuid)).toEqual([
      next.uuid,
    ]);
    expectProject(one(await as.get(`/projects/${project}.json`)), false);
    expectProject(one(await as.get(`/projects/${second}.json`)), true);
  });

  test('creating without stop at or before the running shift’s start is 422 naming start; nothing changes', async () => {
    const { as, project } = await world();
    const first = one(
      await as.post('/shifts.json', { shift: { project_uuid: project, start: ago(3600) } }),
    );
    expectError(
      await as.post('/shifts.json', { shift: { project_uuid: project, start: ago(7200) } }),
      422,
      'VALIDATION_FAILED',
      ['start'],
    );
    expect(one(await as.get(`/shifts/${first.uuid}.json`)).stop).toBeNull();
    expect(list(await as.get('/shifts.json')).map((s) => s.uuid)).toEqual([first.uuid]);
  });

  test('stop before start is 422 VALIDATION_FAILED naming stop (create and update)', async () => {
    const { as, project } = await world();
    const bad = await as.post('/shifts.json', {
      shift: { project_uuid: project, start: '2024-05-01T10:00:00Z', stop: '2024-05-01T09:00:00Z' },
    });
    const error = expectError(bad, 422, 'VALIDATION_FAILED', ['stop']);
    expect(error.title).toBe('Invalid Record');
    expect(list(await as.get('/shifts.json'))).toEqual([]);
    const ok = one(
      await as.post('/shifts.json', {
        shift: {
          project_uuid: project,
          start: '2024-05-01T10:00:00Z',
          stop: '2024-05-01T11:00:00Z',
        },
      }),
    );
    expectError(
      await as.put(`/shifts/${ok.uuid}.json`, { shift: { stop: '2024-05-01T09:59:00Z' } }),
      422,
      'VALIDATION_FAILED',
      ['stop'],
    );
    expect(one(await as.get(`/shifts/${ok.uuid}.json`))).toEqual(ok);
  });

  test('local_start_as_string: unparseable is 422 naming it; readable text is wall time in time_zone', async () => {
    const { as, project } = await world();
    const bad = await as.post('/shifts.json', {
      shift: {
        project_uuid: project,
        local_start_as_string: 'when pigs fly',
        stop: '2024-05-01T11:00:00Z',
        time_zone: 'Europe/Berlin',
      },
    });
    expectError(bad, 422, 'VALIDATION_FAILED', ['local_start_as_string']);
    expect(list(await as.get('/shifts.json'))).toEqual([]);

    const s = one(
      await as.post('/shifts.json', {
        shift: {
          project_uuid: project,
          start: '2020-01-01T00:00:00Z',
          local_start_as_string: '21 Nov 2024 14:00',
          local_stop_as_string: '21 Nov 2024 15:30',
          time_zone: 'Europe/Berlin',
        },
      }),
    );
    expectShift(s);
    expect(Date.parse(s.start)).toBe(Date.parse('2024-11-21T13:00:00Z'));
    expect(Date.parse(s.stop)).toBe(Date.parse('2024-11-21T14:30:00Z'));
    // Input only: never rendered.
    expect(s).not.toHaveProperty('local_start_as_string');
  });

  test("creating on another account's project (flat or nested) is 404 and stores nothing", async () => {
    const { as } = await world();
    const s = await strangerWorld();
    const shift = {
      start: '2024-05-01T10:00:00Z',
      stop: '2024-05-01T11:00:00Z',
      notes: 'intruder',
    };
    expect404(await as.post('/shifts.json', { shift: { ...shift, project_uuid: s.project } }));
    expect404(await as.post(`/projects/${s.project}/shifts.json`, { shift }));
    expect(list(await api(s.owner).get('/shifts.json')).map((x) => x.uuid)).toEqual([s.shift]);
  });
});

describe('shifts: list, show, update, delete', () => {
  async function shiftWorld() {
    const w = await world();
    const other = await newProject(w.owner, { companyId: w.company });
    const early = await newShift(w.owner, {
      projectId: w.project,
      start: '2024-01-01T09:00:00Z',
      stop: '2024-01-01T10:00:00Z',
      notes: 'early',
    });
    const late = await newShift(w.owner, {
      projectId: w.project,
      start: '2024-02-01T09:00:00Z',
      stop: '2024-02-01T11:00:00Z',
      notes: 'late',
    });
    const elsewhere = await newShift(w.owner, {
      projectId: other,
      start: '2024-03-01T09:00:00Z',
      stop: '2024-03-01T09:15:00Z',
      notes: 'elsewhere',
    });
    return { ...w, other, early, late, elsewhere };
  }

  test('GET /shifts.json and /projects/:project_uuid/shifts.json list with count', async () => {
    const w = await shiftWorld();
    const all = list(await w.as.get('/shifts.json'));
    expect(all.map((s) => s.uuid).sort()).toEqual([w.early, w.late, w.elsewhere].sort());
    for (const s of all) expectShift(s);
    const nested = list(await w.as.get(`/projects/${w.project}/shifts.json`));
    expect(nested.map((s) => s.uuid).sort()).toEqual([w.early, w.late].sort());
    expect(list(await w.as.get(`/projects/${w.other}/shifts.json`)).map((s) => s.uuid)).toEqual([
      w.elsewhere,
    ]);
  });

  test('where and order on shifts: start > "…", stop = null, order start desc', async () => {
    const w = await shiftWorld();
    const after = list(
      await w.as.get(
        `/shifts.json?where=${encodeURIComponent('start > "2024-01-15T00:00:00Z"')}&order=${encodeURIComponent('start desc')}`,
      ),
    );
    expect(after.map((s) => s.uuid)).toEqual([w.elsewhere, w.late]);
    const nestedAfter = list(
      await w.as.get(
        `/projects/${w.project}/shifts.json?where=${encodeURIComponent('start > "2024-01-15T00:00:00Z"')}`,
      ),
    );
    expect(nestedAfter.map((s) => s.uuid)).toEqual([w.late]);
    expect(
      list(await w.as.get(`/shifts.json?order=${encodeURIComponent('start asc')}`)).map(
        (s) => s.uuid,
      ),
    ).toEqual([w.early, w.late, w.elsewhere]);

    expect(list(await w.as.get(`/shifts.json?where=${encodeURIComponent('stop = null')}`))).toEqual(
      [],
    );
    const running = one(await w.as.post(`/projects/${w.project}/punch_in.json`, {})).current_shift;
    const open = list(await w.as.get(`/shifts.json?where=${encodeURIComponent('stop = null')}`));
    expect(open.map((s) => s.uuid)).toEqual([running.uuid]);
    expect(open[0]!.stop).toBeNull();
    expect(
      list(await w.as.get(`/shifts.json?where=${encodeURIComponent('stop != null')}`)),
    ).toHaveLength(3);
  });

  test('GET /shifts/:uuid.json and /projects/:project_uuid/shifts/:uuid.json show the shift', async () => {
    const w = await shiftWorld();
    const flat = one(await w.as.get(`/shifts/${w.early}.json`));
    expectShift(flat);
    expect(flat).toMatchObject({
      uuid: w.early,
      notes: 'early',
      project_uuid: w.project,
      stop: expect.stringMatching(RFC3339_UTC),
    });
    expect(Date.parse(flat.start)).toBe(Date.parse('2024-01-01T09:00:00Z'));
    expect(one(await w.as.get(`/projects/${w.project}/shifts/${w.early}.json`))).toEqual(flat);
  });

  test('a shift addressed under another project is 404 on every nested route and is not changed', async () => {
    const w = await shiftWorld();
    const before = one(await w.as.get(`/shifts/${w.early}.json`));
    expect404(await w.as.get(`/projects/${w.other}/shifts/${w.early}.json`));
    expect404(
      await w.as.put(`/projects/${w.other}/shifts/${w.early}.json`, {
        shift: { notes: 'changed' },
      }),
    );
    expect404(await w.as.del(`/projects/${w.other}/shifts/${w.early}.json`));
    expect(one(await w.as.get(`/shifts/${w.early}.json`))).toEqual(before);
  });

  test('PUT /shifts/:uuid.json merges: omitted fields are kept', async () => {
    const w = await shiftWorld();
    const before = one(await w.as.get(`/shifts/${w.early}.json`));
    const tagged = one(
      await w.as.put(`/shifts/${w.early}.json`, {
        shift: { tag_list: ['x', 'y'], billable: false },
      }),
    );
    expectShift(tagged);
    expect(tagged).toEqual({ ...before, tag_list: ['x', 'y'], billable: false });
    const noted = one(await w.as.put(`/shifts/${w.early}.json`, { shift: { notes: 'revised' } }));
    expect(noted).toEqual({ ...tagged, notes: 'revised' });
    expect(one(await w.as.get(`/shifts/${w.early}.json`))).toEqual(noted);
  });

  test('PUT /projects/:project_uuid/shifts/:uuid.json updates; offsets are normalised', async () => {
    const w = await shiftWorld();
    const before = one(await w.as.get(`/shifts/${w.late}.json`));
    const updated = one(
      await w.as.put(`/projects/${w.project}/shifts/${w.late}.json`, {
        shift: { stop: '2024-02-01T13:00:00+01:00' },
      }),
    );
    expectShift(updated);
    expect(updated.stop).toMatch(RFC3339_UTC);
    expect(Date.parse(updated.stop)).toBe(Date.parse('2024-02-01T12:00:00Z'));
    expect({ ...updated, stop: null }).toEqual({ ...before, stop: null });
  });

  test('DELETE flat and nested return the shift; it is gone', async () => {
    const w = await shiftWorld();
    const flat = one(await w.as.del(`/shifts/${w.early}.json`));
    expectShift(flat);
    expect(flat.uuid).toBe(w.early);
    expect404(await w.as.get(`/shifts/${w.early}.json`));
    const nested = one(await w.as.del(`/projects/${w.project}/shifts/${w.late}.json`));
    expectShift(nested);
    expect(nested.uuid).toBe(w.late);
    expect404(await w.as.get(`/projects/${w.project}/shifts/${w.late}.json`));
    expect(list(await w.as.get('/shifts.json')).map((s) => s.uuid)).toEqual([w.elsewhere]);
  });

  test("another account's shift is 404 on every shift route, like a missing one", async () => {
    const { as, project } = await world();
    const s = await strangerWorld();
    const calls: ((uuid: string) => Promise<request.Response>)[] = [
      (u) => as.get(`/shifts/${u}.json`),
      (u) => as.put(`/shifts/${u}.json`, { shift: { notes: 'hijacked' } }),
      (u) => as.del(`/shifts/${u}.json`),
      (u) => as.get(`/projects/${s.project}/shifts/${u}.json`),
      (u) => as.put(`/projects/${s.project}/shifts/${u}.json`, { shift: { notes: 'hijacked' } }),
      (u) => as.del(`/projects/${s.project}/shifts/${u}.json`),
      (u) => as.get(`/projects/${project}/shifts/${u}.json`),
    ];
    for (const call of calls) {
      const theirs = await call(s.shift);
      expect404(theirs);
      const missing = await call(randomUUID());
      expect(withoutUuids(theirs.body)).toEqual(withoutUuids(missing.body));
    }
    expect404(await as.get(`/projects/${s.project}/shifts.json`));
    expect(list(await as.get('/shifts.json'))).toEqual([]);
    expect(one(await api(s.owner).get(`/shifts/${s.shift}.json`)).notes).toBeNull();
  });
});

// =============================================================================================
// Query language on projects
// =============================================================================================

describe('where and order on projects', () => {
  test('active = "true", name ~= "a%" (case-insensitive LIKE, no implicit %), order name asc/desc', async () => {
    const { as, owner, company, project } = await world();
    await t.gqlOk(
      owner,
      'mutation($id: ID!) { updateProject(input: { project: { id: $id }, patch: { name: "Zulu" } }) { project { id } } }',
      { id: project },
    );
    await newProject(owner, { companyId: company, name: 'Alpha' });
    await newProject(owner, { companyId: company, name: 'apple', active: false });
    await newProject(owner, { companyId: company, name: 'Banana' });
    await newProject(owner, { companyId: company, name: 'Xa' });

    const q = (where: string, order?: string) =>
      `/projects.json?where=${encodeURIComponent(where)}${order ? `&order=${encodeURIComponent(order)}` : ''}`;
    expect(list(await as.get(q('active = "true"', 'name asc'))).map((p) => p.name)).toEqual([
      'Alpha',
      'Banana',
      'Xa',
      'Zulu',
    ]);
    expect(list(await as.get(q('active = "false"'))).map((p) => p.name)).toEqual(['apple']);
    expect(list(await as.get(q('name ~= "a%"', 'name asc'))).map((p) => p.name)).toEqual([
      'Alpha',
      'apple',
    ]);
    expect(list(await as.get(q('name ~= "a%" && active = "true"'))).map((p) => p.name)).toEqual([
      'Alpha',
    ]);
    expect(list(await as.get(q('active = "true"', 'name desc'))).map((p) => p.name)).toEqual([
      'Zulu',
      'Xa',
      'Banana',
      'Alpha',
    ]);
    // The count is the number of matching projects, not of all.
    const res = await as.get(q('active = "true"'));
    expect(res.body.count).toBe(4);
    // And the company-nested list takes the same language.
    expect(
      list(
        await as.get(
          `/companies/${company}/projects.json?where=${encodeURIComponent('name ~= "%an%"')}`,
        ),
      ).map((p) => p.name),
    ).toEqual(['Banana']);
  });

  test('+ in the query string is a space and the where may be sent with its inner = unescaped', async () => {
    const { as, owner, company } = await world();
    await newProject(owner, { companyId: company, name: 'Alpha' });
    await newProject(owner, { companyId: company, name: 'Beta', active: false });
    expect(
      list(await as.get('/projects.json?where=name+~%3D+%22al%25%22&order=name+desc')).map(
        (p) => p.name,
      ),
    ).toEqual(['Alpha']);
    expect(
      list(await as.get('/projects.json?where=active%3D%22false%22')).map((p) => p.name),
    ).toEqual(['Beta']);
    expect(
      list(await as.get(`/companies/${company}/projects.json?where=active=%22false%22`)).map(
        (p) => p.name,
      ),
    ).toEqual(['Beta']);
  });

  test('an unknown column or a syntax error is a 4xx client error, never 500', async () => {
    const { as } = await world();
    for (const where of ['password = "x"', 'name = ', 'name ~= "a%" &&']) {
      const res = await as.get(`/projects.json?where=${encodeURIComponent(where)}`);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(keysOf(res.body)).toEqual(['error']);
    }
  });
});

// =============================================================================================
// Wire details shared by the three resources
// =============================================================================================

describe('bodies, suffixes and methods', () => {
  test('form-encoded bodies: Rails-nested shift[...] and flat project fields', async () => {
    const { as, company, project } = await world();
    const shift = one(
      await as
        .post('/shifts.json')
        .type('form')
        .send(
          `shift[project_uuid]=${project}&shift[start]=2024-06-01T09:00:00%2B02:00&shift[stop]=2024-06-01T10:00:00Z&shift[notes]=via+form&shift[tag_list]=a,b&shift[billable]=false`,
        ),
    );
    expectShift(shift);
    expect(shift).toMatchObject({
      project_uuid: project,
      notes: 'via form',
      tag_list: ['a', 'b'],
      billable: false,
    });
    expect(Date.parse(shift.start)).toBe(Date.parse('2024-06-01T07:00:00Z'));
    const p = one(
      await as
        .post('/projects.json')
        .type('form')
        .send(`name=Form+made&company_uuid=${company}&active=false&time_limit_string=90+minutes`),
    );
    expectProject(p, false);
    expect(p).toMatchObject({
      name: 'Form made',
      company_uuid: company,
      active: 'false',
      time_limit: 5400,
    });
  });

  test('paths without the .json suffix are the same routes', async () => {
    const { as, company, project } = await world();
    expect(one(await as.get(`/projects/${project}`)).uuid).toBe(project);
    expect(list(await as.get(`/companies/${company}/projects`)).map((p) => p.uuid)).toEqual([
      project,
    ]);
    expect(list(await as.get(`/projects/${project}/activities`))).toEqual([]);
    expect(list(await as.get(`/projects/${project}/shifts`))).toEqual([]);
    expectProject(one(await as.post(`/projects/${project}/punch_in`, {})), true);
    expectProject(one(await as.post(`/projects/${project}/punch_out`, {})), false);
  });

  test('a known path with an unsupported method is 405 with an Allow header', async () => {
    const { as, project } = await world();
    const cases: [request.Test, string[]][] = [
      [as.put('/projects.json', { project: {} }), ['GET', 'POST']],
      [as.post(`/projects/${project}.json`, {}), ['DELETE', 'GET', 'PUT']],
      [as.get(`/projects/${project}/punch_in.json`), ['POST']],
      [as.put(`/projects/${project}/shifts.json`, { shift: {} }), ['GET', 'POST']],
      [as.post(`/shifts/${randomUUID()}.json`, {}), ['DELETE', 'GET', 'PUT']],
    ];
    for (const [pending, allowed] of cases) {
      const res = await pending;
      expectError(res, 405, 'METHOD_NOT_ALLOWED');
      expect(String(res.headers.allow).split(/,\s*/).sort()).toEqual(allowed);
    }
  });
});

// =============================================================================================
// Wire times and error labels
// =============================================================================================

/** A time on the wire (docs/json-api.md): `2013-08-16T05:19:26Z`, whole seconds, no fraction. */
const WIRE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

describe('JSON times are written as docs/json-api.md shows them', () => {
  test('shift start and stop are whole seconds with Z in create, show, lists and the running project', async () => {
    const { as, project } = await world();
    const created = one(
      await as.post('/shifts.json', {
        shift: {
          project_uuid: project,
          start: '2013-08-16T05:19:26Z',
          stop: '2013-08-16T09:30:00.789+02:00',
        },
      }),
    );
    expect([created.start, created.stop]).toEqual(['2013-08-16T05:19:26Z', '2013-08-16T07:30:00Z']);
    expect(one(await as.get(`/shifts/${created.uuid}.json`))).toMatchObject({
      start: '2013-08-16T05:19:26Z',
      stop: '2013-08-16T07:30:00Z',
    });
    expect(
      list(await as.get(`/projects/${project}/shifts.json`)).map((s) => [s.start, s.stop]),
    ).toEqual([['2013-08-16T05:19:26Z', '2013-08-16T07:30:00Z']]);
    expect(
      one(
        await as.put(`/shifts/${created.uuid}.json`, {
          shift: { start: '2013-08-16T05:00:00.5Z' },
        }),
      ).start,
    ).toBe('2013-08-16T05:00:00Z');

    // A punch-in starts at the request's instant, milliseconds and all; the wire shows its second.
    const running = one(await as.post(`/projects/${project}/punch_in.json`, {}));
    expect(running.current_shift.start).toMatch(WIRE_TIME);
    expect(running.current_shift.start).toBe(
      `${new Date(running.started_at * 1000).toISOString().slice(0, 19)}Z`,
    );
    for (const shift of list(await as.get('/shifts.json'))) {
      expect(shift.start).toMatch(WIRE_TIME);
      if (shift.stop !== null) expect(shift.stop).toMatch(WIRE_TIME);
    }
  });
});

describe('422 messages name the entity whose input is invalid', () => {
  test('a shift without a project, a project without a company, an activity without a project, a punch-in naming its activity twice', async () => {
    const { owner, as, project } = await world();
    const shift = expectError(
      await as.post('/shifts.json', { shift: { start: '2024-01-01T09:00:00Z' } }),
      422,
      'VALIDATION_FAILED',
      ['project_uuid'],
    );
    expect(shift.message).toBe('Invalid shift: project_uuid is required');

    const projectError = expectError(
      await as.post('/projects.json', { project: { name: 'Orphan' } }),
      422,
      'VALIDATION_FAILED',
      ['company_uuid'],
    );
    expect(projectError.message).toBe('Invalid project: company_uuid is required');

    const activity = await t.gql(
      owner,
      'mutation { createActivity(input: { name: "Loose" }) { activity { id } } }',
    );
    expect(activity.errors?.[0]).toMatchObject({
      message: 'Invalid activity: projectId is required',
      extensions: { code: 'VALIDATION_FAILED', entity: 'Activity' },
    });

    const activityId = await newActivity(owner, project);
    const punch = await t.gql(
      owner,
      'mutation($p: ID!, $a: ID) { punchIn(input: { project: { id: $p }, activityId: $a, activityLegacyId: 1 }) { project { id } } }',
      { p: project, a: activityId },
    );
    expect(punch.errors?.[0]).toMatchObject({
      extensions: { code: 'VALIDATION_FAILED', entity: 'Project' },
    });
    expect(punch.errors?.[0]?.message).toMatch(
      /^Invalid project: activityId give exactly one of activityId and activityLegacyId$/,
    );
  });
});
