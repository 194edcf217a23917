/**
 * Contract tests of the legacy XML facade (root-level `*.xml` paths, integer ids), through HTTP only.
 *
 * The contract is docs/xml-api.md ("Requests", "Routes", "Answers", "Request bodies", "Dates",
 * "Errors", "Safety limits"). Answers are parsed with saxes (a real, strict XML parser);
 * representative answers are compared as text against golden files in test/fixtures/xml/.
 *
 * Golden files: volatile parts (integer ids, the start of a running shift) are replaced by named
 * placeholders such as `{OWNER_ID}` or `{RUNNING_SHIFT_START}` before comparing. To rewrite the
 * golden files after an intended change of the wire format, run
 *
 *     UPDATE_GOLDEN=1 npx jest test/rest-facade/xml-contract.test.ts
 *
 * and review the diff of test/fixtures/xml/ like any other change of the contract.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import request from 'supertest';
import { parseXml, type XmlElement } from '../support/legacy-answers';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

type Account = Credentials & { ownerId: string; ownerLegacyId: number; accountId: number };
type Method = 'get' | 'post' | 'put' | 'delete' | 'patch';

// ---------------------------------------------------------------------------------------------
// XML reading (saxes; strict: any well-formedness error or a DOCTYPE throws)
// ---------------------------------------------------------------------------------------------

const names = (element: XmlElement): string[] => element.children.map((c) => c.name);

function child(element: XmlElement, name: string): XmlElement {
  const found = element.children.filter((c) => c.name === name);
  if (found.length !== 1)
    throw new Error(`<${element.name}> has ${found.length} <${name}> elements, expected 1`);
  return found[0]!;
}

/** The value of a simple child: null when `nil="true"`, else its text. */
function value(element: XmlElement, name: string): string | null {
  const c = child(element, name);
  if (c.attributes.nil === 'true') {
    expect(c.text).toBe('');
    return null;
  }
  return c.text;
}

function intValue(element: XmlElement, name: string): number {
  const c = child(element, name);
  expect(c.attributes).toEqual({ type: 'integer' });
  expect(c.text).toMatch(/^-?\d+$/);
  return Number(c.text);
}

// ---------------------------------------------------------------------------------------------
// The elements of docs/xml-api.md ("Answers"), in their order
// ---------------------------------------------------------------------------------------------

/** user: id, username, first_name, last_name, email_address, active, time_zone (password: write-only). */
const USER_ELEMENTS = [
  'id',
  'username',
  'first_name',
  'last_name',
  'email_address',
  'active',
  'time_zone',
];
/** company, as listed; the facade adds longitude and latitude (as the JSON company has) at the end. */
const COMPANY_ELEMENTS = [
  'id',
  'name',
  'visibility',
  'user_ids',
  'website',
  'main_phone',
  'fax_phone',
  'main_address',
  'main_city',
  'main_state',
  'main_postcode',
  'main_country',
  'contact_salutation',
  'contact_first_name',
  'contact_last_name',
  'contact_email_address',
  'contact_home_phone',
  'contact_mobile_phone',
  'notes',
];
const COMPANY_EXTRA_ELEMENTS = ['longitude', 'latitude'];
const PROJECT_ELEMENTS = [
  'id',
  'name',
  'visibility',
  'user_ids',
  'active',
  'time_limit_string',
  'default_tags',
  'notes',
  'company_id',
  'taglist',
  // The running state of the JSON project (docs/xml-api.md, "<project>").
  'running',
  'started_at',
];
const SHIFT_ELEMENTS = [
  'id',
  'user_id',
  'staff_member',
  'start',
  'stop',
  'time_zone',
  'notes',
  'project_id',
  'taglist',
];
const TIME_ZONE_ELEMENTS = ['zone', 'longitude', 'latitude', 'offset', 'dst'];

/**
 * `Tue, 17 Mar 2009 10:00:00`: weekday, day, month, year, time; wall time without a marker, and
 * ` GMT` only where the wall time would have no four-digit year.
 */
const LEGACY_TIME =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2}( GMT)?$/;

function expectUserIds(element: XmlElement): number[] {
  const list = child(element, 'user_ids');
  expect(list.attributes).toEqual({ type: 'array' });
  for (const item of list.children) {
    expect(item.name).toBe('user_id');
    expect(item.attributes).toEqual({ type: 'integer' });
  }
  return list.children.map((item) => Number(item.text));
}

/** `active` is the text "true"/"false" without a type attribute (clients compare it as a string). */
function expectActive(element: XmlElement): string {
  const active = child(element, 'active');
  expect(active.attributes).toEqual({});
  expect(['true', 'false']).toContain(active.text);
  return active.text;
}

function expectUser(element: XmlElement): void {
  expect(element.name).toBe('user');
  expect(names(element)).toEqual(USER_ELEMENTS);
  intValue(element, 'id');
  expectActive(element);
}

function expectCompany(element: XmlElement): void {
  expect(element.name).toBe('company');
  expect(names(element)).toEqual([...COMPANY_ELEMENTS, ...COMPANY_EXTRA_ELEMENTS]);
  intValue(element, 'id');
  expectUserIds(element);
  for (const coordinate of COMPANY_EXTRA_ELEMENTS)
    expect(child(element, coordinate).attributes.type).toBe('float');
}

function expectProject(element: XmlElement): void {
  expect(element.name).toBe('project');
  expect(names(element)).toEqual(PROJECT_ELEMENTS);
  intValue(element, 'id');
  intValue(element, 'company_id');
  expectUserIds(element);
  expectActive(element);
  runningState(element);
}

/**
 * `<running type="boolean">` and `<started_at type="integer">` (Unix seconds), typed as Rails
 * wrote them; a project that is not running has `<started_at type="integer" nil="true"/>`.
 */
function runningState(project: XmlElement): { running: boolean; startedAt: number | null } {
  const running = child(project, 'running');
  expect(running.attributes).toEqual({ type: 'boolean' });
  expect(['true', 'false']).toContain(running.text);
  if (running.text === 'true') return { running: true, startedAt: intValue(project, 'started_at') };
  expect(child(project, 'started_at')).toEqual({
    name: 'started_at',
    attributes: { type: 'integer', nil: 'true' },
    children: [],
    text: '',
  });
  return { running: false, startedAt: null };
}

function expectShift(element: XmlElement): void {
  expect(element.name).toBe('shift');
  expect(names(element)).toEqual(SHIFT_ELEMENTS);
  intValue(element, 'id');
  intValue(element, 'user_id');
  intValue(element, 'project_id');
  expect(value(element, 'start')).toMatch(LEGACY_TIME);
  const stop = value(element, 'stop');
  if (stop !== null) expect(stop).toMatch(LEGACY_TIME);
}

function expectList(
  res: request.Response,
  collection: string,
  check: (element: XmlElement) => void,
): XmlElement[] {
  expect(res.status).toBe(200);
  const doc = expectXml(res);
  expect(doc.name).toBe(collection);
  expect(doc.attributes).toEqual({ type: 'array' });
  for (const item of doc.children) check(item);
  return doc.children;
}

// ---------------------------------------------------------------------------------------------
// HTTP
// ---------------------------------------------------------------------------------------------

function call(
  who: Credentials | undefined,
  method: Method,
  path: string,
  body?: string | Buffer,
): request.Test {
  let req = request(t.app.express)[method](path);
  if (who) req = req.auth(who.login, who.password);
  if (body !== undefined) req = req.type('application/xml').send(body);
  return req;
}

function expectXml(res: request.Response): XmlElement {
  expect(res.headers['content-type']).toMatch(/^application\/xml\b/);
  return parseXml(res.text);
}

function expectObject(
  res: request.Response,
  status: number,
  check: (element: XmlElement) => void,
): XmlElement {
  expect(res.status).toBe(status);
  const doc = expectXml(res);
  check(doc);
  return doc;
}

/** `<errors><error type="...">message</error>...</errors>` with the given status and type. */
function expectError(res: request.Response, status: number, type: string | RegExp): string[] {
  expect(res.status).toBe(status);
  const doc = expectXml(res);
  expect(doc.name).toBe('errors');
  expect(doc.attributes).toEqual({});
  expect(doc.children.length).toBeGreaterThan(0);
  for (const error of doc.children) {
    expect(error.name).toBe('error');
    expect(Object.keys(error.attributes)).toEqual(['type']);
    if (typeof type === 'string') expect(error.attributes.type).toBe(type);
    else expect(error.attributes.type).toMatch(type);
    expect(error.children).toEqual([]);
    expect(error.text.trim()).not.toBe('');
  }
  return doc.children.map((error) => error.text);
}

/** A 201 create: Location names the new object's path, and the body is that object. */
function expectCreated(
  res: request.Response,
  resourcePath: string,
  check: (element: XmlElement) => void,
): { id: number; doc: XmlElement } {
  const doc = expectObject(res, 201, check);
  const id = intValue(doc, 'id');
  expect(res.headers.location).toBe(`/${resourcePath}/${id}.xml`);
  return { id, doc };
}

const UNKNOWN_ID = 999_999;

// ---------------------------------------------------------------------------------------------
// GraphQL (the stored truth behind the facade)
// ---------------------------------------------------------------------------------------------

async function storedShift(
  who: Credentials,
  legacyId: number,
): Promise<{
  start: string;
  stop: string | null;
  timeZone: string;
  notes: string | null;
  tagList: string[];
}> {
  const data = await t.gqlOk(
    who,
    'query($id: Int) { shift(legacyId: $id) { start stop timeZone notes tagList } }',
    { id: legacyId },
  );
  return data.shift;
}

/** Compares instants, whatever the precision of the GraphQL answer (`...:00Z` or `...:00.000Z`). */
const instant = (iso: string | null): number | null =>
  iso === null ? null : new Date(iso).getTime();

/** An instant as a legacy client reads it: wall time in the shift's zone (computed independently). */
function legacyWallTime(iso: string, zone: string): string {
  return DateTime.fromISO(iso, { zone: 'utc' })
    .setZone(zone)
    .setLocale('en-US')
    .toFormat('ccc, dd LLL yyyy HH:mm:ss');
}

// ---------------------------------------------------------------------------------------------
// Golden files
// ---------------------------------------------------------------------------------------------

const GOLDEN_DIR = join(__dirname, '..', 'fixtures', 'xml');
const UPDATE_GOLDEN = process.env.UPDATE_GOLDEN === '1';

type IdKind = 'user' | 'company' | 'project' | 'shift';
type GoldenIds = Record<IdKind, Map<number, string>>;

function placeholder(ids: GoldenIds, kind: IdKind, id: string): string {
  const name = ids[kind].get(Number(id));
  if (!name)
    throw new Error(
      `no placeholder for ${kind} id ${id}: register it before comparing with a golden file`,
    );
  return `{${name}}`;
}

/**
 * Replaces the volatile parts of an answer with named placeholders: every integer id by the role of
 * its object (`{OWNER_ID}`, `{PROJECT_ID}`, ...), and the given volatile texts (`{RUNNING_SHIFT_START}`).
 * An id without a registered role fails, so no raw id can slip into a golden file.
 */
function normalise(xml: string, ids: GoldenIds, volatile: Record<string, string> = {}): string {
  let out = xml.replace(
    /<(user|company|project|shift)>(\s*)<id type="integer">(\d+)<\/id>/g,
    (_match, kind: IdKind, space: string, id: string) =>
      `<${kind}>${space}<id type="integer">${placeholder(ids, kind, id)}</id>`,
  );
  out = out.replace(
    /<(user|company|project)_id type="integer">(\d+)<\/(?:user|company|project)_id>/g,
    (_match, kind: IdKind, id: string) =>
      `<${kind}_id type="integer">${placeholder(ids, kind, id)}</${kind}_id>`,
  );
  for (const [name, text] of Object.entries(volatile)) {
    expect(out).toContain(`>${text}<`);
    out = out.split(`>${text}<`).join(`>{${name}}<`);
  }
  return out;
}

/** Compares with test/fixtures/xml/<file>; with UPDATE_GOLDEN=1 writes it instead. */
function expectGolden(file: string, actual: string): void {
  const path = join(GOLDEN_DIR, file);
  if (UPDATE_GOLDEN) {
    mkdirSync(GOLDEN_DIR, { recursive: true });
    writeFileSync(path, actual.endsWith('\n') ? actual : `${actual}\n`);
    return;
  }
  if (!existsSync(path))
    throw new Error(`golden file ${path} is missing; create it with UPDATE_GOLDEN=1 and review it`);
  expect(actual.endsWith('\n') ? actual : `${actual}\n`).toBe(readFileSync(path, 'utf8'));
}

