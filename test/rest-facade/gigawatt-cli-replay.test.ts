/**
 * The official 88 Miles command-line client (the Ruby gem `gigawatt`, command `88miles`), replayed
 * from its source: every request it makes, byte for byte as oauth2 0.9.2 over Faraday 0.8.8 and
 * Ruby's Net::HTTP write it, and what each command then does with the answer.
 *
 * - `setup`: `OAuth2::Client#auth_code.authorize_url(response_type: 'token', redirect_uri:)` opens
 *   the approval page in a browser; the user pastes the address they land on, which must match
 *   `/\A<redirect_uri>#access_token=.+&state=\Z/`; the token is the fragment's `access_token`. Then
 *   `Cache#refresh!` reads `/api/1/companies.json`, `/api/1/projects.json?where=active=%22true%22`
 *   (Ruby's `URI::encode` leaves the `=`) and `/api/1/staff.json`.
 * - `init`: prints `companies[project["company_uuid"]]["name"]` for every active project.
 * - `start --activity`: `POST punch_in.json` with the form body `activity_uuid=<uuid>`; the answer's
 *   `response` is saved as the linked project. `stop --notes`: `running_total = now - started_at`
 *   from that file, then `POST punch_out.json?notes=…` with no body.
 * - `status`: `grand_total`, `running`, `started_at` and `time_limit` of the saved project.
 * - `log`: `/api/1/projects/:uuid/shifts.json`; each shift's `user_uuid` is looked up in the staff
 *   cache, `start`/`stop` go through `Time.parse`. `sync`: `/api/1/projects/:uuid.json`.
 * - Any status outside 2xx is an `OAuth2::Error`, which ends the command ("Access to your 88 Miles
 *   may have been revoked").
 *
 * The only change is the site: the client's development mode talks to `http://localhost:3000`;
 * here that is the test server's address. `seen` proves what reached the server.
 */
import { OAuthProtocol } from '../../src/modules/oauth';
import { registerForEveryAccount, submitApproval } from '../support/oauth-approval';
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

const DEVELOPMENT_CLIENT_ID = 'NjtVKz6Di3ccJjn2AGwZKhSxYBX4QHPJ5w1LrZOR';
const PRODUCTION_CLIENT_ID = 'hhWZrEF6YTlPUKrggiesnjXAFViLa8FBZNNUtr8L';
const PRODUCTION_REDIRECT = 'https://88miles.net/oauth/authorized';
const WHOLE_SECONDS_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

let t: TestApp;
let server: RecordingServer;
let site: string;

