/**
 * Replays, byte for byte, the requests of the original command-line client as docs/json-api.md
 * ("Legacy compatibility notes") describes them, against a listening server, with Node's raw
 * `http.request` (and a bare TCP socket where even `http.request` would add a header the client
 * does not send):
 *
 * - `GET /api/1/projects.json?where=active="true"`: the inner `=` and the quotes unescaped
 *   (supertest/superagent would percent-encode the quotes, so it is not used here);
 * - punch in with the body `activity_uuid=<uuid>` as `application/x-www-form-urlencoded`;
 * - punch out with `?notes=Fixed+the+bug` and no body at all (no content-type, no length);
 * - the same through `/api/1/companies/:company_uuid/projects/...`.
 *
 * A wrapper around the app records the request line and headers exactly as they arrived, so each
 * test also proves what went on the wire.
 */
import http from 'node:http';
import net from 'node:net';
import { recordingServer, sendBytes, type RecordingServer } from '../support/raw-http';
import {
  DEFAULT_COST_BUDGETS,
  startTestApp,
  type Credentials,
  type TestApp,
} from '../support/test-app';

let t: TestApp;
let server: RecordingServer;
let port: number;
let seen: RecordingServer['seen'];

beforeAll(async () => {
  t = await startTestApp(DEFAULT_COST_BUDGETS);
  server = await recordingServer(t);
  port = server.port;
  seen = server.seen;
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: Record<string, any>;
}

function basic(who: Credentials): string {
  return `Basic ${Buffer.from(`${who.login}:${who.password}`).toString('base64')}`;
}

/** The client's fixed header set, in its order. */
function clientHeaders(who: Credentials): [string, string][] {
  return [
    ['Host', `127.0.0.1:${port}`],
    ['Authorization', basic(who)],
    ['Accept', 'application/json'],
    ['Connection', 'close'],
  ];
}

function parseJson(text: string): Record<string, any> {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`not JSON: ${text.slice(0, 300)}`);
  }
}

/**
 * One request through `http.request` with exactly these headers (Node adds Host and Connection only
 * when they are missing, and they never are) and the path exactly as written.
 */