// =============================================================================================
// 1. Golden answers: one object of each resource, lists, and the error bodies
// =============================================================================================

describe('golden answers', () => {
  const ids: GoldenIds = {
    user: new Map(),
    company: new Map(),
    project: new Map(),
    shift: new Map(),
  };
  let owner: Account;
  let staffId: number;
  let companyId: number;
  let projectId: number;
  let inactiveProjectId: number;
  let shiftId: number;

  beforeAll(async () => {
    owner = await t.newAccount({
      login: 'golden_owner',
      password: 'golden-password',
      firstName: 'Gwen',
      lastName: 'Golden',
      timeZone: 'Europe/Berlin',
    });
    ids.user.set(owner.ownerLegacyId, 'OWNER_ID');

    staffId = expectCreated(
      await call(
        owner,
        'post',
        '/staff.xml',
        '<user><username>golden_staff</username><first_name>Sam</first_name><last_name>Staff</last_name>' +
          '<email_address>golden_staff@example.com</email_address><time_zone>America/New_York</time_zone>' +
          '<password>golden-staff-password</password></user>',
      ),
      'staff',
      expectUser,
    ).id;
    ids.user.set(staffId, 'STAFF_ID');

    companyId = expectCreated(
      await call(
        owner,
        'post',
        '/companies.xml',
        `<company><name>Golden Widgets Ltd</name><visibility>custom</visibility>` +
          `<user_ids type="array"><user_id type="integer">${staffId}</user_id></user_ids>` +
          '<website>https://widgets.example</website><main_phone>+49 30 1234567</main_phone>' +
          '<main_city>Berlin</main_city><contact_first_name>Carla</contact_first_name>' +
          '<contact_last_name>Contact</contact_last_name><notes>Key account</notes></company>',
      ),
      'company',
      expectCompany,
    ).id;
    ids.company.set(companyId, 'COMPANY_ID');

    projectId = expectCreated(
      await call(
        owner,
        'post',
        `/company/${companyId}/projects.xml`,
        '<project><name>Golden Website Relaunch</name><time_limit_string>12h</time_limit_string>' +
          '<default_tags>design,web</default_tags><notes>Phase 1</notes><taglist>client,priority</taglist></project>',
      ),
      'project',
      expectProject,
    ).id;
    ids.project.set(projectId, 'PROJECT_ID');

    inactiveProjectId = expectCreated(
      await call(
        owner,
        'post',
        `/company/${companyId}/projects.xml`,
        '<project><name>Golden Archive</name><active>false</active></project>',
      ),
      'project',
      expectProject,
    ).id;
    ids.project.set(inactiveProjectId, 'INACTIVE_PROJECT_ID');

    shiftId = expectCreated(
      await call(
        owner,
        'post',
        `/project/${projectId}/shifts.xml`,
        '<shift><start>Tue, 17 Mar 2009 10:00:00</start><stop>Tue, 17 Mar 2009 12:30:00</stop>' +
          '<time_zone>Europe/Berlin</time_zone><notes>Kick-off meeting</notes><taglist>meeting,onsite</taglist></shift>',
      ),
      'shift',
      expectShift,
    ).id;
    ids.shift.set(shiftId, 'SHIFT_ID');
  });

  test('user (GET /staff/:id.xml)', async () => {
    const res = await call(owner, 'get', `/staff/${staffId}.xml`);
    expectObject(res, 200, expectUser);
    expectGolden('user.xml', normalise(res.text, ids));
  });

  test('user list (GET /staff.xml)', async () => {
    const res = await call(owner, 'get', '/staff.xml');
    expectList(res, 'users', expectUser);
    expectGolden('users.xml', normalise(res.text, ids));
  });

  test('company (GET /company/:id.xml)', async () => {
    const res = await call(owner, 'get', `/company/${companyId}.xml`);
    expectObject(res, 200, expectCompany);
    expectGolden('company.xml', normalise(res.text, ids));
  });

  test('project (GET /project/:id.xml)', async () => {
    const res = await call(owner, 'get', `/project/${projectId}.xml`);
    expectObject(res, 200, expectProject);
    expectGolden('project.xml', normalise(res.text, ids));
  });

  test('project list (GET /projects.xml)', async () => {
    const res = await call(owner, 'get', '/projects.xml');
    expectList(res, 'projects', expectProject);
    expectGolden('projects.xml', normalise(res.text, ids));
  });

  test('shift (GET /shift/:id.xml): dates as wall time in the shift zone', async () => {
    const res = await call(owner, 'get', `/shift/${shiftId}.xml`);
    expectObject(res, 200, expectShift);
    expectGolden('shift.xml', normalise(res.text, ids));
  });

  test('punch in, the running shift in a list, and the punch error bodies', async () => {
    expectObject(
      await call(owner, 'post', `/project/${projectId}/punch_in.xml`),
      200,
      expectProject,
    );

    const punchedIn = await call(owner, 'post', `/project/${projectId}/punch_in.xml`);
    expectError(punchedIn, 422, 'Project::PunchedIn');
    expectGolden('error-punched-in.xml', punchedIn.text);

    const running = (
      await t.gqlOk(
        owner,
        'query($p: Int) { shifts(projectLegacyId: $p) { nodes { legacyId start stop timeZone } } }',
        { p: projectId },
      )
    ).shifts.nodes.filter((s: { stop: string | null }) => s.stop === null);
    expect(running).toHaveLength(1);
    expect(Math.abs(Date.now() - instant(running[0].start)!)).toBeLessThan(60_000);
    ids.shift.set(running[0].legacyId, 'RUNNING_SHIFT_ID');

    const list = await call(owner, 'get', `/project/${projectId}/shifts.xml`);
    expectList(list, 'shifts', expectShift);
    expectGolden(
      'shifts.xml',
      normalise(list.text, ids, {
        RUNNING_SHIFT_START: legacyWallTime(running[0].start, running[0].timeZone),
      }),
    );

    expectObject(
      await call(owner, 'post', `/project/${projectId}/punch_out.xml`),
      200,
      expectProject,
    );
    const punchedOut = await call(owner, 'post', `/project/${projectId}/punch_out.xml`);
    expectError(punchedOut, 422, 'Project::PunchedOut');
    expectGolden('error-punched-out.xml', punchedOut.text);

    const inactive = await call(owner, 'post', `/project/${inactiveProjectId}/punch_in.xml`);
    expectError(inactive, 422, 'Project::ProjectInactive');
    expectGolden('error-project-inactive.xml', inactive.text);
  });

  test('401: bad credentials', async () => {
    const res = await call(
      { login: owner.login, password: 'not-the-password' },
      'get',
      '/projects.xml',
    );
    expectError(res, 401, /^User::/);
    expect(res.headers['www-authenticate']).toMatch(/^Basic /);
    expectGolden('error-401.xml', res.text);
  });

  test('404: an id that does not exist', async () => {
    const res = await call(owner, 'get', `/project/${UNKNOWN_ID}.xml`);
    expectError(res, 404, 'Project::Error');
    expectGolden('error-404.xml', res.text);
  });

  test('405: a method the path does not support', async () => {
    const res = await call(owner, 'post', `/staff/${staffId}.xml`);
    expectError(res, 405, /^User::/);
    expect(res.headers.allow).toBe('DELETE, GET, PUT');
    expectGolden('error-405.xml', res.text);
  });

  test('422: a shift time that is not a legacy date', async () => {
    const res = await call(
      owner,
      'post',
      `/project/${projectId}/shifts.xml`,
      '<shift><start>next tuesday-ish</start></shift>',
    );
    expectError(res, 422, 'Shift::Error');
    expectGolden('error-422.xml', res.text);
  });
});

// =============================================================================================
// 2. Every route
// =============================================================================================

describe('staff routes', () => {
  let owner: Account;
  let staff: Credentials & { legacyId: number };

  beforeAll(async () => {
    owner = await t.newAccount({
      firstName: 'Olive',
      lastName: 'Owner',
      timeZone: 'Europe/Berlin',
    });
    staff = await t.newStaff(owner, {
      firstName: 'Sid',
      lastName: 'Staffer',
      emailAddress: 'sid@example.com',
      timeZone: 'Asia/Tokyo',
    });
  });

  test('GET /staff.xml lists the staff, the caller included', async () => {
    const users = expectList(await call(owner, 'get', '/staff.xml'), 'users', expectUser);
    const byId = new Map(users.map((u) => [intValue(u, 'id'), u]));
    expect([...byId.keys()].sort()).toEqual([owner.ownerLegacyId, staff.legacyId].sort());
    const sid = byId.get(staff.legacyId)!;
    expect(value(sid, 'username')).toBe(staff.login);
    expect(value(sid, 'first_name')).toBe('Sid');
    expect(value(sid, 'email_address')).toBe('sid@example.com');
    expect(value(sid, 'time_zone')).toBe('Asia/Tokyo');
    expect(value(sid, 'active')).toBe('true');
    expect(value(byId.get(owner.ownerLegacyId)!, 'username')).toBe(owner.login);
  });

  test('GET /staff/:id.xml shows one staff member', async () => {
    const user = expectObject(
      await call(owner, 'get', `/staff/${staff.legacyId}.xml`),
      200,
      expectUser,
    );
    expect(intValue(user, 'id')).toBe(staff.legacyId);
    expect(value(user, 'username')).toBe(staff.login);
    expect(value(user, 'last_name')).toBe('Staffer');
  });

  test('POST /staff.xml creates: 201, Location, the object; the password is write-only and signs in', async () => {
    const res = await call(
      owner,
      'post',
      '/staff.xml',
      '<user><username>xml_created_staff</username><first_name>Xena</first_name><last_name>Xml</last_name>' +
        '<email_address>xena@example.com</email_address><time_zone>Europe/Paris</time_zone><password>xena-secret-pw</password></user>',
    );
    const { id, doc } = expectCreated(res, 'staff', expectUser);
    expect(value(doc, 'username')).toBe('xml_created_staff');
    expect(value(doc, 'first_name')).toBe('Xena');
    expect(value(doc, 'time_zone')).toBe('Europe/Paris');
    expect(value(doc, 'active')).toBe('true');
    expect(res.text).not.toContain('xena-secret-pw');
    expect(res.text).not.toContain('<password');
    // The new user is stored and can use the XML interface with the password it was given.
    expect((await call(owner, 'get', `/staff/${id}.xml`)).status).toBe(200);
    expect(
      (
        await call(
          { login: 'xml_created_staff', password: 'xena-secret-pw' },
          'get',
          '/projects.xml',
        )
      ).status,
    ).toBe(200);
  });

  test('PUT /staff/:id.xml merges a partial body and answers 200 with the object', async () => {
    const res = await call(
      owner,
      'put',
      `/staff/${staff.legacyId}.xml`,
      '<user><first_name>Sidney</first_name></user>',
    );
    const user = expectObject(res, 200, expectUser);
    expect(value(user, 'first_name')).toBe('Sidney');
    expect(value(user, 'last_name')).toBe('Staffer');
    expect(value(user, 'time_zone')).toBe('Asia/Tokyo');
    const shown = expectObject(
      await call(owner, 'get', `/staff/${staff.legacyId}.xml`),
      200,
      expectUser,
    );
    expect(value(shown, 'first_name')).toBe('Sidney');

    const disabled = expectObject(
      await call(
        owner,
        'put',
        `/staff/${staff.legacyId}.xml`,
        '<user><active>false</active></user>',
      ),
      200,
      expectUser,
    );
    expect(value(disabled, 'active')).toBe('false');
    const enabled = expectObject(
      await call(
        owner,
        'put',
        `/staff/${staff.legacyId}.xml`,
        '<user><active>true</active></user>',
      ),
      200,
      expectUser,
    );
    expect(value(enabled, 'active')).toBe('true');
  });

  test('a password set with PUT takes effect at once; a disabled user gets 401', async () => {
    const walter = await t.newStaff(owner, {
      login: 'xml_password_walter',
      password: 'walter-old-password',
    });
    expectObject(
      await call(
        owner,
        'put',
        `/staff/${walter.legacyId}.xml`,
        '<user><password>walter-new-password</password></user>',
      ),
      200,
      expectUser,
    );
    expectError(await call(walter, 'get', '/projects.xml'), 401, /^User::/);
    const renewed = { login: walter.login, password: 'walter-new-password' };
    expect((await call(renewed, 'get', '/projects.xml')).status).toBe(200);
    expectObject(
      await call(
        owner,
        'put',
        `/staff/${walter.legacyId}.xml`,
        '<user><active>false</active></user>',
      ),
      200,
      expectUser,
    );
    expectError(await call(renewed, 'get', '/projects.xml'), 401, /^User::/);
  });

  test('DELETE /staff/:id.xml answers 200 with the object; it is gone afterwards', async () => {
    const doomed = await t.newStaff(owner, { firstName: 'Doomed' });
    const user = expectObject(
      await call(owner, 'delete', `/staff/${doomed.legacyId}.xml`),
      200,
      expectUser,
    );
    expect(intValue(user, 'id')).toBe(doomed.legacyId);
    expectError(await call(owner, 'get', `/staff/${doomed.legacyId}.xml`), 404, 'User::Error');
  });

  test('402 User::MaxStaff over the plan maximum; nothing is stored', async () => {
    const capped = await t.newAccount({ staffMax: 1 });
    await t.newStaff(capped);
    const res = await call(
      capped,
      'post',
      '/staff.xml',
      '<user><username>one_too_many</username><password>one-too-many-pw</password></user>',
    );
    expectError(res, 402, 'User::MaxStaff');
    const users = expectList(await call(capped, 'get', '/staff.xml'), 'users', expectUser);
    expect(users.map((u) => value(u, 'username'))).not.toContain('one_too_many');
  });

  // "A staff list includes the authenticated user": a staff member's list is just that
  // (docs/permissions.md).
  test('a staff member lists staff and sees only themselves', async () => {
    const users = expectList(await call(staff, 'get', '/staff.xml'), 'users', expectUser);
    expect(users.map((u) => value(u, 'id'))).toEqual([String(staff.legacyId)]);
  });

  test('422 User::Error for a duplicate username', async () => {
    const res = await call(
      owner,
      'post',
      '/staff.xml',
      `<user><username>${staff.login}</username><password>another-password</password></user>`,
    );
    const messages = expectError(res, 422, 'User::Error');
    expect(messages.join(' ')).toMatch(/username/);
  });
});

