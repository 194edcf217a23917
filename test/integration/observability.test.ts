import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { LogCapture, type LogRecord } from '../support/log-capture';
import { proxiedDatabase, type ProxiedDatabase } from '../support/proxied-database';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * Logs, probes and metrics through the real stack: the app over in-process HTTP, a real database.
 * Structured logs carry one request id per request (echoed in X-Request-Id) and never a
 * credential; /healthz and /readyz tell a load balancer whether to send traffic, also while the
 * database is away; /metrics counts requests by route template, never by raw path.
 */

jest.setTimeout(120_000);

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus' text format, the samples only. */
function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(
      /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g,
    ))
      labels[name!] = value!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the one sample of `name` whose labels include `labels`; 0 if there is none. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (found.length > 1)
    throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value ?? 0;
}

async function scrape(t: TestApp, token?: string): Promise<Sample[]> {
  let req = request(t.app.express).get('/metrics');
  if (token) req = req.set('authorization', `Bearer ${token}`);
  const res = await req;
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain/);
  return parseMetrics(res.text);
}

/**
 * A geocoder that drops every connection: the HTTP geocoder's request fails at once and it logs a
 * warning. The test owns the port for its whole run (a closed port could be taken by another
 * test worker's server meanwhile and answer).
 */
async function droppingServer(): Promise<http.Server> {
  const server = http.createServer((req) => req.socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const VIEWER = 'query ViewerProbe { viewer { staff { id login } } }';

describe('on a working database', () => {
  let t: TestApp;
  let owner: Credentials;
  const logs = new LogCapture();
  let geocoder: http.Server;

  beforeAll(async () => {
    geocoder = await droppingServer();
    t = await startTestApp(
      {
        LOG_LEVEL: 'info',
        GEOCODER: 'http',
        GEOCODER_URL: `http://127.0.0.1:${(geocoder.address() as AddressInfo).port}/search`,
      },
      { logDestination: logs },
    );
    // A paid plan: a new user queues the owner's confirmation e-mail in the outbox.
    owner = await t.newAccount({ staffMax: 5 });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => geocoder?.close(resolve));
  });

  /** The lines logged with request id `id`. */
  const linesOf = (id: string): LogRecord[] => logs.records().filter((r) => r.reqId === id);

  test('/healthz answers 200 without asking the database', async () => {
    const statements = await t.countStatements(async () => {
      const res = await request(t.app.express).get('/healthz');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'ok' });
    });
    expect(statements).toBe(0);
  });

  test('/readyz answers 200 on a reachable, migrated database; later probes cost one select', async () => {
    const res = await request(t.app.express).get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok' } });
    // The migrations were found applied: the next probe only pings.
    expect(await t.countStatements(() => request(t.app.express).get('/readyz').expect(200))).toBe(
      1,
    );
  });

  test('/metrics counts requests by interface, route template, method and status; never a raw id', async () => {
    const staff = await t.newStaff(owner);
    const before = await scrape(t);
    const graphqlLabels = {
      interface: 'graphql',
      route: 'ViewerProbe',
      method: 'POST',
      status: '200',
    };
    const jsonLabels = {
      interface: 'json',
      route: '/api/1/staff/:uuid.json',
      method: 'GET',
      status: '200',
    };
    const xmlLabels = { interface: 'xml', route: '/staff/:id.xml', method: 'GET', status: '200' };

    await t.gqlOk(owner, VIEWER);
    await t.gqlOk(owner, VIEWER);
    await request(t.app.express)
      .get(`/api/1/staff/${staff.id}.json`)
      .auth(owner.login, owner.password)
      .expect(200);
    await request(t.app.express)
      .get(`/staff/${staff.legacyId}.xml`)
      .auth(owner.login, owner.password)
      .expect(200);
    // No name in the document: anonymous; a path no route has: unmatched.
    await t.gqlOk(owner, '{ viewer { staff { id } } }');
    await request(t.app.express)
      .get(`/api/1/nothing/${staff.id}.json`)
      .auth(owner.login, owner.password)
      .expect(404);
    await request(t.app.express).get(`/no/such/${staff.id}`).expect(404);
    // A browser opening the IDE is the page, not an anonymous operation.
    await request(t.app.express).get('/graphql').set('accept', 'text/html').expect(200);

    const after = await scrape(t);
    const delta = (labels: Record<string, string>) =>
      valueOf(after, 'http_requests_total', labels) -
      valueOf(before, 'http_requests_total', labels);
    expect(delta(graphqlLabels)).toBe(2);
    expect(delta(jsonLabels)).toBe(1);
    expect(delta(xmlLabels)).toBe(1);
    expect(delta({ interface: 'graphql', route: 'anonymous', method: 'POST', status: '200' })).toBe(
      1,
    );
    expect(delta({ interface: 'json', route: 'unmatched', method: 'GET', status: '404' })).toBe(1);
    expect(delta({ interface: 'other', route: 'unmatched', method: 'GET', status: '404' })).toBe(1);
    expect(delta({ interface: 'graphql', route: '/graphql', method: 'GET', status: '200' })).toBe(
      1,
    );
    expect(delta({ interface: 'graphql', route: 'anonymous', method: 'GET', status: '200' })).toBe(
      0,
    );
    // The histogram has the same labels but the status.
    const { status: _status, ...timed } = jsonLabels;
    expect(
      valueOf(after, 'http_request_duration_seconds_count', timed) -
        valueOf(before, 'http_request_duration_seconds_count', timed),
    ).toBe(1);
    expect(valueOf(after, 'http_request_duration_seconds_bucket', { ...timed, le: '+Inf' })).toBe(
      valueOf(after, 'http_request_duration_seconds_count', timed),
    );

    for (const sample of after.filter((s) => s.name.startsWith('http_'))) {
      for (const value of Object.values(sample.labels)) {
        expect(value).not.toMatch(UUID);
        expect(value).not.toContain(String(staff.legacyId) + '.xml');
      }
    }
  });

  test('/metrics shows the database pool, the outbox backlog and the process', async () => {
    const before = valueOf(await scrape(t), 'outbox_backlog', { kind: 'email', given_up: 'false' });
    await t.newStaff(owner);
    const samples = await scrape(t);
    expect(valueOf(samples, 'outbox_backlog', { kind: 'email', given_up: 'false' })).toBe(
      before + 1,
    );
    expect(samples.some((s) => s.name === 'outbox_backlog' && s.labels.kind === 'webhook')).toBe(
      true,
    );
    const poolMax = t.db.kind === 'embedded' ? 1 : t.config.db.poolMax;
    expect(valueOf(samples, 'db_pool_connections_max')).toBe(poolMax);
    for (const name of [
      'db_pool_connections_used',
      'db_pool_connections_free',
      'db_pool_acquires_pending',
      'db_pool_creates_pending',
    ]) {
      const value = samples.find((s) => s.name === name)?.value;
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThanOrEqual(poolMax);
    }
    expect(valueOf(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(samples.some((s) => s.name === 'nodejs_eventloop_lag_seconds')).toBe(true);
  });

  test('every line of a request carries its request id, which X-Request-Id echoes', async () => {
    logs.clear();
    // A company with a full address: the (failing) geocoder warns during the request.
    const res = await request(t.app.express)
      .post('/api/1/companies.json')
      .auth(owner.login, owner.password)
      .send({
        company: {
          name: 'Logged',
          main_address: 'Unter den Linden 1',
          main_city: 'Berlin',
          main_state: 'Berlin',
          main_postcode: '10117',
          main_country: 'Germany',
        },
      });
    expect(res.status).toBe(200);
    const id = res.headers['x-request-id'];
    expect(id).toMatch(UUID);
    const lines = linesOf(id);
    expect(lines.map((l) => l.msg)).toEqual([
      expect.stringMatching(/^geocoder: .* failed/),
      'request completed',
    ]);
    expect(lines[1]).toMatchObject({
      level: 'info',
      interface: 'json',
      route: '/api/1/companies.json',
      req: { method: 'POST', url: '/api/1/companies.json' },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
    // Nothing was logged during the request without its id.
    expect(logs.records().filter((r) => r.reqId !== id)).toEqual([]);
  });

  test('a sane X-Request-Id is kept, anything else replaced', async () => {
    const kept = await request(t.app.express)
      .post('/graphql')
      .auth(owner.login, owner.password)
      .set('x-request-id', 'lb-7f3a.2_x')
      .send({ query: VIEWER });
    expect(kept.headers['x-request-id']).toBe('lb-7f3a.2_x');
    expect(linesOf('lb-7f3a.2_x')).toEqual([
      expect.objectContaining({
        msg: 'request completed',
        interface: 'graphql',
        route: 'ViewerProbe',
      }),
    ]);
    for (const insane of ['a b', 'x'.repeat(129), 'id"}{', 'ü']) {
      const res = await request(t.app.express).get('/healthz').set('x-request-id', insane);
      expect(res.headers['x-request-id']).toMatch(UUID);
    }
  });

  test('credentials never reach the log: Authorization, Cookie, passwords in bodies, tokens in URLs', async () => {
    logs.clear();
    const password = 'Body-Password-4711';
    const created = await request(t.app.express)
      .post('/api/1/staff.json')
      .auth(owner.login, owner.password)
      .set('cookie', 'session=Cookie-Secret-0815')
      .set('proxy-authorization', 'Basic UHJveHktU2VjcmV0')
      .send({
        staff: { login: `logged_${Date.now()}`, password, first_name: 'Lou', last_name: 'Logged' },
      });
    expect(created.status).toBe(200);
    const gql = await request(t.app.express)
      .post('/graphql')
      .auth(owner.login, owner.password)
      .send({
        query:
          'mutation M($input: CreateStaffInput!) { createStaff(input: $input) { staff { id } } }',
        variables: {
          input: { login: `gql_${Date.now()}`, password, firstName: 'G', lastName: 'Q' },
        },
      });
    expect(gql.status).toBe(200);
    const tokens = await request(t.app.express).get(
      '/api/1/staff.json?access_token=Url-Token-1234&oauth_signature=Url-Signature-5678&order=login',
    );
    expect(tokens.status).toBe(401);
    const wrong = await request(t.app.express)
      .post('/graphql')
      .auth(owner.login, 'Wrong-Password-999')
      .send({ query: VIEWER });
    expect(wrong.status).toBe(401);

    const text = logs.text();
    const basic = Buffer.from(`${owner.login}:${owner.password}`).toString('base64');
    const wrongBasic = Buffer.from(`${owner.login}:Wrong-Password-999`).toString('base64');
    for (const secret of [
      password,
      owner.password,
      basic,
      wrongBasic,
      'Wrong-Password-999',
      'Cookie-Secret-0815',
      'UHJveHktU2VjcmV0',
      'Url-Token-1234',
      'Url-Signature-5678',
    ]) {
      expect(text).not.toContain(secret);
    }
    // What was redacted is still visible as such, and the rest of the URL is kept.
    const staffLine = linesOf(created.headers['x-request-id']).find(
      (l) => l.msg === 'request completed',
    )!;
    expect(staffLine.req.headers).toMatchObject({
      authorization: '[Redacted]',
      cookie: '[Redacted]',
      'proxy-authorization': '[Redacted]',
    });
    const tokenLine = linesOf(tokens.headers['x-request-id']).find(
      (l) => l.msg === 'request completed',
    )!;
    expect(tokenLine.req.url).toBe(
      '/api/1/staff.json?access_token=[Redacted]&oauth_signature=[Redacted]&order=login',
    );
    expect(tokenLine).toMatchObject({
      interface: 'json',
      route: '/api/1/staff.json',
      res: { statusCode: 401 },
    });
  });
});

describe('while the database goes away and comes back', () => {
  const TOKEN = 'scrape-token-0123456789abcdef';
  let t: TestApp;
  let db: ProxiedDatabase;

  beforeAll(async () => {
    db = await proxiedDatabase();
    t = await startTestApp({ METRICS_TOKEN: TOKEN }, { target: db.target });
  });
  afterAll(() => t?.close());

  /** Polls /readyz until it answers `status`; returns that answer. */
  async function readyzUntil(status: number, withinMs: number): Promise<request.Response> {
    const deadline = Date.now() + withinMs;
    for (;;) {
      const res = await request(t.app.express).get('/readyz');
      if (res.status === status || Date.now() > deadline) return res;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  test('METRICS_TOKEN: /metrics answers only its bearer', async () => {
    const none = await request(t.app.express).get('/metrics');
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    expect(none.body.error.code).toBe('UNAUTHENTICATED');
    expect(none.text).not.toContain('http_requests_total');
    expect(
      (await request(t.app.express).get('/metrics').set('authorization', `Bearer ${TOKEN}x`))
        .status,
    ).toBe(401);
    expect((await request(t.app.express).get('/metrics').auth('prometheus', TOKEN)).status).toBe(
      401,
    );
    expect(valueOf(await scrape(t, TOKEN), 'db_pool_connections_max')).toBe(
      t.db.kind === 'embedded' ? 1 : t.config.db.poolMax,
    );
  });

  test('/readyz is 200, 503 naming the database while it is unreachable, and 200 again after', async () => {
    expect((await readyzUntil(200, 0)).status).toBe(200);

    await db.proxy.cut();
    const down = await readyzUntil(503, 15_000);
    expect(down.status).toBe(503);
    expect(down.body).toEqual({
      status: 'unavailable',
      checks: { database: expect.stringMatching(/^(unreachable|timeout)$/), migrations: 'ok' },
    });
    // The process itself is fine, and the scrape still answers (without the outbox count).
    expect((await request(t.app.express).get('/healthz')).status).toBe(200);
    const scraped = await scrape(t, TOKEN);
    expect(scraped.some((s) => s.name === 'outbox_backlog')).toBe(false);
    expect(scraped.some((s) => s.name === 'db_pool_connections_max')).toBe(true);

    await db.proxy.restore();
    const up = await readyzUntil(200, 15_000);
    expect(up.status).toBe(200);
    expect(up.body).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok' } });
    expect(
      valueOf(await scrape(t, TOKEN), 'outbox_backlog', { kind: 'email', given_up: 'false' }),
    ).toBe(0);
  });

  test('a database that does not answer at all (a partition) is a 503 after the probe deadline, not a hang', async () => {
    await db.proxy.blackhole();
    // The probe's own deadline ends the wait (`timeout`, not a connection error); a hang would
    // run into the test's timeout instead.
    const silent = await request(t.app.express).get('/readyz');
    expect(silent.status).toBe(503);
    expect(silent.body.checks.database).toBe('timeout');
    await db.proxy.restore();
    expect((await readyzUntil(200, 20_000)).status).toBe(200);
  });
});
