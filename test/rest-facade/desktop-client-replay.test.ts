/**
 * The 2009 desktop client (`eighty_eight_miles.rb` of the original Mac application, HTTParty over
 * Ruby's Net::HTTP, Basic auth, XML), replayed from its source byte for byte:
 *
 * - every request goes to a Rails plural path with HTTParty's empty query appended: `opts` is
 *   `{:query => {}}`, whose `to_params` is "", so the URI gets a bare `?` (`/projects.xml?`);
 * - `initialize_http_header` replaces Net::HTTP's default headers, so a GET carries only
 *   `Authorization`, then Net::HTTP's `Connection: close` and `Host`; the shift POST carries
 *   `Content-Type: application/xml` first and `Content-Length` last;
 * - `load_projects` keeps `projects["projects"]` whose `active == "true"`, as `Project.new(id.to_i,
 *   name.to_s)`; `check_error!` raises on `{"errors" => {"error" => ...}}` (the client then says
 *   "The credentials you entered seem to be invalid");
 * - clocking out posts `<shift>` with wall-time `start`/`stop` (`%a, %d %b %Y %H:%M:%S`), the
 *   preference's `time_zone`, `CGI.escapeHTML`'d `notes` and `tag_list` to
 *   `/projects/:id/shifts.xml`, and ignores the answer: a refusal would lose the user's time.
 *
 * Answers are read with a port of the client's own XML-to-hash rules (`test/support/httparty-xml.ts`).
 */
import { httpartyXmlToHash, type RubyValue } from '../support/httparty-xml';
import {
  recordingServer,
  requestBytes,
  sendBytes,
  type RecordingServer,
} from '../support/raw-http';
import {
  DEFAULT_COST_BUDGETS,
  startTestApp,
  type Credentials,
  type TestApp,
} from '../support/test-app';

let t: TestApp;
let server: RecordingServer;