describe('company routes', () => {
  let owner: Account;
  let staff: Credentials & { legacyId: number };
  let companyId: number;

  beforeAll(async () => {
    owner = await t.newAccount();
    staff = await t.newStaff(owner);
  });

  test('POST /companies.xml creates: 201, Location, the object; visibility defaults to private', async () => {
    const res = await call(
      owner,
      'post',
      '/companies.xml',
      '<company><name>Acme GmbH</name><website>https://acme.example</website><notes>first</notes></company>',
    );
    const created = expectCreated(res, 'company', expectCompany);
    companyId = created.id;
    expect(value(created.doc, 'name')).toBe('Acme GmbH');
    expect(value(created.doc, 'visibility')).toBe('private');
    expect(value(created.doc, 'website')).toBe('https://acme.example');
    expect(value(created.doc, 'main_phone')).toBeNull();
    expect(expectUserIds(created.doc)).toEqual([owner.ownerLegacyId]);
  });

  test('POST /companies.xml with visibility custom takes user_ids (array of user integers)', async () => {
    const res = await call(
      owner,
      'post',
      '/companies.xml',
      `<company><name>Custom Co</name><visibility>custom</visibility><user_ids type="array"><user_id type="integer">${staff.legacyId}</user_id></user_ids></company>`,
    );
    const { doc } = expectCreated(res, 'company', expectCompany);
    expect(value(doc, 'visibility')).toBe('custom');
    expect(expectUserIds(doc).sort()).toEqual([owner.ownerLegacyId, staff.legacyId].sort());
  });

  test('GET /companies.xml lists the companies', async () => {
    const companies = expectList(
      await call(owner, 'get', '/companies.xml'),
      'companies',
      expectCompany,
    );
    expect(companies.map((c) => value(c, 'name')).sort()).toEqual(['Acme GmbH', 'Custom Co']);
  });

  test('GET /company/:id.xml shows one company', async () => {
    const company = expectObject(
      await call(owner, 'get', `/company/${companyId}.xml`),
      200,
      expectCompany,
    );
    expect(intValue(company, 'id')).toBe(companyId);
    expect(value(company, 'notes')).toBe('first');
  });

  test('PUT /company/:id.xml merges, nil="true" clears, answers 200 with the object', async () => {
    const res = await call(
      owner,
      'put',
      `/company/${companyId}.xml`,
      '<company><name>Acme AG</name><notes nil="true"/><main_city>Hamburg</main_city></company>',
    );
    const company = expectObject(res, 200, expectCompany);
    expect(value(company, 'name')).toBe('Acme AG');
    expect(value(company, 'notes')).toBeNull();
    expect(value(company, 'main_city')).toBe('Hamburg');
    expect(value(company, 'website')).toBe('https://acme.example');
    expect(
      value(
        expectObject(await call(owner, 'get', `/company/${companyId}.xml`), 200, expectCompany),
        'name',
      ),
    ).toBe('Acme AG');
  });

  test('PUT of a document read with GET (clients send back whole objects) is accepted unchanged', async () => {
    const before = await call(owner, 'get', `/company/${companyId}.xml`);
    const after = await call(owner, 'put', `/company/${companyId}.xml`, before.text);
    expect(after.status).toBe(200);
    expect(after.text).toBe(before.text);
  });

  test('DELETE /company/:id.xml answers 200 with the object; it is gone afterwards', async () => {
    const doomed = expectCreated(
      await call(owner, 'post', '/companies.xml', '<company><name>Doomed Co</name></company>'),
      'company',
      expectCompany,
    ).id;
    const company = expectObject(
      await call(owner, 'delete', `/company/${doomed}.xml`),
      200,
      expectCompany,
    );
    expect(intValue(company, 'id')).toBe(doomed);
    expectError(await call(owner, 'get', `/company/${doomed}.xml`), 404, 'Company::Error');
  });

  test('422 Company::UserNotAllowed for a user who is not in the staff list', async () => {
    const stranger = await t.newAccount();
    const res = await call(
      owner,
      'post',
      '/companies.xml',
      `<company><name>Leaky Co</name><visibility>custom</visibility><user_ids type="array"><user_id type="integer">${stranger.ownerLegacyId}</user_id></user_ids></company>`,
    );
    expectError(res, 422, 'Company::UserNotAllowed');
  });

  test('403 for a staff member creating a company', async () => {
    expectError(
      await call(staff, 'post', '/companies.xml', '<company><name>Nope</name></company>'),
      403,
      /^Company::/,
    );
  });

  test('422 Company::ParamMissing for a create without a name (not enough parameters supplied)', async () => {
    const res = await call(
      owner,
      'post',
      '/companies.xml',
      '<company><notes>no name</notes></company>',
    );
    expect(expectError(res, 422, 'Company::ParamMissing')).toEqual([
      expect.stringMatching(/^name /),
    ]);
    expectError(await call(owner, 'post', '/companies.xml'), 422, 'Company::ParamMissing');
    expect(
      expectList(await call(owner, 'get', '/companies.xml'), 'companies', expectCompany).map((c) =>
        value(c, 'notes'),
      ),
    ).not.toContain('no name');
  });

  test('422 Company::Error for a blank name', async () => {
    expect(
      expectError(
        await call(owner, 'post', '/companies.xml', '<company><name></name></company>'),
        422,
        'Company::Error',
      ),
    ).toEqual([expect.stringMatching(/^name /)]);
  });

  test('an empty <company/> element is 422 Company::ParamMissing, like an empty body', async () => {
    expectError(
      await call(owner, 'post', '/companies.xml', '<company/>'),
      422,
      'Company::ParamMissing',
    );
  });

  test('an empty <company/> update changes nothing and answers 200', async () => {
    const before = await call(owner, 'get', `/company/${companyId}.xml`);
    const res = await call(owner, 'put', `/company/${companyId}.xml`, '<company></company>');
    expect(res.status).toBe(200);
    expect(res.text).toBe(before.text);
  });
});

describe('project routes', () => {
  let owner: Account;
  let companyA: number;
  let companyB: number;
  let projectA: number;
  let projectB: number;

  beforeAll(async () => {
    owner = await t.newAccount();
    companyA = expectCreated(
      await call(owner, 'post', '/companies.xml', '<company><name>Company A</name></company>'),
      'company',
      expectCompany,
    ).id;
    companyB = expectCreated(
      await call(owner, 'post', '/companies.xml', '<company><name>Company B</name></company>'),
      'company',
      expectCompany,
    ).id;
  });

  test('POST /company/:id/projects.xml creates: 201, Location, the object in that company', async () => {
    const res = await call(
      owner,
      'post',
      `/company/${companyA}/projects.xml`,
      '<project><name>Alpha</name><time_limit_string>2h 30m</time_limit_string><default_tags>d1, d2</default_tags><notes>alpha notes</notes><taglist>x,y</taglist></project>',
    );
    const { id, doc } = expectCreated(res, 'project', expectProject);
    projectA = id;
    expect(value(doc, 'name')).toBe('Alpha');
    expect(intValue(doc, 'company_id')).toBe(companyA);
    expect(value(doc, 'active')).toBe('true');
    expect(value(doc, 'visibility')).toBe('private');
    expect(value(doc, 'time_limit_string')).toBe('2h 30m');
    expect(value(doc, 'default_tags')).toBe('d1, d2'); // as written
    expect(value(doc, 'taglist')).toBe('x,y');
    expect(expectUserIds(doc)).toEqual([owner.ownerLegacyId]);

    // `tag_list` is accepted for `taglist`.
    const b = await call(
      owner,
      'post',
      `/company/${companyB}/projects.xml`,
      '<project><name>Beta</name><tag_list>b1,b2</tag_list></project>',
    );
    const created = expectCreated(b, 'project', expectProject);
    projectB = created.id;
    expect(value(created.doc, 'taglist')).toBe('b1,b2');
    expect(intValue(created.doc, 'company_id')).toBe(companyB);
  });

  test('GET /projects.xml lists every project', async () => {
    const projects = expectList(
      await call(owner, 'get', '/projects.xml'),
      'projects',
      expectProject,
    );
    expect(projects.map((p) => intValue(p, 'id')).sort()).toEqual([projectA, projectB].sort());
  });

  test("GET /company/:id/projects.xml lists only that company's projects", async () => {
    const inA = expectList(
      await call(owner, 'get', `/company/${companyA}/projects.xml`),
      'projects',
      expectProject,
    );
    expect(inA.map((p) => value(p, 'name'))).toEqual(['Alpha']);
    const inB = expectList(
      await call(owner, 'get', `/company/${companyB}/projects.xml`),
      'projects',
      expectProject,
    );
    expect(inB.map((p) => value(p, 'name'))).toEqual(['Beta']);
  });

  test('GET /project/:id.xml shows one project', async () => {
    const project = expectObject(
      await call(owner, 'get', `/project/${projectA}.xml`),
      200,
      expectProject,
    );
    expect(intValue(project, 'id')).toBe(projectA);
    expect(value(project, 'notes')).toBe('alpha notes');
  });

  test('PUT /project/:id.xml merges and answers 200 with the object', async () => {
    const res = await call(
      owner,
      'put',
      `/project/${projectB}.xml`,
      '<project><name>Beta 2</name><active>false</active><taglist>z</taglist></project>',
    );
    const project = expectObject(res, 200, expectProject);
    expect(value(project, 'name')).toBe('Beta 2');
    expect(value(project, 'active')).toBe('false');
    expect(value(project, 'taglist')).toBe('z');
    expect(intValue(project, 'company_id')).toBe(companyB);
    const shown = expectObject(
      await call(owner, 'get', `/project/${projectB}.xml`),
      200,
      expectProject,
    );
    expect(value(shown, 'active')).toBe('false');
    expect(
      value(
        expectObject(
          await call(
            owner,
            'put',
            `/project/${projectB}.xml`,
            '<project><active>true</active></project>',
          ),
          200,
          expectProject,
        ),
        'active',
      ),
    ).toBe('true');
  });

  test('PUT of a document read with GET (clients send back whole objects) is accepted unchanged', async () => {
    const before = await call(owner, 'get', `/project/${projectA}.xml`);
    const after = await call(owner, 'put', `/project/${projectA}.xml`, before.text);
    expect(after.status).toBe(200);
    expect(after.text).toBe(before.text);
  });

  test('POST /project/:id/punch_in.xml and punch_out.xml answer 200 with the project and run a shift', async () => {
    const runningShifts = async () =>
      (
        await t.gqlOk(owner, 'query($p: Int) { shifts(projectLegacyId: $p) { nodes { stop } } }', {
          p: projectA,
        })
      ).shifts.nodes.filter((s: { stop: unknown }) => s.stop === null).length;
    const punchedIn = expectObject(
      await call(owner, 'post', `/project/${projectA}/punch_in.xml`),
      200,
      expectProject,
    );
    expect(intValue(punchedIn, 'id')).toBe(projectA);
    expect(await runningShifts()).toBe(1);
    // default_tags are copied onto the running shift.
    const shifts = expectList(
      await call(owner, 'get', `/project/${projectA}/shifts.xml`),
      'shifts',
      expectShift,
    );
    const running = shifts.filter((s) => value(s, 'stop') === null);
    expect(running).toHaveLength(1);
    expect(value(running[0]!, 'taglist')).toBe('d1,d2');

    const punchedOut = expectObject(
      await call(owner, 'post', `/project/${projectA}/punch_out.xml`),
      200,
      expectProject,
    );
    expect(intValue(punchedOut, 'id')).toBe(projectA);
    expect(await runningShifts()).toBe(0);
  });

  test('DELETE /project/:id.xml answers 200 with the object; it and its shifts are gone', async () => {
    const doomed = expectCreated(
      await call(
        owner,
        'post',
        `/company/${companyA}/projects.xml`,
        '<project><name>Doomed</name></project>',
      ),
      'project',
      expectProject,
    ).id;
    const shift = expectCreated(
      await call(
        owner,
        'post',
        `/project/${doomed}/shifts.xml`,
        '<shift><start>Mon, 02 Mar 2009 09:00:00 GMT</start><stop>Mon, 02 Mar 2009 10:00:00 GMT</stop></shift>',
      ),
      'shift',
      expectShift,
    ).id;
    const project = expectObject(
      await call(owner, 'delete', `/project/${doomed}.xml`),
      200,
      expectProject,
    );
    expect(intValue(project, 'id')).toBe(doomed);
    expectError(await call(owner, 'get', `/project/${doomed}.xml`), 404, 'Project::Error');
    expectError(await call(owner, 'get', `/shift/${shift}.xml`), 404, 'Shift::Error');
  });

  test('422 Project::ParamMissing for a project without a name; nothing is stored', async () => {
    const res = await call(
      owner,
      'post',
      `/company/${companyA}/projects.xml`,
      '<project><notes>nameless</notes></project>',
    );
    expect(expectError(res, 422, 'Project::ParamMissing')).toEqual([
      expect.stringMatching(/^name /),
    ]);
    const projects = expectList(
      await call(owner, 'get', '/projects.xml'),
      'projects',
      expectProject,
    );
    expect(projects.map((p) => value(p, 'notes'))).not.toContain('nameless');
  });
});