function rawRequest(
  method: string,
  path: string,
  headers: [string, string][],
  body?: string,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path, headers: Object.fromEntries(headers), agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            json: parseJson(text),
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Writes exactly these bytes on a TCP connection and reads the answer until the server closes. */
async function rawBytes(bytes: string): Promise<RawAnswer> {
  const answer = await sendBytes(port, bytes);
  return { ...answer, json: parseJson(answer.text) };
}

/** What the server received last, as a flat [name, value, name, value...] header list. */
function lastSeen() {
  return seen[seen.length - 1]!;
}

function flat(headers: [string, string][]): string[] {
  return headers.flat();
}

// ---------------------------------------------------------------------------------------------
// Fixtures: set up through GraphQL, never through the routes under test.
// ---------------------------------------------------------------------------------------------

async function gqlId(
  who: Credentials,
  mutation: string,
  input: Record<string, unknown>,
): Promise<string> {
  return (await t.create(who, mutation, input)).id;
}

interface World {
  owner: Credentials & { ownerId: string };
  company: string;
  otherCompany: string;
  website: string;
  archive: string;
  support: string;
  activity: string;
  runningStart: string;
}

/**
 * Company A: "Website" (active, 2h 30m limit, the owner punched in 10 minutes ago, plus a finished
 * hour) and "Archive" (inactive). Company B: "Support" (active, no limit) with one activity.
 */
async function world(): Promise<World> {
  const owner = await t.newAccount();
  const company = await gqlId(owner, 'createCompany', { name: 'Acme', visibility: 'PUBLIC' });
  const otherCompany = await gqlId(owner, 'createCompany', {
    name: 'Globex',
    visibility: 'PUBLIC',
  });
  const website = await gqlId(owner, 'createProject', {
    name: 'Website',
    companyId: company,
    timeLimitString: '2h 30m',
  });
  const archive = await gqlId(owner, 'createProject', {
    name: 'Archive',
    companyId: company,
    active: false,
  });
  const support = await gqlId(owner, 'createProject', { name: 'Support', companyId: otherCompany });
  const activity = await gqlId(owner, 'createActivity', { projectId: support, name: 'Phone' });
  await gqlId(owner, 'createShift', {
    projectId: website,
    start: '2024-01-01T09:00:00Z',
    stop: '2024-01-01T10:00:00Z',
  });
  const runningStart = new Date(Date.now() - 600_000).toISOString();
  await gqlId(owner, 'createShift', { projectId: website, start: runningStart });
  return { owner, company, otherCompany, website, archive, support, activity, runningStart };
}

/** What the client reads of each project, with the types it relies on. */
function expectClientProject(p: Record<string, any>): void {
  expect(typeof p.uuid).toBe('string');
  expect(typeof p.name).toBe('string');
  expect(p.active === 'true' || p.active === 'false').toBe(true);
  expect(typeof p.company_uuid).toBe('string');
  expect(typeof p.grand_total).toBe('number');
  expect(Number.isInteger(p.grand_total)).toBe(true);
  expect(p.time_limit === null || Number.isInteger(p.time_limit)).toBe(true);
  // A missing `running` means not running to the client; when present it must be a boolean.
  expect(p.running === undefined || typeof p.running === 'boolean').toBe(true);
  if (p.running === true) {
    expect(Number.isInteger(p.started_at)).toBe(true);
    expect(p.current_shift.stop).toBeNull();
    expect(typeof p.shift_tag_list).toBe('string');
    expect(typeof p.shift_billable).toBe('boolean');
    expect(Number.isInteger(p.running_total)).toBe(true);
  } else {
    expect(p.started_at ?? null).toBeNull();
  }
}

function expectJsonAnswer(answer: RawAnswer, status = 200): void {
  expect({ status: answer.status, body: answer.json }).toMatchObject({ status });
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
}

// ---------------------------------------------------------------------------------------------
// (a) the project list with the raw where
// ---------------------------------------------------------------------------------------------

describe('GET projects.json?where=active="true" (raw inner = and quotes)', () => {
  async function listWithRawWhere(path: string, w: World) {
    const headers = clientHeaders(w.owner);
    const answer = await rawRequest('GET', path, headers);
    expect(lastSeen()).toEqual({ method: 'GET', url: path, rawHeaders: flat(headers) });
    return answer;
  }

  test('flat: the filter applies and every field the client reads is there, typed', async () => {
    const w = await world();
    const path = '/api/1/projects.json?where=active="true"';
    const answer = await listWithRawWhere(path, w);
    expectJsonAnswer(answer);
    expect(Object.keys(answer.json).sort()).toEqual(['count', 'response']);
    const projects = answer.json.response as Record<string, any>[];
    expect(answer.json.count).toBe(2);
    expect(projects.map((p) => p.name).sort()).toEqual(['Support', 'Website']);
    for (const p of projects) expectClientProject(p);

    const website = projects.find((p) => p.name === 'Website')!;
    expect(website).toMatchObject({
      uuid: w.website,
      company_uuid: w.company,
      active: 'true',
      running: true,
      time_limit: 9000,
    });
    expect(website.started_at).toBe(Math.floor(Date.parse(w.runningStart) / 1000));
    expect(website.grand_total).toBeGreaterThanOrEqual(3600 + 600);
    expect(website.grand_total).toBeLessThan(3600 + 600 + 120);
    expect(website.time_left).toBe(9000 - website.grand_total);

    const support = projects.find((p) => p.name === 'Support')!;
    expect(support).toMatchObject({
      uuid: w.support,
      company_uuid: w.otherCompany,
      active: 'true',
      grand_total: 0,
      time_limit: null,
    });
    expect(support.running ?? false).toBe(false);
  });

  test('flat: where=active="false" selects the other side, so the value after the first = is what counts', async () => {
    const w = await world();
    const answer = await listWithRawWhere('/api/1/projects.json?where=active="false"', w);
    expectJsonAnswer(answer);
    expect(answer.json.count).toBe(1);
    expect(answer.json.response.map((p: Record<string, any>) => p.uuid)).toEqual([w.archive]);
    expect(answer.json.response[0].active).toBe('false');
  });

  test('company-nested: /companies/:company_uuid/projects.json?where=active="true"', async () => {
    const w = await world();
    const answer = await listWithRawWhere(
      `/api/1/companies/${w.company}/projects.json?where=active="true"`,
      w,
    );
    expectJsonAnswer(answer);
    expect(answer.json.count).toBe(1);
    const [website] = answer.json.response as Record<string, any>[];
    expectClientProject(website!);
    expect(website).toMatchObject({
      uuid: w.website,
      name: 'Website',
      company_uuid: w.company,
      running: true,
    });
    expect(website!.started_at).toBe(Math.floor(Date.parse(w.runningStart) / 1000));
  });
});

// ---------------------------------------------------------------------------------------------
// (b) punch in with a form-encoded activity_uuid, (c) punch out with notes in the query, no body
// ---------------------------------------------------------------------------------------------

function punchInRequest(w: World, path: string, body: string) {
  const headers: [string, string][] = [
    ['Host', `127.0.0.1:${port}`],
    ['Authorization', basic(w.owner)],
    ['Accept', 'application/json'],
    ['Content-Type', 'application/x-www-form-urlencoded'],
    ['Content-Length', String(Buffer.byteLength(body))],
    ['Connection', 'close'],
  ];
  return { headers, send: () => rawRequest('POST', path, headers, body) };
}

/** The client's form-encoded punch-in to the Support project; the uuid of the shift it starts. */
async function punchInToSupport(w: World, prefix: string): Promise<string> {
  const punchedIn = await punchInRequest(
    w,
    `/api/1${prefix}/projects/${w.support}/punch_in.json`,
    `activity_uuid=${w.activity}`,
  ).send();
  expectJsonAnswer(punchedIn);
  return punchedIn.json.response.current_shift.uuid as string;
}

/** The punch-out request with no body at all: no Content-Type, no Content-Length, nothing after the head. */
function punchOutBytes(w: World, path: string): string {
  return [
    `POST ${path} HTTP/1.1`,
    ...clientHeaders(w.owner).map(([name, value]) => `${name}: ${value}`),
    '',
    '',
  ].join('\r\n');
}

async function shiftNotes(
  w: World,
  shiftId: string,
): Promise<{ notes: string | null; stop: string | null; activityId: string | null }> {
  const data = await t.gqlOk(
    w.owner,
    'query($id: ID) { shift(id: $id) { notes stop activity { id } } }',
    { id: shiftId },
  );
  return {
    notes: data.shift.notes,
    stop: data.shift.stop,
    activityId: data.shift.activity?.id ?? null,
  };
}

async function runningShiftIds(w: World): Promise<string[]> {
  const data = await t.gqlOk(
    w.owner,
    '{ shifts(filter: { stop: { isNull: true } }) { nodes { id project { id } } } }',
  );
  return data.shifts.nodes.map((n: { id: string }) => n.id);
}

describe.each([
  ['flat', (_w: World) => ''],
  ['company-nested', (w: World) => `/companies/${w.otherCompany}`],
])('%s punch in (form body) and punch out (query notes, no body)', (_label, prefix) => {
  test('punch in with activity_uuid=<uuid> form-encoded starts a running shift with that activity', async () => {
    const w = await world();
    const path = `/api/1${prefix(w)}/projects/${w.support}/punch_in.json`;
    const body = `activity_uuid=${w.activity}`;
    const punch = punchInRequest(w, path, body);
    const before = Math.floor(Date.now() / 1000);
    const answer = await punch.send();
    expect(lastSeen()).toEqual({ method: 'POST', url: path, rawHeaders: flat(punch.headers) });

    expectJsonAnswer(answer);
    expect(Object.keys(answer.json)).toEqual(['response']);
    const p = answer.json.response;
    expectClientProject(p);
    expect(p).toMatchObject({
      uuid: w.support,
      name: 'Support',
      company_uuid: w.otherCompany,
      running: true,
      grand_total: expect.any(Number),
    });
    expect(p.current_shift).toMatchObject({
      activity_uuid: w.activity,
      stop: null,
      project_uuid: w.support,
    });
    expect(p.started_at).toBe(Math.floor(Date.parse(p.current_shift.start) / 1000));
    expect(p.started_at).toBeGreaterThanOrEqual(before - 1);
    expect(await shiftNotes(w, p.current_shift.uuid)).toMatchObject({
      activityId: w.activity,
      stop: null,
    });
    // The client's other running project (Website) was punched out: one running shift.
    expect(await runningShiftIds(w)).toEqual([p.current_shift.uuid]);

    // The same request again is the JSON form of Project::PunchedIn.
    const again = await punchInRequest(w, path, body).send();
    expect(again.status).toBe(422);
    expect(again.json.error).toMatchObject({ code: 'PUNCHED_IN', status: 422 });
  });

  test('punch out with ?notes=Fixed+the+bug and no body at all stores "Fixed the bug"', async () => {
    const w = await world();
    const shiftId = await punchInToSupport(w, prefix(w));

    const path = `/api/1${prefix(w)}/projects/${w.support}/punch_out.json?notes=Fixed+the+bug`;
    const bytes = punchOutBytes(w, path);
    const answer = await rawBytes(bytes);
    expect(lastSeen()).toEqual({
      method: 'POST',
      url: path,
      rawHeaders: flat(clientHeaders(w.owner)),
    });

    expectJsonAnswer(answer);
    const p = answer.json.response;
    expectClientProject(p);
    expect(p.uuid).toBe(w.support);
    expect(p.running ?? false).toBe(false);
    expect(p.started_at ?? null).toBeNull();
    expect(p).not.toHaveProperty('current_shift');
    const shift = await shiftNotes(w, shiftId);
    expect(shift.notes).toBe('Fixed the bug');
    expect(shift.stop).not.toBeNull();

    // Punching out again is the JSON form of Project::PunchedOut, and stores nothing.
    const again = await rawBytes(bytes);
    expect(again.status).toBe(422);
    expect(again.json.error).toMatchObject({ code: 'PUNCHED_OUT', status: 422 });
    expect((await shiftNotes(w, shiftId)).notes).toBe('Fixed the bug');
  });

  test('punch out sent by http.request (Content-Length: 0, no Content-Type) works the same', async () => {
    const w = await world();
    const shiftId = await punchInToSupport(w, prefix(w));

    const path = `/api/1${prefix(w)}/projects/${w.support}/punch_out.json?notes=Fixed+the+bug`;
    const headers = clientHeaders(w.owner);
    const answer = await rawRequest('POST', path, headers);
    const received = lastSeen();
    expect(received.url).toBe(path);
    expect(received.rawHeaders).toEqual([...flat(headers), 'Content-Length', '0']);

    expectJsonAnswer(answer);
    expect(answer.json.response.running ?? false).toBe(false);
    expect((await shiftNotes(w, shiftId)).notes).toBe('Fixed the bug');
  });
});

/** Splits the answers of a kept-alive connection by their Content-Length. */
function splitAnswers(all: Buffer): { status: number; json: Record<string, any> }[] {
  const answers: { status: number; json: Record<string, any> }[] = [];
  let at = 0;
  while (at < all.length) {
    const split = all.indexOf('\r\n\r\n', at);
    const head = all.subarray(at, split).toString('latin1');
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1]);
    expect(Number.isInteger(length)).toBe(true);
    const body = all.subarray(split + 4, split + 4 + length).toString('utf8');
    answers.push({ status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(head)?.[1]), json: parseJson(body) });
    at = split + 4 + length;
  }
  return answers;
}