beforeAll(async () => {
  t = await startTestApp(DEFAULT_COST_BUDGETS);
  server = await recordingServer(t);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

type Hash = { [key: string]: RubyValue };

class ClientError extends Error {}

/** `EightyEightMiles.new(user, pass, tz)`: the client's API object, one per set of credentials. */
class EightyEightMiles {
  projects: { id: number; name: string }[] = [];

  constructor(
    readonly who: Credentials,
    readonly timeZone = 'Australia/Perth',
  ) {}

  private authorization(): string {
    // Net::HTTP's basic_auth: ["user:pass"].pack('m') without line breaks.
    return `Basic ${Buffer.from(`${this.who.login}:${this.who.password}`).toString('base64')}`;
  }

  private async send(method: 'GET' | 'POST', path: string, body?: string) {
    const url = `${path}?`;
    const headers: [string, string][] =
      body === undefined
        ? [['Authorization', this.authorization()]]
        : [
            ['Content-Type', 'application/xml'],
            ['Authorization', this.authorization()],
          ];
    headers.push(['Connection', 'close'], ['Host', `127.0.0.1:${server.port}`]);
    if (body !== undefined) headers.push(['Content-Length', String(Buffer.byteLength(body))]);
    const answer = await sendBytes(
      server.port,
      requestBytes(`${method} ${url} HTTP/1.1`, headers, body),
    );
    expect(server.seen.at(-1)).toEqual({ method, url, rawHeaders: headers.flat() });
    return answer;
  }

  /** `self.class.get(path, opts)`, parsed by content type as HTTParty does, then `check_error!`. */
  private async get(path: string): Promise<Hash> {
    const answer = await this.send('GET', path);
    expect(answer.headers['content-type']).toMatch(/^application\/xml/);
    const hash = httpartyXmlToHash(answer.text) as Hash;
    const errors = hash.errors;
    if (errors && typeof errors === 'object' && !Array.isArray(errors) && 'error' in errors) {
      throw new ClientError(String(errors.error));
    }
    return hash;
  }

  async loadProjects(): Promise<void> {
    const hash = await this.get('/projects.xml');
    for (const project of hash.projects as Hash[]) {
      if (project.active === 'true')
        this.projects.push({ id: Number(project.id), name: String(project.name) });
    }
  }

  loadShiftsFor(project: { id: number }): Promise<Hash> {
    return this.get(`/projects/${project.id}/shifts.xml`);
  }

  loadCompanies(): Promise<Hash> {
    return this.get('/companies.xml');
  }

  loadStaff(): Promise<Hash> {
    return this.get('/staff.xml');
  }

  /** `clock_time`: the shift as `Project#xml_for_shift` writes it; the answer is ignored. */
  async clockTime(
    project: { id: number },
    start: string,
    stop: string,
    message: string,
    tags: string,
  ) {
    const escapeHtml = (s: string) =>
      s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/>/g, '&gt;').replace(/</g, '&lt;');
    const xml =
      `<shift><start>${start}</start><stop>${stop}</stop><time_zone>${this.timeZone}</time_zone>` +
      `<notes>${escapeHtml(message)}</notes><tag_list>${escapeHtml(tags)}</tag_list></shift>`;
    return this.send('POST', `/projects/${project.id}/shifts.xml`, xml);
  }
}

interface World {
  owner: Credentials;
  staff: Credentials & { id: string };
  websiteId: number;
}

async function world(): Promise<World> {
  const owner = await t.newAccount();
  const staff = await t.newStaff(owner, { type: 'STAFF' });
  const create = (mutation: string, input: Record<string, unknown>) =>
    t.create(owner, mutation, input);
  const company = await create('createCompany', { name: 'Acme', visibility: 'PUBLIC' });
  const website = await create('createProject', {
    name: 'Website',
    companyId: company.id,
    visibility: 'PUBLIC',
  });
  await create('createProject', {
    name: 'Archive',
    companyId: company.id,
    visibility: 'PUBLIC',
    active: false,
  });
  return { owner, staff, websiteId: website.legacyId };
}

describe.each(['staff', 'owner'] as const)('as the %s', (role) => {
  test('signing in lists the active projects; clocking out stores the shift, in the wall time of its zone', async () => {
    const w = await world();
    const client = new EightyEightMiles(role === 'staff' ? w.staff : w.owner);
    await client.loadProjects();
    expect(client.projects).toEqual([{ id: w.websiteId, name: 'Website' }]);

    const answer = await client.clockTime(
      client.projects[0]!,
      'Wed, 25 Nov 2026 18:45:29',
      'Wed, 25 Nov 2026 20:15:00',
      'Fixed <b> & "quotes"',
      'design, client',
    );
    // The client ignores the answer; the service still says what happened.
    expect(answer.status).toBe(201);

    const shifts = (await client.loadShiftsFor(client.projects[0]!)).shifts as Hash[];
    expect(shifts).toHaveLength(1);
    expect(shifts[0]).toMatchObject({
      project_id: w.websiteId,
      start: 'Wed, 25 Nov 2026 18:45:29',
      stop: 'Wed, 25 Nov 2026 20:15:00',
      time_zone: 'Australia/Perth',
      notes: 'Fixed <b> & "quotes"',
    });
    const stored = await t.gqlOk(
      role === 'staff' ? w.staff : w.owner,
      '{ shifts { nodes { start stop notes tagList timeZone user { login } } } }',
    );
    expect(stored.shifts.nodes).toEqual([
      {
        // Perth is UTC+8 all year.
        start: '2026-11-25T10:45:29.000Z',
        stop: '2026-11-25T12:15:00.000Z',
        notes: 'Fixed <b> & "quotes"',
        tagList: ['design', 'client'],
        timeZone: 'Australia/Perth',
        user: { login: client.who.login },
      },
    ]);
  });

  test('the other lists it reads answer without errors', async () => {
    const w = await world();
    const client = new EightyEightMiles(role === 'staff' ? w.staff : w.owner);
    expect((await client.loadCompanies()).companies).toEqual([
      expect.objectContaining({ name: 'Acme' }),
    ]);
    const users = (await client.loadStaff()).users as Hash[];
    expect(users.map((u) => u.username)).toContain(client.who.login);
  });
});

test('wrong credentials raise in check_error!, so the client asks for them again', async () => {
  const w = await world();
  const client = new EightyEightMiles({ login: w.staff.login, password: 'not-the-password' });
  await expect(client.loadProjects()).rejects.toThrow(ClientError);
});

test('a shift posted to a missing project is refused with an XML error, and nothing is stored', async () => {
  const w = await world();
  const client = new EightyEightMiles(w.staff);
  const answer = await client.clockTime(
    { id: 2_000_000_000 },
    'Wed, 25 Nov 2026 18:45:29',
    'Wed, 25 Nov 2026 20:15:00',
    '',
    '',
  );
  expect(answer.status).toBe(404);
  expect(httpartyXmlToHash(answer.text)).toEqual({ errors: { error: expect.any(String) } });
  expect((await t.gqlOk(w.owner, '{ shifts { totalCount } }')).shifts.totalCount).toBe(0);
});