describe('shift routes', () => {
  let owner: Account;
  let projectA: number;
  let projectB: number;
  let shiftA: number;
  let shiftB: number;

  beforeAll(async () => {
    owner = await t.newAccount({ timeZone: 'Europe/Berlin' });
    const company = expectCreated(
      await call(owner, 'post', '/companies.xml', '<company><name>Shift Co</name></company>'),
      'company',
      expectCompany,
    ).id;
    projectA = expectCreated(
      await call(
        owner,
        'post',
        `/company/${company}/projects.xml`,
        '<project><name>Shift A</name></project>',
      ),
      'project',
      expectProject,
    ).id;
    projectB = expectCreated(
      await call(
        owner,
        'post',
        `/company/${company}/projects.xml`,
        '<project><name>Shift B</name></project>',
      ),
      'project',
      expectProject,
    ).id;
  });

  test('POST /project/:id/shifts.xml creates: 201, Location, the object on that project', async () => {
    const res = await call(
      owner,
      'post',
      `/project/${projectA}/shifts.xml`,
      '<shift><start>Tue, 17 Mar 2009 10:00:00</start><stop>Tue, 17 Mar 2009 11:00:00</stop><time_zone>Europe/Berlin</time_zone><notes>first</notes><tag_list>t1,t2</tag_list></shift>',
    );
    const { id, doc } = expectCreated(res, 'shift', expectShift);
    shiftA = id;
    expect(intValue(doc, 'project_id')).toBe(projectA);
    expect(intValue(doc, 'user_id')).toBe(owner.ownerLegacyId);
    expect(value(doc, 'staff_member')).toBe(owner.login);
    expect(value(doc, 'start')).toBe('Tue, 17 Mar 2009 10:00:00');
    expect(value(doc, 'stop')).toBe('Tue, 17 Mar 2009 11:00:00');
    expect(value(doc, 'time_zone')).toBe('Europe/Berlin');
    expect(value(doc, 'notes')).toBe('first');
    expect(value(doc, 'taglist')).toBe('t1,t2');

    shiftB = expectCreated(
      await call(
        owner,
        'post',
        `/project/${projectB}/shifts.xml`,
        '<shift><start>Wed, 18 Mar 2009 08:00:00 GMT</start><stop>Wed, 18 Mar 2009 09:00:00 GMT</stop><time_zone>UTC</time_zone></shift>',
      ),
      'shift',
      expectShift,
    ).id;
  });

  test('GET /shifts.xml lists every shift', async () => {
    const shifts = expectList(await call(owner, 'get', '/shifts.xml'), 'shifts', expectShift);
    expect(shifts.map((s) => intValue(s, 'id')).sort()).toEqual([shiftA, shiftB].sort());
  });

  test("GET /project/:id/shifts.xml lists only that project's shifts", async () => {
    expect(
      expectList(
        await call(owner, 'get', `/project/${projectA}/shifts.xml`),
        'shifts',
        expectShift,
      ).map((s) => intValue(s, 'id')),
    ).toEqual([shiftA]);
    expect(
      expectList(
        await call(owner, 'get', `/project/${projectB}/shifts.xml`),
        'shifts',
        expectShift,
      ).map((s) => intValue(s, 'id')),
    ).toEqual([shiftB]);
  });

  test('GET /shift/:id.xml shows one shift', async () => {
    const shift = expectObject(await call(owner, 'get', `/shift/${shiftB}.xml`), 200, expectShift);
    expect(intValue(shift, 'id')).toBe(shiftB);
    expect(value(shift, 'start')).toBe('Wed, 18 Mar 2009 08:00:00');
    expect(value(shift, 'time_zone')).toBe('UTC');
    expect(value(shift, 'notes')).toBeNull();
    expect(value(shift, 'taglist')).toBe('');
  });

  test("PUT /shift/:id.xml merges and answers 200 with the object; a wall time is read in the shift's zone", async () => {
    const res = await call(
      owner,
      'put',
      `/shift/${shiftA}.xml`,
      '<shift><stop>Tue, 17 Mar 2009 13:15:00</stop><notes>longer</notes><taglist>t3</taglist></shift>',
    );
    const shift = expectObject(res, 200, expectShift);
    expect(value(shift, 'start')).toBe('Tue, 17 Mar 2009 10:00:00');
    expect(value(shift, 'stop')).toBe('Tue, 17 Mar 2009 13:15:00');
    expect(value(shift, 'notes')).toBe('longer');
    expect(value(shift, 'taglist')).toBe('t3');
    const stored = await storedShift(owner, shiftA);
    expect(instant(stored.start)).toBe(instant('2009-03-17T09:00:00Z'));
    expect(instant(stored.stop)).toBe(instant('2009-03-17T12:15:00Z'));
    expect(stored.tagList).toEqual(['t3']);
  });

  test('PUT of a document read with GET (clients send back whole objects) keeps the times', async () => {
    const before = await call(owner, 'get', `/shift/${shiftA}.xml`);
    const storedBefore = await storedShift(owner, shiftA);
    const after = await call(owner, 'put', `/shift/${shiftA}.xml`, before.text);
    expect(after.status).toBe(200);
    expect(after.text).toBe(before.text);
    const storedAfter = await storedShift(owner, shiftA);
    expect(instant(storedAfter.start)).toBe(instant(storedBefore.start));
    expect(instant(storedAfter.stop)).toBe(instant(storedBefore.stop));
  });

  test('DELETE /shift/:id.xml answers 200 with the object; it is gone afterwards', async () => {
    const shift = expectObject(
      await call(owner, 'delete', `/shift/${shiftB}.xml`),
      200,
      expectShift,
    );
    expect(intValue(shift, 'id')).toBe(shiftB);
    expectError(await call(owner, 'get', `/shift/${shiftB}.xml`), 404, 'Shift::Error');
    expect(
      expectList(await call(owner, 'get', '/shifts.xml'), 'shifts', expectShift).map((s) =>
        intValue(s, 'id'),
      ),
    ).toEqual([shiftA]);
  });

  test('422 Shift::Error naming the field for unreadable dates, a contradicting weekday, and stop before start', async () => {
    const bad = await call(
      owner,
      'post',
      `/project/${projectA}/shifts.xml`,
      '<shift><start>17/03/2009 10:00</start></shift>',
    );
    expect(expectError(bad, 422, 'Shift::Error').join(' ')).toMatch(/^start /);
    // 17 Mar 2009 was a Tuesday.
    const weekday = await call(
      owner,
      'post',
      `/project/${projectA}/shifts.xml`,
      '<shift><start>Mon, 17 Mar 2009 10:00:00</start><stop>Mon, 17 Mar 2009 11:00:00</stop></shift>',
    );
    expectError(weekday, 422, 'Shift::Error');
    const backwards = await call(
      owner,
      'post',
      `/project/${projectA}/shifts.xml`,
      '<shift><start>Tue, 17 Mar 2009 10:00:00</start><stop>Tue, 17 Mar 2009 09:00:00</stop></shift>',
    );
    expectError(backwards, 422, 'Shift::Error');
    expect(expectList(await call(owner, 'get', '/shifts.xml'), 'shifts', expectShift)).toHaveLength(
      1,
    );
  });

  test.each([
    ['GMT', 'Thu, 19 Mar 2009 08:00:00 GMT', '2009-03-19T08:00:00Z'],
    ['UTC', 'Thu, 19 Mar 2009 08:00:00 UTC', '2009-03-19T08:00:00Z'],
    ['Z', 'Thu, 19 Mar 2009 08:00:00Z', '2009-03-19T08:00:00Z'],
    [
      'no weekday, one-digit day, no seconds, lower case (wall time)',
      '9 mar 2009 08:00',
      '2009-03-09T07:00:00Z',
    ],
    ['summer time (wall time)', 'Thu, 09 Jul 2009 08:00:00', '2009-07-09T06:00:00Z'],
  ])('a legacy date with %s is read', async (_label, text, iso) => {
    const stop = DateTime.fromISO(iso, { zone: 'utc' })
      .plus({ hours: 1 })
      .toFormat("ccc, dd LLL yyyy HH:mm:ss 'GMT'");
    const res = await call(
      owner,
      'post',
      `/project/${projectB}/shifts.xml`,
      `<shift><start>${text}</start><stop>${stop}</stop><time_zone>Europe/Berlin</time_zone></shift>`,
    );
    const { id, doc } = expectCreated(res, 'shift', expectShift);
    expect(instant((await storedShift(owner, id)).start)).toBe(instant(iso));
    expect(value(doc, 'start')).toBe(legacyWallTime(iso, 'Europe/Berlin'));
    expect((await call(owner, 'delete', `/shift/${id}.xml`)).status).toBe(200);
  });

  test.each([
    ['31 Feb 2009 10:00:00', 'an impossible day'],
    ['Tue, 17 Mar 2009 25:00:00', 'an impossible hour'],
    ['2009-03-17T10:00:00Z', 'RFC 3339'],
    ['', 'an empty start'],
  ])('%s (%s) is 422 naming start', async (text) => {
    const res = await call(
      owner,
      'post',
      `/project/${projectB}/shifts.xml`,
      `<shift><start>${text}</start><stop>Tue, 17 Mar 2009 23:00:00 GMT</stop></shift>`,
    );
    expect(expectError(res, 422, 'Shift::Error').join('\n')).toMatch(/^start /m);
  });

  test('a shift created without stop (or with an empty or nil stop) is running, and punch out ends it', async () => {
    for (const stop of ['', '<stop/>', '<stop nil="true"/>']) {
      const res = await call(
        owner,
        'post',
        `/project/${projectB}/shifts.xml`,
        `<shift><start>Mon, 23 Mar 2009 08:00:00 GMT</start>${stop}</shift>`,
      );
      const { id, doc } = expectCreated(res, 'shift', expectShift);
      expect(value(doc, 'stop')).toBeNull();
      expectError(
        await call(owner, 'post', `/project/${projectB}/punch_in.xml`),
        422,
        'Project::PunchedIn',
      );
      expectObject(
        await call(owner, 'post', `/project/${projectB}/punch_out.xml`),
        200,
        expectProject,
      );
      expect(
        value(expectObject(await call(owner, 'get', `/shift/${id}.xml`), 200, expectShift), 'stop'),
      ).toMatch(LEGACY_TIME);
      expect((await call(owner, 'delete', `/shift/${id}.xml`)).status).toBe(200);
    }
  });

  test('a shift create without start is a 422 naming start; nothing is stored', async () => {
    for (const body of [undefined, '<shift><notes>no start</notes></shift>']) {
      const res = await call(owner, 'post', `/project/${projectB}/shifts.xml`, body);
      expect(expectError(res, 422, /^Shift::(Error|ParamMissing)$/)).toEqual([
        expect.stringMatching(/^start /),
      ]);
    }
    expect(
      expectList(
        await call(owner, 'get', `/project/${projectB}/shifts.xml`),
        'shifts',
        expectShift,
      ),
    ).toHaveLength(0);
  });

  test('a shift create without start is 422 Shift::ParamMissing', async () => {
    expectError(
      await call(
        owner,
        'post',
        `/project/${projectB}/shifts.xml`,
        '<shift><notes>no start</notes></shift>',
      ),
      422,
      'Shift::ParamMissing',
    );
  });

  test('a wall-time date the service refuses (before 1970) is a 422 Shift::Error', async () => {
    const res = await call(
      owner,
      'post',
      `/project/${projectB}/shifts.xml`,
      '<shift><start>Wed, 31 Dec 1969 10:00:00</start><stop>Wed, 31 Dec 1969 11:00:00</stop></shift>',
    );
    expect(expectError(res, 422, 'Shift::Error')).toHaveLength(2);
    // The same dates with GMT name the elements the client sent.
    const gmt = await call(
      owner,
      'post',
      `/project/${projectB}/shifts.xml`,
      '<shift><start>Wed, 31 Dec 1969 10:00:00 GMT</start><stop>Wed, 31 Dec 1969 11:00:00 GMT</stop></shift>',
    );
    expect(expectError(gmt, 422, 'Shift::Error')).toEqual([
      expect.stringMatching(/^start /),
      expect.stringMatching(/^stop /),
    ]);
  });

  test('a refused wall-time date is named start/stop in the error, like the GMT form', async () => {
    const res = await call(
      owner,
      'post',
      `/project/${projectB}/shifts.xml`,
      '<shift><start>Wed, 31 Dec 1969 10:00:00</start><stop>Wed, 31 Dec 1969 11:00:00</stop></shift>',
    );
    expect(expectError(res, 422, 'Shift::Error')).toEqual([
      expect.stringMatching(/^start /),
      expect.stringMatching(/^stop /),
    ]);
  });

  test('a user_id that is not in the staff list is a 422 Shift::Error; nothing is stored', async () => {
    const stranger = await t.newAccount();
    for (const userId of [stranger.ownerLegacyId, UNKNOWN_ID]) {
      const res = await call(
        owner,
        'post',
        `/project/${projectB}/shifts.xml`,
        `<shift><user_id>${userId}</user_id><start>Tue, 24 Mar 2009 08:00:00 GMT</start><stop>Tue, 24 Mar 2009 09:00:00 GMT</stop></shift>`,
      );
      expectError(res, 422, 'Shift::Error');
    }
    expect(
      expectList(
        await call(owner, 'get', `/project/${projectB}/shifts.xml`),
        'shifts',
        expectShift,
      ),
    ).toHaveLength(0);
  });

  test('a user_id that is not in the staff list is named user_id in the error', async () => {
    const res = await call(
      owner,
      'post',
      `/project/${projectB}/shifts.xml`,
      `<shift><user_id>${UNKNOWN_ID}</user_id><start>Tue, 24 Mar 2009 08:00:00 GMT</start><stop>Tue, 24 Mar 2009 09:00:00 GMT</stop></shift>`,
    );
    expect(expectError(res, 422, 'Shift::Error')).toEqual([expect.stringMatching(/^user_id /)]);
  });

  test('a shift at the end of year 9999 is stored or refused, never a 5xx', async () => {
    const res = await call(
      owner,
      'post',
      `/project/${projectB}/shifts.xml`,
      '<shift><start>Fri, 31 Dec 9999 22:00:00 GMT</start><stop>Fri, 31 Dec 9999 23:00:00 GMT</stop><time_zone>Europe/Berlin</time_zone></shift>',
    );
    expect([201, 422]).toContain(res.status);
    if (res.status === 201)
      expect(
        (await call(owner, 'delete', `/shift/${intValue(expectXml(res), 'id')}.xml`)).status,
      ).toBe(200);
  });

  test('every date the facade writes is a legacy date it reads back', async () => {
    const res = await call(
      owner,
      'post',
      `/project/${projectB}/shifts.xml`,
      '<shift><start>Fri, 31 Dec 9999 22:00:00 GMT</start><stop>Fri, 31 Dec 9999 23:00:00 GMT</stop><time_zone>Europe/Berlin</time_zone></shift>',
    );
    const id = intValue(expectXml(res), 'id');
    try {
      const shown = await call(owner, 'get', `/shift/${id}.xml`);
      expectObject(shown, 200, expectShift);
      expect((await call(owner, 'put', `/shift/${id}.xml`, shown.text)).status).toBe(200);
    } finally {
      await call(owner, 'delete', `/shift/${id}.xml`);
    }
  });

  test('a body sent as text/xml is accepted; a JSON body is 415', async () => {
    const res = await request(t.app.express)
      .post(`/project/${projectB}/shifts.xml`)
      .auth(owner.login, owner.password)
      .type('text/xml')
      .send(
        '<shift><start>Thu, 19 Mar 2009 08:00:00 GMT</start><stop>Thu, 19 Mar 2009 09:00:00 GMT</stop></shift>',
      );
    const { id } = expectCreated(res, 'shift', expectShift);
    expect((await call(owner, 'delete', `/shift/${id}.xml`)).status).toBe(200);
    const json = await request(t.app.express)
      .post(`/project/${projectB}/shifts.xml`)
      .auth(owner.login, owner.password)
      .type('application/json')
      .send('{"shift":{}}');
    expectError(json, 415, /^Shift::/);
  });
});

