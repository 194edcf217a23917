/**
 * Impossible calendar values (30 February, 24:00, year 0000 or 10000, month 13) are refused on
 * every interface, naming the field, and never rolled over into another date: the JSON facade
 * (shift start/stop, `local_start_as_string`, `where` timestamps, report `from`/`to`), the XML
 * facade (legacy dates), and GraphQL (DateTimeISO inputs). Through HTTP, on a real database.
 */
import { expectError, parseXml } from '../support/legacy-answers';
import { legacyClient } from '../support/legacy-client';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

let t: TestApp;
let owner: Credentials & { ownerLegacyId: number };
let projectId: string;
let projectLegacyId: number;

beforeAll(async () => {
  t = await startTestApp();
  owner = await t.newAccount({ timeZone: 'Europe/Berlin' });
  const company = await t.gqlOk(
    owner,
    'mutation { createCompany(input: { name: "Calendar Ltd", visibility: PUBLIC }) { company { id } } }',
  );
  const project = await t.gqlOk(
    owner,
    'mutation($c: ID!) { createProject(input: { name: "Dates", companyId: $c, visibility: PUBLIC }) { project { id legacyId } } }',
    {
      c: company.createCompany.company.id,
    },
  );
  ({ id: projectId, legacyId: projectLegacyId } = project.createProject.project);
});
afterAll(() => t?.close());

const json = () => legacyClient(t, owner).json;

const xml = (method: 'get' | 'post' | 'put', path: string, body?: string) =>
  legacyClient(t, owner).xml(method, path, body);

/** The starts of every shift stored, so a test can tell that nothing was rolled over and kept. */
async function storedStarts(): Promise<string[]> {
  const data = await t.gqlOk(owner, '{ shifts(first: 500) { nodes { start } } }');
  return data.shifts.nodes.map((s: { start: string }) => s.start).sort();
}

/** RFC 3339 texts that name no moment; JavaScript's Date rolls the first three over. */
const IMPOSSIBLE = [
  '2013-02-30T00:00:00Z',
  '2013-02-29T10:00:00Z', // 2013 is not a leap year
  '2013-04-31T10:00:00Z',
  '2013-02-28T24:00:00Z',
  '2013-02-30 10:00', // the relaxed form old clients send
  '2013-13-01T10:00:00Z',
  '0000-00-00T00:00:00Z',
  '0000-01-01T00:00:00Z',
  '10000-01-01T00:00:00Z',
  '2013-02-28T10:00:00+24:00',
];

test('JSON shift start and stop: impossible values are 422 naming the field, on create and update, and nothing is rolled over', async () => {
  const before = await storedStarts();
  for (const value of IMPOSSIBLE) {
    for (const field of ['start', 'stop']) {
      const shift = { project_uuid: projectId, start: '2013-02-27T09:00:00Z', [field]: value };
      const res = await json().post('/shifts.json', { shift });
      const error = expectError(res, 422, 'VALIDATION_FAILED');
      expect({
        value,
        fields: error.field_errors.map((fe: { field: string }) => fe.field),
      }).toEqual({ value, fields: [field] });
      expect(error.message).toMatch(new RegExp(`^Invalid shift: ${field} `));
    }
  }
  expect(await storedStarts()).toEqual(before);

  // A real leap day is fine; updating it to an impossible one changes nothing.
  const created = await json().post('/shifts.json', {
    shift: { project_uuid: projectId, start: '2012-02-29T10:00:00Z', stop: '2012-02-29T11:00:00Z' },
  });
  expect(created.status).toBe(200);
  expect(Date.parse(created.body.response.start)).toBe(Date.parse('2012-02-29T10:00:00Z'));
  const uuid = created.body.response.uuid;
  const update = await json().put(`/shifts/${uuid}.json`, {
    shift: { stop: '2013-02-30T11:00:00Z' },
  });
  expect(expectError(update, 422, 'VALIDATION_FAILED').field_errors).toEqual([
    { field: 'stop', message: expect.any(String) },
  ]);
  const shown = await json().get(`/shifts/${uuid}.json`);
  expect(Date.parse(shown.body.response.stop)).toBe(Date.parse('2012-02-29T11:00:00Z'));
});

test('JSON local_start_as_string: an impossible date or time is 422, not another date', async () => {
  const before = await storedStarts();
  for (const text of [
    '2013-13-01 10:00',
    '2013-02-28 25:00',
    'Feb 28 2013 25:00',
    '30 Feb 2013 10:00',
    '2013-02-29 10:00',
  ]) {
    const res = await json().post('/shifts.json', {
      shift: { project_uuid: projectId, local_start_as_string: text },
    });
    const error = expectError(res, 422, 'VALIDATION_FAILED');
    expect({ text, fields: error.field_errors.map((fe: { field: string }) => fe.field) }).toEqual({
      text,
      fields: ['local_start_as_string'],
    });
  }
  expect(await storedStarts()).toEqual(before);

  // The same forms with real values are read as wall time in the shift's zone.
  const ok = await json().post('/shifts.json', {
    shift: {
      project_uuid: projectId,
      time_zone: 'Europe/Berlin',
      local_start_as_string: '2013-02-28 10:00',
      local_stop_as_string: 'Feb 28 2013 11:30',
    },
  });
  expect(ok.status).toBe(200);
  expect(Date.parse(ok.body.response.start)).toBe(Date.parse('2013-02-28T09:00:00Z'));
  expect(Date.parse(ok.body.response.stop)).toBe(Date.parse('2013-02-28T10:30:00Z'));
});