beforeAll(async () => {
  t = await startTestApp(DEFAULT_COST_BUDGETS);
  server = await recordingServer(t);
  site = `http://127.0.0.1:${server.port}`;
  // The operator registers the client's two ids once, for every account, with the CLI
  // (docs/authentication.md); the users below belong to other accounts.
  const operator = await t.newAccount();
  for (const [clientId, redirect] of [
    [DEVELOPMENT_CLIENT_ID, `${site}/oauth/authorized`],
    [PRODUCTION_CLIENT_ID, PRODUCTION_REDIRECT],
  ] as const) {
    await registerForEveryAccount(t, operator, {
      name: '88 Miles CLI',
      protocol: OAuthProtocol.OAUTH2,
      confidential: false,
      clientId,
      redirectUris: [redirect],
    });
  }
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

/** oauth2 0.9.2 raises OAuth2::Error for any answer outside 2xx; the CLI then gives up. */
class OAuth2Error extends Error {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string>,
  ) {
    super(`OAuth2::Error ${status}`);
  }
}

/** What Ruby does with nil in arithmetic or a lookup: a NoMethodError that ends the command. */
function rubyNumber(value: unknown, what: string): number {
  if (typeof value !== 'number')
    throw new TypeError(`NoMethodError: ${what} is ${JSON.stringify(value)}`);
  return value;
}

type Json = Record<string, any>;

/** The command-line client of one user, with its settings directory and linked project file. */
class Gigawatt {
  accessKey = '';
  companies: Json[] = [];
  projects: Json[] = [];
  staff: Json[] = [];
  projectFile: Json | undefined;

  constructor(
    readonly redirectUri: string,
    readonly clientId: string,
  ) {}

  /**
   * `client.auth_code.authorize_url(:response_type => 'token', :redirect_uri => redirect_uri)`:
   * Faraday merges the gem's `response_type=code, client_id` with the symbol keys (the later
   * `response_type` wins) and escapes everything but letters, digits and `.~_-`.
   */
  authorizeUrl(): string {
    const escape = (s: string) =>
      encodeURIComponent(s).replace(
        /[!'()*]/g,
        (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
      );
    return `${site}/oauth/authorize?response_type=token&client_id=${this.clientId}&redirect_uri=${escape(this.redirectUri)}`;
  }

  /** `ask("URL: ") { url.validate = /\A#{redirect_uri}#access_token=.+&state=\Z/ }`, then get_access_key. */
  pasteAddress(url: string): void {
    // Ruby interpolates redirect_uri into the pattern unescaped, as this does.
    if (!new RegExp(`^${this.redirectUri}#access_token=.+&state=$`).test(url)) {
      throw new Error(`That URL doesn't look right: ${url}`);
    }
    const token = new URL(url).hash
      .slice(1)
      .split('&')
      .map((kv) => kv.split('='))
      .find((kv) => kv[0] === 'access_token');
    this.accessKey = token![1]!;
  }

  /** Faraday 0.8.8 + Net::HTTP's header order: the connection's, the token's, then Net::HTTP's own. */
  private headers(contentType?: string): [string, string][] {
    return [
      ['User-Agent', 'Faraday v0.8.8'],
      ['Authorization', `Bearer ${this.accessKey}`],
      ...(contentType ? [['Content-Type', contentType] as [string, string]] : []),
      ['Accept-Encoding', 'gzip;q=1.0,deflate;q=0.6,identity;q=0.3'],
      ['Accept', '*/*'],
      ['Connection', 'close'],
      ['Host', `127.0.0.1:${server.port}`],
    ];
  }

  async request(method: 'GET' | 'POST', path: string, form?: string): Promise<Json> {
    const headers = this.headers(
      form === undefined ? undefined : 'application/x-www-form-urlencoded',
    );
    if (form !== undefined) headers.push(['Content-Length', String(Buffer.byteLength(form))]);
    const answer = await sendBytes(
      server.port,
      requestBytes(`${method} ${path} HTTP/1.1`, headers, form),
    );
    expect(server.seen.at(-1)).toEqual({ method, url: path, rawHeaders: headers.flat() });
    if (answer.status < 200 || answer.status > 299)
      throw new OAuth2Error(answer.status, answer.headers);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    return JSON.parse(answer.text) as Json;
  }

  /** `88miles setup` after the paste: `cache.refresh!`. */
  async refresh(): Promise<void> {
    this.companies = (await this.request('GET', '/api/1/companies.json')).response;
    this.projects = (
      await this.request('GET', '/api/1/projects.json?where=active=%22true%22')
    ).response;
    this.staff = (await this.request('GET', '/api/1/staff.json')).response;
    for (const list of [this.companies, this.projects, this.staff])
      expect(Array.isArray(list)).toBe(true);
  }

  /** `88miles init`: the menu of "<company>: <project>", then the chosen project is linked. */
  init(projectName: string): string[] {
    const byUuid = new Map(this.companies.map((c) => [c.uuid, c]));
    const menu = this.projects.map((p) => {
      const company = byUuid.get(p.company_uuid);
      if (!company)
        throw new TypeError(
          `NoMethodError: undefined method [] for nil (company ${p.company_uuid})`,
        );
      return `${company.name}: ${p.name}`;
    });
    this.projectFile = this.projects.find((p) => p.name === projectName);
    expect(this.projectFile).toBeDefined();
    return menu;
  }

  /** `88miles start [--activity]`. */
  async start(activityName?: string): Promise<void> {
    const project = this.projectFile!;
    const activity =
      activityName && (project.activities as Json[]).find((a) => a.name === activityName);
    const path = `/api/1/projects/${project.uuid}/punch_in.json`;
    const answer = activity
      ? await this.request('POST', path, `activity_uuid=${activity.uuid}`)
      : await this.request('POST', path);
    this.projectFile = answer.response;
  }

  /** `88miles status` at the instant `now` (Unix seconds): the numbers it prints. */
  status(now: number): {
    grandTotal: number;
    remaining: number | undefined;
    runningTotal: number | undefined;
  } {
    const p = this.projectFile!;
    let grandTotal = rubyNumber(p.grand_total, 'grand_total');
    const runningTotal = p.running ? now - rubyNumber(p.started_at, 'started_at') : undefined;
    if (p.running) grandTotal += runningTotal!;
    const remaining = p.time_limit
      ? rubyNumber(p.time_limit, 'time_limit') - grandTotal
      : undefined;
    return { grandTotal, remaining, runningTotal };
  }

  /** `88miles stop --notes "..."` at the instant `now`: the shift time it prints. */
  async stop(notes: string, now: number): Promise<number> {
    const project = this.projectFile!;
    const runningTotal = now - rubyNumber(project.started_at, 'started_at');
    // Faraday's params: spaces as '+', the rest percent-escaped.
    const query = encodeURIComponent(notes).replace(/%20/g, '+');
    this.projectFile = (
      await this.request('POST', `/api/1/projects/${project.uuid}/punch_out.json?notes=${query}`)
    ).response;
    return runningTotal;
  }

  /** `88miles log`: one line per shift, as the client prints it. */
  async log(): Promise<{ staff: string; start: number; stop: number | null; notes: string }[]> {
    const shifts = (
      await this.request('GET', `/api/1/projects/${this.projectFile!.uuid}/shifts.json`)
    ).response as Json[];
    const staff = new Map(this.staff.map((s) => [s.uuid, s]));
    return shifts.map((shift) => {
      const member = staff.get(shift.user_uuid);
      expect(shift.start).toMatch(WHOLE_SECONDS_UTC);
      if (shift.stop !== null) expect(shift.stop).toMatch(WHOLE_SECONDS_UTC);
      return {
        staff: member
          ? `${member.first_name} ${member.last_name} <${member.email_address}>`
          : '[Deleted user]',
        start: Date.parse(shift.start) / 1000,
        stop: shift.stop === null ? null : Date.parse(shift.stop) / 1000,
        notes: String(shift.notes ?? '') === '' ? 'No notes' : shift.notes,
      };
    });
  }

  /** `88miles sync --project`. */
  async syncProject(): Promise<void> {
    this.projectFile = (
      await this.request('GET', `/api/1/projects/${this.projectFile!.uuid}.json`)
    ).response;
  }
}

interface World {
  owner: Credentials & { ownerId: string };
  staff: Credentials & { id: string };
  company: string;
  website: string;
}

/** Acme (public) with Website (public, a 2-hour limit, activity Design) and Archive (inactive). */
async function world(): Promise<World> {
  const owner = await t.newAccount();
  const staff = await t.newStaff(owner, {
    type: 'STAFF',
    firstName: 'Sam',
    lastName: 'Staff',
    emailAddress: 'sam@example.com',
  });
  const create = async (mutation: string, input: Json) =>
    (await t.create(owner, mutation, input)).id;
  const company = await create('createCompany', { name: 'Acme', visibility: 'PUBLIC' });
  const website = await create('createProject', {
    name: 'Website',
    companyId: company,
    visibility: 'PUBLIC',
    timeLimitString: '2h',
  });
  await create('createProject', {
    name: 'Archive',
    companyId: company,
    visibility: 'PUBLIC',
    active: false,
  });
  await create('createActivity', { projectId: website, name: 'Design' });
  return { owner, staff, company, website };
}

/** `88miles setup` for `who`: the approval in the browser, the paste, the first sync. */
async function setUp(
  who: Credentials,
  cli = new Gigawatt(`${site}/oauth/authorized`, DEVELOPMENT_CLIENT_ID),
): Promise<Gigawatt> {
  const approved = await submitApproval(cli.authorizeUrl(), who);
  expect(approved.status).toBe(303);
  cli.pasteAddress(approved.headers.get('location')!);
  await cli.refresh();
  return cli;
}

describe.each(['staff', 'owner'] as const)('as the %s, every command of the CLI', (role) => {
  test('setup, init, start --activity, status, stop --notes, log and sync', async () => {
    const w = await world();
    const who = role === 'staff' ? w.staff : w.owner;
    const whoId = role === 'staff' ? w.staff.id : w.owner.ownerId;

    const cli = await setUp(who);
    expect(cli.staff.map((s) => s.uuid)).toContain(whoId);
    expect(cli.projects.map((p) => p.name)).toEqual(['Website']);
    expect(cli.init('Website')).toEqual(['Acme: Website']);

    await cli.start('Design');
    const started = cli.projectFile!;
    expect(started).toMatchObject({
      uuid: w.website,
      running: true,
      current_shift: { stop: null },
    });
    expect(started.current_shift.start).toMatch(WHOLE_SECONDS_UTC);
    expect(started.started_at).toBe(Date.parse(started.current_shift.start) / 1000);
    const design = (started.activities as Json[]).find((a) => a.name === 'Design');
    expect(started.current_shift.activity_uuid).toBe(design!.uuid);

    const status = cli.status(started.started_at + 90);
    expect(status.runningTotal).toBe(90);
    expect(status.remaining).toBe(7200 - status.grandTotal);

    const shiftTime = await cli.stop('Fixed the bug', started.started_at + 90);
    expect(shiftTime).toBe(90);
    expect(cli.projectFile!.running ?? false).toBe(false);
    expect(cli.status(started.started_at + 90).runningTotal).toBeUndefined();

    const log = await cli.log();
    expect(log).toEqual([
      {
        staff: role === 'staff' ? 'Sam Staff <sam@example.com>' : expect.stringMatching(/<.+@.+>$/),
        start: started.started_at,
        stop: expect.any(Number),
        notes: 'Fixed the bug',
      },
    ]);
    expect(log[0]!.stop).toBeGreaterThanOrEqual(log[0]!.start);

    await cli.syncProject();
    expect(cli.projectFile).toMatchObject({
      uuid: w.website,
      name: 'Website',
      grand_total: expect.any(Number),
    });
  });
});

test("a staff member's staff list holds themselves only", async () => {
  const w = await world();
  const cli = await setUp(w.staff);
  expect(cli.staff).toHaveLength(1);
  expect(cli.staff[0]).toMatchObject({
    uuid: w.staff.id,
    login: w.staff.login,
    first_name: 'Sam',
    type: 'staff',
    active: 'true',
  });
});

test('the production id lands on its https://88miles.net address, which the production pattern accepts', async () => {
  const w = await world();
  const cli = new Gigawatt(PRODUCTION_REDIRECT, PRODUCTION_CLIENT_ID);
  const approved = await submitApproval(cli.authorizeUrl(), w.staff);
  const landing = approved.headers.get('location')!;
  expect(landing).toMatch(
    /^https:\/\/88miles\.net\/oauth\/authorized#access_token=[\w-]+&token_type=Bearer&expires_in=1209600&state=$/,
  );
  cli.pasteAddress(landing);
  // The token works here, whatever name the service answers to.
  await cli.refresh();
  expect(cli.staff.map((s) => s.uuid)).toEqual([w.staff.id]);
});

test('a revoked token: every command gets 401 with a Bearer invalid_token challenge, and nothing changes', async () => {
  const w = await world();
  const cli = await setUp(w.staff);
  cli.init('Website');
  await t.gqlOk(
    w.staff,
    `mutation { revokeOAuthAuthorization(input: { clientKey: "${DEVELOPMENT_CLIENT_ID}" }) { revoked } }`,
  );
  for (const command of [
    () => cli.refresh(),
    () => cli.start(),
    () => cli.syncProject(),
    () => cli.log(),
  ]) {
    const error = await command().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OAuth2Error);
    expect((error as OAuth2Error).status).toBe(401);
    expect((error as OAuth2Error).headers['www-authenticate']).toMatch(
      /^Bearer realm="timetrack", error="invalid_token"/,
    );
  }
  const running = await t.gqlOk(
    w.owner,
    '{ shifts(filter: { stop: { isNull: true } }) { totalCount } }',
  );
  expect(running.shifts.totalCount).toBe(0);
});