describe('GET /time_zones.xml', () => {
  test('lists every time zone with zone, longitude, latitude, offset and dst, typed', async () => {
    const owner = await t.newAccount();
    const zones = expectList(await call(owner, 'get', '/time_zones.xml'), 'time_zones', (zone) => {
      expect(zone.name).toBe('time_zone');
      expect(names(zone)).toEqual(TIME_ZONE_ELEMENTS);
      expect(child(zone, 'zone').attributes).toEqual({});
      expect(child(zone, 'longitude').attributes.type).toBe('float');
      expect(child(zone, 'latitude').attributes.type).toBe('float');
      expect(child(zone, 'dst').attributes).toEqual({ type: 'boolean' });
      expect(['true', 'false']).toContain(child(zone, 'dst').text);
    });
    const listed = zones.map((zone) => ({
      name: value(zone, 'zone'),
      longitude: value(zone, 'longitude') === null ? null : Number(value(zone, 'longitude')),
      latitude: value(zone, 'latitude') === null ? null : Number(value(zone, 'latitude')),
      offset: intValue(zone, 'offset'),
      dst: value(zone, 'dst') === 'true',
    }));

    // Every zone the service knows, in its order and with its values.
    const known = (await t.gqlOk(owner, '{ timeZones { name longitude latitude offset dst } }'))
      .timeZones;
    expect(listed).toEqual(known);
    // Every zone of the runtime's tz database is among them.
    const listedNames = new Set(listed.map((zone) => zone.name));
    for (const name of Intl.supportedValuesOf('timeZone')) expect(listedNames.has(name)).toBe(true);

    // Values checked independently: offsets in seconds east of UTC, now.
    const byName = new Map(listed.map((zone) => [zone.name, zone]));
    expect(byName.get('Asia/Tokyo')).toMatchObject({ offset: 9 * 3600, dst: false });
    expect(byName.get('Asia/Tokyo')!.latitude).toBeCloseTo(35.65, 1);
    expect(byName.get('Asia/Tokyo')!.longitude).toBeCloseTo(139.73, 1);
    const berlin = DateTime.now().setZone('Europe/Berlin');
    expect(byName.get('Europe/Berlin')).toMatchObject({
      offset: berlin.offset * 60,
      dst: berlin.isInDST,
    });
    expect(byName.get('UTC')).toMatchObject({ offset: 0, dst: false });
  });
});

// =============================================================================================
// Errors shared by every route: 401, 404, 405
// =============================================================================================

/** Every route of the legacy XML table, with `{user}`, `{company}`, `{project}`, `{shift}` for ids. */
const ROUTES: readonly (readonly [Method, string])[] = [
  ['get', '/staff.xml'],
  ['get', '/staff/{user}.xml'],
  ['post', '/staff.xml'],
  ['put', '/staff/{user}.xml'],
  ['delete', '/staff/{user}.xml'],
  ['get', '/companies.xml'],
  ['get', '/company/{company}.xml'],
  ['post', '/companies.xml'],
  ['put', '/company/{company}.xml'],
  ['delete', '/company/{company}.xml'],
  ['get', '/projects.xml'],
  ['get', '/company/{company}/projects.xml'],
  ['post', '/company/{company}/projects.xml'],
  ['get', '/project/{project}.xml'],
  ['put', '/project/{project}.xml'],
  ['delete', '/project/{project}.xml'],
  ['post', '/project/{project}/punch_in.xml'],
  ['post', '/project/{project}/punch_out.xml'],
  ['get', '/shifts.xml'],
  ['get', '/project/{project}/shifts.xml'],
  ['post', '/project/{project}/shifts.xml'],
  ['get', '/shift/{shift}.xml'],
  ['put', '/shift/{shift}.xml'],
  ['delete', '/shift/{shift}.xml'],
  ['get', '/time_zones.xml'],
];

/** A body each writing route accepts. */
const BODIES: Readonly<Record<string, string>> = {
  '/staff.xml':
    '<user><username>via_error_table</username><password>error-table-pw</password></user>',
  '/staff/{user}.xml': '<user><first_name>Changed</first_name></user>',
  '/companies.xml': '<company><name>Via error table</name></company>',
  '/company/{company}.xml': '<company><name>Changed</name></company>',
  '/company/{company}/projects.xml': '<project><name>Via error table</name></project>',
  '/project/{project}.xml': '<project><name>Changed</name></project>',
  '/project/{project}/shifts.xml':
    '<shift><start>Fri, 20 Mar 2009 08:00:00 GMT</start><stop>Fri, 20 Mar 2009 09:00:00 GMT</stop></shift>',
  '/shift/{shift}.xml': '<shift><notes>Changed</notes></shift>',
};

interface Fixture {
  account: Account;
  user: number;
  company: number;
  project: number;
  shift: number;
}

async function fixture(): Promise<Fixture> {
  const account = await t.newAccount();
  const user = (await t.newStaff(account)).legacyId;
  const company = expectCreated(
    await call(account, 'post', '/companies.xml', '<company><name>Fixture Co</name></company>'),
    'company',
    expectCompany,
  ).id;
  const project = expectCreated(
    await call(
      account,
      'post',
      `/company/${company}/projects.xml`,
      '<project><name>Fixture</name></project>',
    ),
    'project',
    expectProject,
  ).id;
  const shift = expectCreated(
    await call(
      account,
      'post',
      `/project/${project}/shifts.xml`,
      '<shift><start>Mon, 16 Mar 2009 08:00:00 GMT</start><stop>Mon, 16 Mar 2009 09:00:00 GMT</stop></shift>',
    ),
    'shift',
    expectShift,
  ).id;
  return { account, user, company, project, shift };
}