test('JSON where values compared as timestamps, and report from/to: impossible values are refused, never rolled', async () => {
  for (const path of ['/shifts.json', '/shifts.csv']) {
    const res = await json().get(
      `${path}?where=${encodeURIComponent('start > "2013-02-30T00:00:00Z"')}`,
    );
    expect({ path, status: res.status }).toEqual({ path, status: 400 });
    expect(res.body.error.message).toMatch(/RFC 3339/);
  }

  const report = (query: Record<string, string>) =>
    json().get(`/report.csv?${new URLSearchParams(query)}`);
  for (const [from, to, fields] of [
    ['2013-02-30T00:00:00Z', '2013-03-31T00:00:00Z', ['from']],
    ['2013-02-01T00:00:00Z', '2013-02-28T24:00:00Z', ['to']],
    ['0000-01-01T00:00:00Z', '10000-01-01T00:00:00Z', ['from', 'to']],
  ] as const) {
    const error = expectError(await report({ from, to }), 422, 'VALIDATION_FAILED');
    expect({
      from,
      to,
      fields: error.field_errors.map((fe: { field: string }) => fe.field),
    }).toEqual({ from, to, fields });
  }
});

test('XML legacy dates: impossible values are 422 with the XML error body naming start, on create and update', async () => {
  const before = await storedStarts();
  for (const start of [
    '28 Feb 2013 24:00:00 GMT', // luxon's ISO reading would make this 1 March
    '28 Feb 2013 24:00:00',
    'Sat, 30 Feb 2013 10:00:00',
    '29 Feb 2013 10:00:00 GMT',
    '31 Apr 2013 10:00:00',
    '1 Jan 0000 10:00:00 GMT',
  ]) {
    const res = await xml(
      'post',
      `/project/${projectLegacyId}/shifts.xml`,
      `<shift><start>${start}</start><time_zone>Europe/Berlin</time_zone></shift>`,
    );
    expect({ start, status: res.status }).toEqual({ start, status: 422 });
    expect(res.headers['content-type']).toMatch(/^application\/xml\b/);
    const errors = parseXml(res.text);
    expect(errors.name).toBe('errors');
    expect(errors.children.map((e) => [e.name, e.attributes.type])).toEqual([
      ['error', 'Shift::Error'],
    ]);
    expect(errors.children[0]!.text).toMatch(/^start /);
  }
  expect(await storedStarts()).toEqual(before);

  const created = await xml(
    'post',
    `/project/${projectLegacyId}/shifts.xml`,
    '<shift><start>Thu, 28 Feb 2013 10:00:00</start><time_zone>Europe/Berlin</time_zone></shift>',
  );
  expect(created.status).toBe(201);
  const id = /<id type="integer">(\d+)<\/id>/.exec(created.text)![1];
  const update = await xml(
    'put',
    `/shift/${id}.xml`,
    '<shift><stop>28 Feb 2013 24:00:00</stop></shift>',
  );
  expect(update.status).toBe(422);
  expect(parseXml(update.text).children[0]!.text).toMatch(/^stop /);
});

test('GraphQL DateTimeISO inputs: impossible values are bad input naming the field, in variables and literals', async () => {
  const create =
    'mutation($input: CreateShiftInput!) { createShift(input: $input) { shift { id } } }';
  for (const start of ['2013-02-30T00:00:00Z', '0000-01-01T00:00:00Z', '2013-02-28T24:00:00Z']) {
    const res = await t.gql(owner, create, { input: { projectId, start } });
    expect(res.errors?.map((e) => e.extensions?.code)).toEqual(['BAD_USER_INPUT']);
    expect(res.errors![0]!.message).toContain('at "input.start"');
  }
  // A filter value is an input too: year 0000 is no year of the calendar PostgreSQL stores.
  const filtered = await t.gql(
    owner,
    '{ shifts(filter: { start: { gt: "0000-01-01T00:00:00Z" } }) { totalCount } }',
  );
  expect(filtered.errors?.map((e) => e.extensions?.code)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
  expect(filtered.errors![0]!.message).toMatch(/DateTimeISO.*0000-01-01T00:00:00Z/);
  const report = await t.gql(
    owner,
    'query($input: ReportInput!) { report(input: $input) { totalCount } }',
    {
      input: { from: '0000-01-01T00:00:00Z', to: '2013-03-01T00:00:00Z', groupBy: [] },
    },
  );
  expect(report.errors?.map((e) => e.extensions?.code)).toEqual(['BAD_USER_INPUT']);
  expect(report.errors![0]!.message).toContain('at "input.from"');
});