test('on a kept-alive connection the body-less punch out does not swallow the next request', async () => {
  const w = await world();
  const [, ...rest] = clientHeaders(w.owner);
  const lines = (requestLine: string, connection: string) =>
    [
      requestLine,
      `Host: 127.0.0.1:${port}`,
      ...rest.filter(([name]) => name !== 'Connection').map(([n, v]) => `${n}: ${v}`),
      `Connection: ${connection}`,
      '',
      '',
    ].join('\r\n');
  const bytes =
    lines(
      `POST /api/1/projects/${w.website}/punch_out.json?notes=Fixed+the+bug HTTP/1.1`,
      'keep-alive',
    ) + lines(`GET /api/1/projects/${w.website}.json HTTP/1.1`, 'close');
  const all = await new Promise<Buffer>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes, 'latin1'));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => resolve(Buffer.concat(chunks)));
  });
  const [out, shown] = splitAnswers(all);
  expect(out).toMatchObject({ status: 200, json: { response: { uuid: w.website } } });
  expect(out!.json.response.running ?? false).toBe(false);
  // The pipelined GET is parsed as its own request; whether it runs before or after the punch-out
  // commits is not defined (RFC 9112 §9.3.2: a client should not pipeline after a POST), so only
  // its identity is checked here.
  expect(shown).toMatchObject({ status: 200, json: { response: { uuid: w.website } } });
  expect(seen.slice(-2).map((r) => `${r.method} ${r.url}`)).toEqual([
    `POST /api/1/projects/${w.website}/punch_out.json?notes=Fixed+the+bug`,
    `GET /api/1/projects/${w.website}.json`,
  ]);
});

describe('company-nested replays address the project only through its own company', () => {
  test('the client paths with the wrong company are 404 and change nothing', async () => {
    const w = await world();
    const wrong = `/api/1/companies/${w.company}/projects/${w.support}`;
    const punchIn = await punchInRequest(
      w,
      `${wrong}/punch_in.json`,
      `activity_uuid=${w.activity}`,
    ).send();
    expect(punchIn.status).toBe(404);
    expect(punchIn.json.error).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    const running = await runningShiftIds(w);
    expect(running).toHaveLength(1);

    const punchOut = await rawBytes(
      punchOutBytes(
        w,
        `/api/1/companies/${w.otherCompany}/projects/${w.website}/punch_out.json?notes=Fixed+the+bug`,
      ),
    );
    expect(punchOut.status).toBe(404);
    expect(punchOut.json.error).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect(await shiftNotes(w, running[0]!)).toMatchObject({ notes: null, stop: null });
  });
});