function fill(path: string, ids: Partial<Record<IdKind, string | number>>): string {
  return path.replace(/\{(user|company|project|shift)\}/g, (_match, kind: IdKind) =>
    String(ids[kind]),
  );
}

const LEGACY_ENTITY: Record<IdKind, string> = {
  user: 'User',
  company: 'Company',
  project: 'Project',
  shift: 'Shift',
};

describe('errors every route shares', () => {
  let mine: Fixture;
  let theirs: Fixture;

  beforeAll(async () => {
    mine = await fixture();
    theirs = await fixture();
  });

  test.each(ROUTES)(
    '401 without credentials and with a wrong password: %s %s',
    async (method, template) => {
      const path = fill(template, mine);
      const body = BODIES[template];
      for (const who of [
        undefined,
        { login: mine.account.login, password: 'wrong-password' },
        { login: 'nobody_at_all', password: 'wrong-password' },
      ]) {
        const res = await call(who, method, path, body);
        expectError(res, 401, /^User::/);
        expect(res.headers['www-authenticate']).toMatch(/^Basic /);
      }
    },
  );

  test('nothing changed under the refused requests', async () => {
    expectObject(await call(mine.account, 'get', `/staff/${mine.user}.xml`), 200, expectUser);
    expect(
      value(
        expectObject(
          await call(mine.account, 'get', `/company/${mine.company}.xml`),
          200,
          expectCompany,
        ),
        'name',
      ),
    ).toBe('Fixture Co');
    expect(
      value(
        expectObject(
          await call(mine.account, 'get', `/project/${mine.project}.xml`),
          200,
          expectProject,
        ),
        'name',
      ),
    ).toBe('Fixture');
    expect(
      value(
        expectObject(await call(mine.account, 'get', `/shift/${mine.shift}.xml`), 200, expectShift),
        'notes',
      ),
    ).toBeNull();
    expect(
      expectList(await call(mine.account, 'get', '/companies.xml'), 'companies', expectCompany),
    ).toHaveLength(1);
  });

  const ID_ROUTES = ROUTES.filter(([, template]) => /\{\w+\}/.test(template));

  test.each(ID_ROUTES)(
    "404 for a missing id, another account's id and a non-integer id, alike: %s %s",
    async (method, template) => {
      const kind = /\{(\w+)\}/.exec(template)![1] as IdKind;
      const type = `${LEGACY_ENTITY[kind]}::Error`;
      const body = BODIES[template];
      const missing = await call(
        mine.account,
        method,
        fill(template, { ...mine, [kind]: UNKNOWN_ID }),
        body,
      );
      expectError(missing, 404, type);
      // Another account's row does not exist for the caller: the same answer as a missing id.
      const foreign = await call(
        mine.account,
        method,
        fill(template, { ...mine, [kind]: theirs[kind] }),
        body,
      );
      expectError(foreign, 404, type);
      expect(foreign.text).toBe(missing.text);
      // An id that is not an integer cannot exist: the same answer again.
      for (const notAnId of ['abc', '0', '-1', '1.5', '1e3', '99999999999', '%20']) {
        const res = await call(
          mine.account,
          method,
          fill(template, { ...mine, [kind]: notAnId }),
          body,
        );
        expectError(res, 404, type);
        expect(res.text).toBe(missing.text);
      }
    },
  );

  test("another account's rows are untouched by the 404s", async () => {
    expectObject(await call(theirs.account, 'get', `/staff/${theirs.user}.xml`), 200, expectUser);
    expect(
      value(
        expectObject(
          await call(theirs.account, 'get', `/company/${theirs.company}.xml`),
          200,
          expectCompany,
        ),
        'name',
      ),
    ).toBe('Fixture Co');
    expect(
      value(
        expectObject(
          await call(theirs.account, 'get', `/project/${theirs.project}.xml`),
          200,
          expectProject,
        ),
        'name',
      ),
    ).toBe('Fixture');
    expect(
      value(
        expectObject(
          await call(theirs.account, 'get', `/shift/${theirs.shift}.xml`),
          200,
          expectShift,
        ),
        'notes',
      ),
    ).toBeNull();
    const running = (
      await t.gqlOk(theirs.account, '{ shifts { nodes { stop } } }')
    ).shifts.nodes.filter((s: { stop: unknown }) => s.stop === null);
    expect(running).toHaveLength(0);
  });

  test.each([
    ['post', '/staff/{user}.xml', 'DELETE, GET, PUT'],
    ['put', '/staff.xml', 'GET, POST'],
    ['delete', '/companies.xml', 'GET, POST'],
    ['patch', '/company/{company}.xml', 'DELETE, GET, PUT'],
    ['post', '/projects.xml', 'GET'],
    ['put', '/company/{company}/projects.xml', 'GET, POST'],
    ['post', '/project/{project}.xml', 'DELETE, GET, PUT'],
    ['get', '/project/{project}/punch_in.xml', 'POST'],
    ['delete', '/project/{project}/punch_out.xml', 'POST'],
    ['post', '/shifts.xml', 'GET'],
    ['delete', '/project/{project}/shifts.xml', 'GET, POST'],
    ['post', '/shift/{shift}.xml', 'DELETE, GET, PUT'],
    ['put', '/time_zones.xml', 'GET'],
  ] as const)('405 with Allow for %s %s', async (method, template, allow) => {
    const res = await call(mine.account, method, fill(template, mine));
    expectError(res, 405, /^\w+::Error$/);
    expect(res.headers.allow).toBe(allow);
  });

  test('an unknown .xml path is 404 with an XML error body', async () => {
    expectError(await call(mine.account, 'get', '/invoices.xml'), 404, /^\w+::Error$/);
  });

  test('404 and 405 do not depend on credentials (the path is checked first)', async () => {
    const res = await call(undefined, 'post', '/projects.xml');
    expectError(res, 405, /^\w+::Error$/);
    expect(res.headers.allow).toBe('GET');
    expectError(await call(undefined, 'get', '/invoices.xml'), 404, /^\w+::Error$/);
  });

  test('an empty list is still a typed array', async () => {
    const fresh = await t.newAccount();
    for (const [path, collection] of [
      ['/projects.xml', 'projects'],
      ['/companies.xml', 'companies'],
      ['/shifts.xml', 'shifts'],
    ] as const) {
      const res = await call(fresh, 'get', path);
      expect(res.status).toBe(200);
      const doc = expectXml(res);
      expect(doc).toEqual({
        name: collection,
        attributes: { type: 'array' },
        children: [],
        text: '',
      });
    }
  });
});

describe('error types of docs/xml-api.md', () => {
  let owner: Account;
  let staff: Credentials & { legacyId: number };
  let manager: Credentials & { legacyId: number };
  let companyId: number;
  let projectId: number;

  beforeAll(async () => {
    owner = await t.newAccount();
    staff = await t.newStaff(owner);
    manager = await t.newStaff(owner, { type: 'MANAGER' });
    companyId = expectCreated(
      await call(
        owner,
        'post',
        '/companies.xml',
        '<company><name>Public Co</name><visibility>public</visibility></company>',
      ),
      'company',
      expectCompany,
    ).id;
    projectId = expectCreated(
      await call(
        owner,
        'post',
        `/company/${companyId}/projects.xml`,
        '<project><name>Public Project</name><visibility>public</visibility></project>',
      ),
      'project',
      expectProject,
    ).id;
  });

  test('403 User::ReadDenied, User::UpdateDenied, User::DeleteDenied for a staff member', async () => {
    expectError(
      await call(staff, 'get', `/staff/${owner.ownerLegacyId}.xml`),
      403,
      'User::ReadDenied',
    );
    expectError(
      await call(
        staff,
        'put',
        `/staff/${manager.legacyId}.xml`,
        '<user><first_name>Nope</first_name></user>',
      ),
      403,
      'User::UpdateDenied',
    );
    expectError(
      await call(staff, 'delete', `/staff/${manager.legacyId}.xml`),
      403,
      'User::DeleteDenied',
    );
    expect(
      value(
        expectObject(await call(owner, 'get', `/staff/${manager.legacyId}.xml`), 200, expectUser),
        'first_name',
      ),
    ).toBe('Sam');
  });

  test.each([
    ['Company', 'company', () => `/company/${companyId}.xml`, expectCompany, 'Public Co'],
    ['Project', 'project', () => `/project/${projectId}.xml`, expectProject, 'Public Project'],
  ] as const)(
    '403 %s::UpdateDenied and ::DeleteDenied on a %s the staff member can see',
    async (type, element, path, expectShape, name) => {
      expectObject(await call(staff, 'get', path()), 200, expectShape);
      expectError(
        await call(staff, 'put', path(), `<${element}><name>Nope</name></${element}>`),
        403,
        `${type}::UpdateDenied`,
      );
      expectError(await call(staff, 'delete', path()), 403, `${type}::DeleteDenied`);
      expect(value(expectObject(await call(owner, 'get', path()), 200, expectShape), 'name')).toBe(
        name,
      );
    },
  );

  test('403 Shift::UpdateDenied when a staff member gives a shift to another user', async () => {
    const shift = expectCreated(
      await call(
        staff,
        'post',
        `/project/${projectId}/shifts.xml`,
        '<shift><start>Tue, 17 Mar 2009 10:00:00 GMT</start><stop>Tue, 17 Mar 2009 11:00:00 GMT</stop></shift>',
      ),
      'shift',
      expectShift,
    );
    expect(intValue(shift.doc, 'user_id')).toBe(staff.legacyId);
    expectError(
      await call(
        staff,
        'put',
        `/shift/${shift.id}.xml`,
        `<shift><user_id>${owner.ownerLegacyId}</user_id></shift>`,
      ),
      403,
      'Shift::UpdateDenied',
    );
    expect(
      intValue(
        expectObject(await call(owner, 'get', `/shift/${shift.id}.xml`), 200, expectShift),
        'user_id',
      ),
    ).toBe(staff.legacyId);
  });

  test('422 Project::UserNotAllowed for a project user who is not in the staff list', async () => {
    const stranger = await t.newAccount();
    const res = await call(
      owner,
      'post',
      `/company/${companyId}/projects.xml`,
      `<project><name>Leaky</name><visibility>custom</visibility><user_ids>${staff.legacyId},${stranger.ownerLegacyId}</user_ids></project>`,
    );
    expectError(res, 422, 'Project::UserNotAllowed');
  });

  test('402 User::StaffNotAllowed when the plan allows no staff', async () => {
    const solo = await t.newAccount({ staffMax: 0 });
    expectError(
      await call(
        solo,
        'post',
        '/staff.xml',
        '<user><username>not_allowed_staff</username><password>not-allowed-pw</password></user>',
      ),
      402,
      'User::StaffNotAllowed',
    );
  });

  test('402 User::MaxTime when the maximum of entered time is used up; nothing is stored', async () => {
    const capped = await t.newAccount({ timeMaxHours: 1 });
    const company = expectCreated(
      await call(capped, 'post', '/companies.xml', '<company><name>Capped</name></company>'),
      'company',
      expectCompany,
    ).id;
    const project = expectCreated(
      await call(
        capped,
        'post',
        `/company/${company}/projects.xml`,
        '<project><name>Capped</name></project>',
      ),
      'project',
      expectProject,
    ).id;
    const res = await call(
      capped,
      'post',
      `/project/${project}/shifts.xml`,
      '<shift><start>Tue, 17 Mar 2009 10:00:00 GMT</start><stop>Tue, 17 Mar 2009 12:00:00 GMT</stop></shift>',
    );
    expectError(res, 402, 'User::MaxTime');
    expect(
      expectList(await call(capped, 'get', '/shifts.xml'), 'shifts', expectShift),
    ).toHaveLength(0);
  });

  test('422 with one <error> per bad element, all at once, each naming its element', async () => {
    const res = await call(
      owner,
      'put',
      `/project/${projectId}.xml`,
      '<project><visibility>secret</visibility><active>maybe</active></project>',
    );
    const messages = expectError(res, 422, 'Project::Error');
    expect(messages).toHaveLength(2);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^visibility /),
        expect.stringMatching(/^active /),
      ]),
    );
  });
});

describe('rows of the account the caller may not see', () => {
  test('are 404 like a missing id, on every path that names them', async () => {
    const owner = await t.newAccount();
    const staff = await t.newStaff(owner);
    const company = expectCreated(
      await call(owner, 'post', '/companies.xml', '<company><name>Private Co</name></company>'),
      'company',
      expectCompany,
    ).id;
    const project = expectCreated(
      await call(
        owner,
        'post',
        `/company/${company}/projects.xml`,
        '<project><name>Private</name></project>',
      ),
      'project',
      expectProject,
    ).id;
    const shift = expectCreated(
      await call(
        owner,
        'post',
        `/project/${project}/shifts.xml`,
        '<shift><start>Tue, 17 Mar 2009 10:00:00 GMT</start><stop>Tue, 17 Mar 2009 11:00:00 GMT</stop></shift>',
      ),
      'shift',
      expectShift,
    ).id;
    const cases: [Method, string, string, string][] = [
      ['get', `/company/${company}.xml`, `/company/${UNKNOWN_ID}.xml`, 'Company::Error'],
      [
        'get',
        `/company/${company}/projects.xml`,
        `/company/${UNKNOWN_ID}/projects.xml`,
        'Company::Error',
      ],
      ['get', `/project/${project}.xml`, `/project/${UNKNOWN_ID}.xml`, 'Project::Error'],
      [
        'get',
        `/project/${project}/shifts.xml`,
        `/project/${UNKNOWN_ID}/shifts.xml`,
        'Project::Error',
      ],
      [
        'post',
        `/project/${project}/punch_in.xml`,
        `/project/${UNKNOWN_ID}/punch_in.xml`,
        'Project::Error',
      ],
      ['get', `/shift/${shift}.xml`, `/shift/${UNKNOWN_ID}.xml`, 'Shift::Error'],
    ];
    for (const [method, hidden, missing, type] of cases) {
      const res = await call(staff, method, hidden);
      expectError(res, 404, type);
      expect(res.text).toBe((await call(staff, method, missing)).text);
    }
    expect(
      expectList(await call(staff, 'get', '/projects.xml'), 'projects', expectProject),
    ).toHaveLength(0);
    expect(
      expectList(await call(staff, 'get', '/companies.xml'), 'companies', expectCompany),
    ).toHaveLength(0);
  });
});

// =============================================================================================
// 3. A Basic-auth XML client, as docs/xml-api.md describes one
// =============================================================================================

describe('a Basic-auth XML client', () => {
  let me: Account;
  let companyId: number;
  let projectId: number;
  let otherProjectId: number;
  let inactiveProjectId: number;
  let wallShiftId: number;
  let gmtShiftId: number;

  beforeAll(async () => {
    me = await t.newAccount({
      login: 'xml_client_owner',
      password: 'xml-client-password',
      timeZone: 'Europe/Berlin',
    });
    await t.newStaff(me, { login: 'xml_client_staff' });
    companyId = expectCreated(
      await call(
        me,
        'post',
        '/companies.xml',
        '<?xml version="1.0" encoding="UTF-8"?>\n<company>\n  <name>Client Co</name>\n</company>\n',
      ),
      'company',
      expectCompany,
    ).id;
    projectId = expectCreated(
      await call(
        me,
        'post',
        `/company/${companyId}/projects.xml`,
        '<project><name>Client Work</name></project>',
      ),
      'project',
      expectProject,
    ).id;
    otherProjectId = expectCreated(
      await call(
        me,
        'post',
        `/company/${companyId}/projects.xml`,
        '<project><name>Other Work</name></project>',
      ),
      'project',
      expectProject,
    ).id;
    inactiveProjectId = expectCreated(
      await call(
        me,
        'post',
        `/company/${companyId}/projects.xml`,
        '<project><name>Old Work</name><active>false</active></project>',
      ),
      'project',
      expectProject,
    ).id;
  });

  test('lists projects, staff and companies', async () => {
    const projects = expectList(await call(me, 'get', '/projects.xml'), 'projects', expectProject);
    expect(Object.fromEntries(projects.map((p) => [value(p, 'name'), value(p, 'active')]))).toEqual(
      { 'Client Work': 'true', 'Other Work': 'true', 'Old Work': 'false' },
    );
    const users = expectList(await call(me, 'get', '/staff.xml'), 'users', expectUser);
    expect(users.map((u) => value(u, 'username')).sort()).toEqual([
      'xml_client_owner',
      'xml_client_staff',
    ]);
    const companies = expectList(
      await call(me, 'get', '/companies.xml'),
      'companies',
      expectCompany,
    );
    expect(companies.map((c) => intValue(c, 'id'))).toEqual([companyId]);
  });

  test('creates a shift with legacy wall-time dates in Europe/Berlin: stored as the UTC instant', async () => {
    const res = await call(
      me,
      'post',
      `/project/${projectId}/shifts.xml`,
      '<?xml version="1.0" encoding="UTF-8"?>\n<shift>\n  <start>Tue, 17 Mar 2009 10:00:00</start>\n  <stop>Tue, 17 Mar 2009 12:30:00</stop>\n' +
        '  <time_zone>Europe/Berlin</time_zone>\n  <notes>wall time</notes>\n  <taglist>a,b</taglist>\n</shift>\n',
    );
    const { id, doc } = expectCreated(res, 'shift', expectShift);
    wallShiftId = id;
    expect(value(doc, 'start')).toBe('Tue, 17 Mar 2009 10:00:00');
    expect(value(doc, 'stop')).toBe('Tue, 17 Mar 2009 12:30:00');
    const stored = await storedShift(me, id);
    // 10:00 in Berlin in March 2009 (CET, UTC+1) is 09:00Z.
    expect(instant(stored.start)).toBe(instant('2009-03-17T09:00:00Z'));
    expect(instant(stored.stop)).toBe(instant('2009-03-17T11:30:00Z'));
    expect(stored.timeZone).toBe('Europe/Berlin');
    expect(stored.tagList).toEqual(['a', 'b']);
  });

  test('wall time follows summer time, and time_zone may come after the dates', async () => {
    const res = await call(
      me,
      'post',
      `/project/${projectId}/shifts.xml`,
      '<shift><start>Wed, 01 Jul 2009 10:00:00</start><stop>Wed, 01 Jul 2009 11:00:00</stop><time_zone>America/New_York</time_zone></shift>',
    );
    const { id, doc } = expectCreated(res, 'shift', expectShift);
    expect(value(doc, 'start')).toBe('Wed, 01 Jul 2009 10:00:00');
    const stored = await storedShift(me, id);
    // 10:00 in New York in July (EDT, UTC-4) is 14:00Z.
    expect(instant(stored.start)).toBe(instant('2009-07-01T14:00:00Z'));
    expect(instant(stored.stop)).toBe(instant('2009-07-01T15:00:00Z'));
    expect((await call(me, 'delete', `/shift/${id}.xml`)).status).toBe(200);

    // Without time_zone, the shift takes the user's zone (Europe/Berlin, CEST in July: UTC+2).
    const zoneless = await call(
      me,
      'post',
      `/project/${projectId}/shifts.xml`,
      '<shift><start>Wed, 01 Jul 2009 10:00:00</start><stop>Wed, 01 Jul 2009 11:00:00</stop></shift>',
    );
    const created = expectCreated(zoneless, 'shift', expectShift);
    expect(value(created.doc, 'time_zone')).toBe('Europe/Berlin');
    expect(instant((await storedShift(me, created.id)).start)).toBe(
      instant('2009-07-01T08:00:00Z'),
    );
    expect((await call(me, 'delete', `/shift/${created.id}.xml`)).status).toBe(200);
  });

  test('creates a shift with GMT dates: the instant as given, read back as wall time in the zone', async () => {
    const res = await call(
      me,
      'post',
      `/project/${projectId}/shifts.xml`,
      '<shift><start>Tue, 17 Mar 2009 14:00:00 GMT</start><stop>Tue, 17 Mar 2009 15:45:00 GMT</stop><time_zone>Europe/Berlin</time_zone><notes>gmt</notes></shift>',
    );
    const { id, doc } = expectCreated(res, 'shift', expectShift);
    gmtShiftId = id;
    const stored = await storedShift(me, id);
    expect(instant(stored.start)).toBe(instant('2009-03-17T14:00:00Z'));
    expect(instant(stored.stop)).toBe(instant('2009-03-17T15:45:00Z'));
    expect(value(doc, 'start')).toBe('Tue, 17 Mar 2009 15:00:00');
    expect(value(doc, 'stop')).toBe('Tue, 17 Mar 2009 16:45:00');
  });

  test('lists shifts and reads the dates back in the same form', async () => {
    for (const path of ['/shifts.xml', `/project/${projectId}/shifts.xml`]) {
      const shifts = expectList(await call(me, 'get', path), 'shifts', expectShift);
      const byId = new Map(shifts.map((s) => [intValue(s, 'id'), s]));
      expect([...byId.keys()].sort()).toEqual([wallShiftId, gmtShiftId].sort());
      expect(value(byId.get(wallShiftId)!, 'start')).toBe('Tue, 17 Mar 2009 10:00:00');
      expect(value(byId.get(wallShiftId)!, 'stop')).toBe('Tue, 17 Mar 2009 12:30:00');
      expect(value(byId.get(wallShiftId)!, 'taglist')).toBe('a,b');
      expect(value(byId.get(gmtShiftId)!, 'start')).toBe('Tue, 17 Mar 2009 15:00:00');
      expect(value(byId.get(gmtShiftId)!, 'stop')).toBe('Tue, 17 Mar 2009 16:45:00');
    }
    // A date read back is accepted again as it was read, and means the same instant.
    const shown = expectObject(await call(me, 'get', `/shift/${gmtShiftId}.xml`), 200, expectShift);
    const again = await call(
      me,
      'put',
      `/shift/${gmtShiftId}.xml`,
      `<shift><start>${value(shown, 'start')}</start><stop>${value(shown, 'stop')}</stop></shift>`,
    );
    expect(value(expectObject(again, 200, expectShift), 'start')).toBe('Tue, 17 Mar 2009 15:00:00');
    const stored = await storedShift(me, gmtShiftId);
    expect(instant(stored.start)).toBe(instant('2009-03-17T14:00:00Z'));
    expect(instant(stored.stop)).toBe(instant('2009-03-17T15:45:00Z'));
  });

  test('punches in and out, with Project::PunchedIn, Project::PunchedOut and Project::ProjectInactive', async () => {
    const running = async () =>
      (
        await t.gqlOk(me, '{ shifts { nodes { legacyId stop project { legacyId } } } }')
      ).shifts.nodes.filter((s: { stop: unknown }) => s.stop === null);

    expectError(
      await call(me, 'post', `/project/${projectId}/punch_out.xml`),
      422,
      'Project::PunchedOut',
    );

    const before = Date.now();
    const punchedIn = expectObject(
      await call(me, 'post', `/project/${projectId}/punch_in.xml`),
      200,
      expectProject,
    );
    expect(intValue(punchedIn, 'id')).toBe(projectId);
    expect(
      (await running()).map((s: { project: { legacyId: number } }) => s.project.legacyId),
    ).toEqual([projectId]);

    // The running shift: no stop, start now, written as wall time in its zone.
    const listed = expectList(
      await call(me, 'get', `/project/${projectId}/shifts.xml`),
      'shifts',
      expectShift,
    ).filter((s) => value(s, 'stop') === null);
    expect(listed).toHaveLength(1);
    const runningShift = await storedShift(me, intValue(listed[0]!, 'id'));
    expect(instant(runningShift.start)!).toBeGreaterThanOrEqual(
      Math.floor(before / 1000) * 1000 - 1000,
    );
    expect(value(listed[0]!, 'start')).toBe(
      legacyWallTime(runningShift.start, runningShift.timeZone),
    );

    expectError(
      await call(me, 'post', `/project/${projectId}/punch_in.xml`),
      422,
      'Project::PunchedIn',
    );
    expect(await running()).toHaveLength(1);

    expectError(
      await call(me, 'post', `/project/${inactiveProjectId}/punch_in.xml`),
      422,
      'Project::ProjectInactive',
    );
    expect(
      (await running()).map((s: { project: { legacyId: number } }) => s.project.legacyId),
    ).toEqual([projectId]);

    // Punching in elsewhere punches out of the running project.
    expectObject(
      await call(me, 'post', `/project/${otherProjectId}/punch_in.xml`),
      200,
      expectProject,
    );
    expect(
      (await running()).map((s: { project: { legacyId: number } }) => s.project.legacyId),
    ).toEqual([otherProjectId]);
    expectError(
      await call(me, 'post', `/project/${projectId}/punch_out.xml`),
      422,
      'Project::PunchedOut',
    );

    const punchedOut = expectObject(
      await call(me, 'post', `/project/${otherProjectId}/punch_out.xml`),
      200,
      expectProject,
    );
    expect(intValue(punchedOut, 'id')).toBe(otherProjectId);
    expect(await running()).toHaveLength(0);
    expectError(
      await call(me, 'post', `/project/${otherProjectId}/punch_out.xml`),
      422,
      'Project::PunchedOut',
    );

    // Every shift of the client, running ones closed, reads back in the legacy form.
    for (const shift of expectList(await call(me, 'get', '/shifts.xml'), 'shifts', expectShift)) {
      expect(value(shift, 'stop')).toMatch(LEGACY_TIME);
    }
  });
});

// =============================================================================================
// 4. Rails' plural paths, the root element of a body, the running state of a project
// =============================================================================================

const PLURAL: Readonly<Record<string, string>> = {
  company: 'companies',
  project: 'projects',
  shift: 'shifts',
};

/** Rails' plural of a path of the table: `/project/{project}/shifts.xml` → `/projects/{project}/shifts.xml`. */
const pluralOf = (template: string): string =>
  template.replace(
    /^\/(company|project|shift)\//,
    (_match, singular: string) => `/${PLURAL[singular]}/`,
  );

/** Every route of the table whose path starts with a singular item, in its plural form, with its singular. */
const PLURAL_ROUTES: readonly (readonly [Method, string, string])[] = ROUTES.filter(
  ([, template]) => pluralOf(template) !== template,
).map(([method, template]) => [method, pluralOf(template), template] as const);

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * A request with its path sent exactly as given, over a real socket: supertest would drop the
 * bare trailing `?` that HTTParty appends to every path.
 */
async function rawCall(
  who: Credentials,
  method: string,
  path: string,
  body?: string,
): Promise<request.Response> {
  const base = new URL(await t.listen());
  const answer = await new Promise<RawAnswer>((resolve, reject) => {
    const req = httpRequest(
      {
        host: base.hostname,
        port: base.port,
        method,
        path,
        auth: `${who.login}:${who.password}`,
        headers:
          body === undefined
            ? {}
            : { 'Content-Type': 'application/xml', 'Content-Length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
  // The fields the helpers above read.
  return answer as unknown as request.Response;
}

describe('plural paths, as Rails clients build them from the collection name', () => {
  let mine: Fixture;
  let theirs: Fixture;

  beforeAll(async () => {
    mine = await fixture();
    theirs = await fixture();
  });

  test.each(PLURAL_ROUTES)(
    '%s %s is a route: 401 without credentials, as %s',
    async (method, plural, singular) => {
      const res = await call(undefined, method, fill(plural, mine), BODIES[singular]);
      expectError(res, 401, /^User::/);
    },
  );

  test.each(PLURAL_ROUTES)(
    "%s %s: a missing id and another account's id are the 404 of %s",
    async (method, plural, singular) => {
      const kind = /\{(\w+)\}/.exec(plural)![1] as IdKind;
      const body = BODIES[singular];
      for (const id of [UNKNOWN_ID, theirs[kind]]) {
        const res = await call(mine.account, method, fill(plural, { ...mine, [kind]: id }), body);
        expectError(res, 404, `${LEGACY_ENTITY[kind]}::Error`);
        const same = await call(
          mine.account,
          method,
          fill(singular, { ...mine, [kind]: id }),
          body,
        );
        expect(res.text).toBe(same.text);
      }
    },
  );

  test.each(PLURAL_ROUTES.filter(([method]) => method === 'get'))(
    '%s %s answers what %s answers',
    async (method, plural, singular) => {
      const res = await call(mine.account, method, fill(plural, mine));
      expect(res.status).toBe(200);
      expect(res.text).toBe((await call(mine.account, method, fill(singular, mine))).text);
    },
  );

  test.each([
    ['post', '/companies/{company}.xml', 'DELETE, GET, PUT'],
    ['delete', '/companies/{company}/projects.xml', 'GET, POST'],
    ['post', '/projects/{project}.xml', 'DELETE, GET, PUT'],
    ['get', '/projects/{project}/punch_in.xml', 'POST'],
    ['put', '/projects/{project}/punch_out.xml', 'POST'],
    ['put', '/projects/{project}/shifts.xml', 'GET, POST'],
    ['post', '/shifts/{shift}.xml', 'DELETE, GET, PUT'],
  ] as const)('405 with Allow for %s %s', async (method, template, allow) => {
    const res = await call(undefined, method, fill(template, mine));
    expectError(res, 405, /^\w+::Error$/);
    expect(res.headers.allow).toBe(allow);
  });

  test('create, update, punch and delete through plural paths', async () => {
    const me = mine.account;
    const project = expectCreated(
      await call(
        me,
        'post',
        `/companies/${mine.company}/projects.xml`,
        '<project><name>Plural</name></project>',
      ),
      'project',
      expectProject,
    ).id;
    const updated = expectObject(
      await call(
        me,
        'put',
        `/projects/${project}.xml`,
        '<project><notes>via plural</notes></project>',
      ),
      200,
      expectProject,
    );
    expect(value(updated, 'notes')).toBe('via plural');
    expect(
      runningState(
        expectObject(
          await call(me, 'post', `/projects/${project}/punch_in.xml`),
          200,
          expectProject,
        ),
      ).running,
    ).toBe(true);
    expect(
      runningState(
        expectObject(
          await call(me, 'post', `/projects/${project}/punch_out.xml`),
          200,
          expectProject,
        ),
      ).running,
    ).toBe(false);

    const shift = expectCreated(
      await call(
        me,
        'post',
        `/projects/${project}/shifts.xml`,
        '<shift><start>Thu, 19 Mar 2009 08:00:00 GMT</start><stop>Thu, 19 Mar 2009 09:00:00 GMT</stop></shift>',
      ),
      'shift',
      expectShift,
    ).id;
    expect(
      value(
        expectObject(
          await call(me, 'put', `/shifts/${shift}.xml`, '<shift><notes>plural</notes></shift>'),
          200,
          expectShift,
        ),
        'notes',
      ),
    ).toBe('plural');
    expectObject(await call(me, 'delete', `/shifts/${shift}.xml`), 200, expectShift);
    expectError(await call(me, 'get', `/shift/${shift}.xml`), 404, 'Shift::Error');

    expect(
      value(
        expectObject(
          await call(
            me,
            'put',
            `/companies/${mine.company}.xml`,
            '<company><notes>plural</notes></company>',
          ),
          200,
          expectCompany,
        ),
        'notes',
      ),
    ).toBe('plural');
    expectObject(await call(me, 'delete', `/projects/${project}.xml`), 200, expectProject);
    expectError(await call(me, 'get', `/project/${project}.xml`), 404, 'Project::Error');
  });

  test('a 2009 HTTParty client: plural paths with a bare trailing "?" and a body without a declaration', async () => {
    const me = mine.account;
    const created = await rawCall(
      me,
      'POST',
      `/projects/${mine.project}/shifts.xml?`,
      '<shift><start>Wed, 25 Nov 2026 18:45:29</start><stop>Wed, 25 Nov 2026 19:45:29</stop>' +
        '<time_zone>Australia/Perth</time_zone><notes>n</notes><tag_list>a, b</tag_list></shift>',
    );
    const { id, doc } = expectCreated(created, 'shift', expectShift);
    expect(intValue(doc, 'project_id')).toBe(mine.project);
    // Wall time in Perth (UTC+8, no summer time that year).
    expect(await storedShift(me, id)).toEqual({
      start: expect.stringMatching(/^2026-11-25T10:45:29(\.000)?Z$/),
      stop: expect.stringMatching(/^2026-11-25T11:45:29(\.000)?Z$/),
      timeZone: 'Australia/Perth',
      notes: 'n',
      tagList: ['a', 'b'],
    });

    const listed = expectList(
      await rawCall(me, 'GET', `/projects/${mine.project}/shifts.xml?`),
      'shifts',
      expectShift,
    ).find((shift) => intValue(shift, 'id') === id)!;
    expect(value(listed, 'start')).toBe('Wed, 25 Nov 2026 18:45:29');
    expect(value(listed, 'stop')).toBe('Wed, 25 Nov 2026 19:45:29');
    expect(value(listed, 'taglist')).toBe('a,b');
    expectObject(await rawCall(me, 'GET', `/shifts/${id}.xml?`), 200, expectShift);
    expectObject(await rawCall(me, 'DELETE', `/shifts/${id}.xml?`), 200, expectShift);
  });
});

describe('the root element of a body names the resource of the path', () => {
  let mine: Fixture;

  beforeAll(async () => {
    mine = await fixture();
  });

  /** Everything the account holds, as the lists show it. */
  const everything = async (): Promise<string[]> =>
    Promise.all(
      ['/staff.xml', '/companies.xml', '/projects.xml', '/shifts.xml'].map(
        async (path) => (await call(mine.account, 'get', path)).text,
      ),
    );

  test.each([
    [
      'post',
      '/companies.xml',
      '<project><name>Not a company</name></project>',
      'company',
      'Company::Error',
    ],
    [
      'put',
      '/company/{company}.xml',
      '<project><name>Renamed</name></project>',
      'company',
      'Company::Error',
    ],
    ['put', '/companies/{company}.xml', '<project/>', 'company', 'Company::Error'],
    [
      'post',
      '/staff.xml',
      '<staff><username>rooted_staff</username><password>rooted-password</password></staff>',
      'user',
      'User::Error',
    ],
    [
      'put',
      '/staff/{user}.xml',
      '<company><first_name>Changed</first_name></company>',
      'user',
      'User::Error',
    ],
    [
      'post',
      '/company/{company}/projects.xml',
      '<company><name>Not a project</name></company>',
      'project',
      'Project::Error',
    ],
    [
      'put',
      '/project/{project}.xml',
      '<shift><notes>Changed</notes></shift>',
      'project',
      'Project::Error',
    ],
    [
      'post',
      '/projects/{project}/shifts.xml',
      '<project><start>Fri, 20 Mar 2009 08:00:00 GMT</start><stop>Fri, 20 Mar 2009 09:00:00 GMT</stop></project>',
      'shift',
      'Shift::Error',
    ],
    ['put', '/shift/{shift}.xml', '<user><notes>Changed</notes></user>', 'shift', 'Shift::Error'],
  ] as const)(
    '%s %s with %s is 422; nothing is stored',
    async (method, template, body, root, type) => {
      const before = await everything();
      const res = await call(mine.account, method, fill(template, mine), body);
      expect(expectError(res, 422, type)).toEqual([
        `The body's root element must be <${root}> on this path`,
      ]);
      expect(await everything()).toEqual(before);
    },
  );
});

describe('a running project says so, as the JSON project does', () => {
  test('running and started_at in show, both lists and the punch answers', async () => {
    const { account: me, company, project } = await fixture();
    /** The project's running state in its show answer and in both lists. */
    const everywhere = async () => {
      const listed = async (path: string) =>
        expectList(await call(me, 'get', path), 'projects', expectProject).find(
          (p) => intValue(p, 'id') === project,
        )!;
      return [
        expectObject(await call(me, 'get', `/project/${project}.xml`), 200, expectProject),
        await listed('/projects.xml'),
        await listed(`/company/${company}/projects.xml`),
      ].map(runningState);
    };
    const stopped = { running: false, startedAt: null };
    expect(await everywhere()).toEqual([stopped, stopped, stopped]);

    const punchedIn = runningState(
      expectObject(await call(me, 'post', `/project/${project}/punch_in.xml`), 200, expectProject),
    );
    const shifts = (
      await t.gqlOk(me, 'query($p: Int) { shifts(projectLegacyId: $p) { nodes { start stop } } }', {
        p: project,
      })
    ).shifts.nodes as { start: string; stop: string | null }[];
    const start = shifts.find((s) => s.stop === null)!.start;
    // Unix seconds of the running shift's start, as the JSON project's started_at.
    const running = { running: true, startedAt: Math.floor(instant(start)! / 1000) };
    expect(punchedIn).toEqual(running);
    expect(await everywhere()).toEqual([running, running, running]);

    const punchedOut = runningState(
      expectObject(await call(me, 'post', `/project/${project}/punch_out.xml`), 200, expectProject),
    );
    expect(punchedOut).toEqual(stopped);
    expect(await everywhere()).toEqual([stopped, stopped, stopped]);
  });
});
