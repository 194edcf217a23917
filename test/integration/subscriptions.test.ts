/**
 * Live updates: GraphQL subscriptions over graphql-ws at /graphql, with a real graphql-ws client
 * on a real port. Changes made through GraphQL and the JSON facade reach subscribers as they
 * commit, limited to the account and to the shifts each subscriber may see; with a PostgreSQL
 * server, a punch made on another server process arrives through LISTEN/NOTIFY.
 *
 * "Nothing arrived" is shown by making a later change the subscriber may see and asserting that it
 * is the next event. Waits are hang detectors only.
 */
import { createClient, type Client } from 'graphql-ws';
import request from 'supertest';
import WebSocket from 'ws';
import { SHIFT_EVENTS_TOPIC } from '../../src/modules/events/live-shift-events';
import { runCli, stopCli, waitForOutput } from '../support/cli-process';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

const EVENT_FIELDS =
  'kind occurredAt shift: snapshot { id: shiftId projectId userId start stop notes }';
const WAIT_MS = 5000;

interface Event {
  kind: string;
  occurredAt: string;
  shift: {
    id: string;
    projectId: string;
    userId: string;
    start: string;
    stop: string | null;
    notes: string | null;
  };
}

/**
 * The server holds a subscription once it registers it with its pub/sub; a change committed before
 * that is never delivered. The app's pub/sub (@graphql-yoga/subscription) registers a subscription
 * by adding a listener for `SHIFT_EVENTS:<account>` to an EventTarget: observing those calls makes
 * the registration an event the test can wait for (the listener is added unchanged).
 */
const registration = {
  count: 0,
  /** Subscribers whose ready() was called: each registers once. */
  awaited: 0,
  waiting: [] as (() => void)[],
};
const addEventListener = EventTarget.prototype.addEventListener;
beforeAll(() => {
  EventTarget.prototype.addEventListener = function (
    this: EventTarget,
    ...args: Parameters<EventTarget['addEventListener']>
  ) {
    addEventListener.apply(this, args);
    if (args[0].startsWith(`${SHIFT_EVENTS_TOPIC}:`)) {
      registration.count += 1;
      for (const wake of registration.waiting.splice(0)) wake();
    }
  };
});
afterAll(() => {
  EventTarget.prototype.addEventListener = addEventListener;
});

/** A graphql-ws subscriber whose events queue up until the test takes them. */
class Subscriber {
  private readonly events: Event[] = [];
  private readonly waiting: ((event: Event) => void)[] = [];
  private readonly client: Client;
  private stopIterating: (() => void) | undefined;
  readonly closed: Promise<{ code: number; reason: string }>;
  errors: unknown[] = [];
  private readonly onError: (() => void)[] = [];

  constructor(
    url: string,
    who: Credentials | undefined,
    query = `subscription { shiftEvents { ${EVENT_FIELDS} } }`,
    headerName = 'authorization',
  ) {
    let onClosed!: (value: { code: number; reason: string }) => void;
    this.closed = new Promise((resolve) => (onClosed = resolve));
    this.client = createClient({
      url: url.replace(/^http/, 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: false,
      connectionParams: who
        ? {
            [headerName]: `Basic ${Buffer.from(`${who.login}:${who.password}`).toString('base64')}`,
          }
        : {},
      on: { closed: (event) => onClosed(event as { code: number; reason: string }) },
      onNonLazyError: () => undefined,
    });
    this.stopIterating = this.client.subscribe<{ shiftEvents: Event }>(
      { query },
      {
        next: (result) => {
          if (result.errors) {
            this.errors.push(...result.errors);
            for (const wake of this.onError.splice(0)) wake();
          }
          const event = result.data?.shiftEvents;
          if (!event) return;
          const waiter = this.waiting.shift();
          if (waiter) waiter(event);
          else this.events.push(event);
        },
        error: (error) => {
          this.errors.push(error);
          for (const wake of this.onError.splice(0)) wake();
        },
        complete: () => undefined,
      },
    );
  }

  /** Resolves once the server holds the subscription: the connection is up and the subscribe message handled. */
  async ready(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no connection')), WAIT_MS);
      this.client.on('connected', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    // The subscribe message follows the acknowledgement on the same socket; the server registers
    // it with the pub/sub after checking it. Every subscriber made ready registers once, so once
    // as many registrations happened as ready() calls, this one's has (whichever came first).
    registration.awaited += 1;
    const needed = registration.awaited;
    while (registration.count < needed)
      await new Promise<void>((resolve) => registration.waiting.push(resolve));
  }

  /** Resolves with the errors once the server has refused the subscription. */
  async refused(): Promise<unknown[]> {
    while (this.errors.length === 0)
      await new Promise<void>((resolve) => this.onError.push(resolve));
    return this.errors;
  }

  next(): Promise<Event> {
    const queued = this.events.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(`no event within ${WAIT_MS} ms; errors: ${JSON.stringify(this.errors)}`),
          ),
        WAIT_MS,
      );
      this.waiting.push((event) => {
        clearTimeout(timer);
        resolve(event);
      });
    });
  }

  async close(): Promise<void> {
    this.stopIterating?.();
    await this.client.dispose();
  }
}

let t: TestApp;
let url: string;
let owner: Credentials & { ownerId: string };
let staff: Credentials & { id: string };
let project: { id: string; legacyId: number };
const subscribers: Subscriber[] = [];

function subscribe(who: Credentials | undefined, query?: string): Subscriber {
  const subscriber = new Subscriber(url, who, query);
  subscribers.push(subscriber);
  return subscriber;
}

beforeAll(async () => {
  t = await startTestApp();
  url = await t.listen();
  owner = await t.newAccount();
  staff = await t.newStaff(owner);
  const company = await t.gqlOk<{ createCompany: { company: { id: string } } }>(
    owner,
    'mutation { createCompany(input: { name: "Live Ltd", visibility: PUBLIC }) { company { id } } }',
  );
  project = (
    await t.gqlOk<{ createProject: { project: { id: string; legacyId: number } } }>(
      owner,
      'mutation($c: ID!) { createProject(input: { companyId: $c, name: "Live", visibility: PUBLIC }) { project { id legacyId } } }',
      {
        c: company.createCompany.company.id,
      },
    )
  ).createProject.project;
});
afterEach(async () => {
  await Promise.all(subscribers.splice(0).map((s) => s.close()));
  for (const who of [owner, staff])
    await request(t.app.express)
      .post(`/api/1/projects/${project.id}/punch_out.json`)
      .auth(who.login, who.password);
});
afterAll(() => t?.close());

const punchIn = (who: Credentials) =>
  request(t.app.express)
    .post(`/api/1/projects/${project.id}/punch_in.json`)
    .auth(who.login, who.password);

test('punches and shift changes reach the owner as they commit, whatever the interface', async () => {
  const owners = subscribe(owner);
  await owners.ready();

  await t.gqlOk(
    owner,
    'mutation($id: Int!) { punchIn(input: { project: { legacyId: $id }, notes: "via GraphQL" }) { project { running } } }',
    { id: project.legacyId },
  );
  const punchedIn = await owners.next();
  expect(punchedIn).toMatchObject({
    kind: 'PUNCHED_IN',
    shift: { projectId: project.id, userId: owner.ownerId, stop: null, notes: 'via GraphQL' },
  });

  expect(
    (
      await request(t.app.express)
        .post(`/api/1/projects/${project.id}/punch_out.json`)
        .auth(owner.login, owner.password)
    ).status,
  ).toBe(200);
  const punchedOut = await owners.next();
  expect(punchedOut).toMatchObject({ kind: 'PUNCHED_OUT', shift: { id: punchedIn.shift.id } });
  expect(punchedOut.shift.stop).not.toBeNull();

  const created = await t.gqlOk<{ createShift: { shift: { id: string } } }>(
    owner,
    'mutation($p: ID!) { createShift(input: { projectId: $p, start: "2026-01-05T09:00:00Z", stop: "2026-01-05T10:00:00Z" }) { shift { id } } }',
    { p: project.id },
  );
  expect(await owners.next()).toMatchObject({
    kind: 'SHIFT_CREATED',
    shift: { id: created.createShift.shift.id, start: '2026-01-05T09:00:00.000Z' },
  });
  await t.gqlOk(
    owner,
    'mutation($id: ID!) { updateShift(input: { shift: { id: $id }, patch: { notes: "changed" } }) { shift { id } } }',
    { id: created.createShift.shift.id },
  );
  expect(await owners.next()).toMatchObject({
    kind: 'SHIFT_UPDATED',
    shift: { id: created.createShift.shift.id, notes: 'changed' },
  });
  await t.gqlOk(
    owner,
    'mutation($id: ID!) { deleteShift(input: { shift: { id: $id } }) { shift { id } } }',
    {
      id: created.createShift.shift.id,
    },
  );
  expect(await owners.next()).toMatchObject({
    kind: 'SHIFT_DELETED',
    shift: { id: created.createShift.shift.id, notes: 'changed' },
  });
});

test('a staff member hears only of their own shifts; another account hears nothing', async () => {
  const stranger = await t.newAccount();
  const staffs = subscribe(staff);
  const strangers = subscribe(stranger);
  await Promise.all([staffs.ready(), strangers.ready()]);

  expect((await punchIn(owner)).status).toBe(200);
  expect((await punchIn(staff)).status).toBe(200);
  const heard = await staffs.next();
  expect(heard).toMatchObject({ kind: 'PUNCHED_IN', shift: { userId: staff.id } });

  // The stranger's own change is the first thing the stranger hears.
  const theirs = await t.gqlOk<{ createCompany: { company: { id: string } } }>(
    stranger,
    'mutation { createCompany(input: { name: "Elsewhere" }) { company { id } } }',
  );
  const theirProject = await t.gqlOk<{ createProject: { project: { id: string } } }>(
    stranger,
    'mutation($c: ID!) { createProject(input: { companyId: $c, name: "Own" }) { project { id } } }',
    { c: theirs.createCompany.company.id },
  );
  await request(t.app.express)
    .post(`/api/1/projects/${theirProject.createProject.project.id}/punch_in.json`)
    .auth(stranger.login, stranger.password);
  expect(await strangers.next()).toMatchObject({
    kind: 'PUNCHED_IN',
    shift: { projectId: theirProject.createProject.project.id },
  });
});

test('a refused change tells no one; kinds and project filters apply', async () => {
  const punchesOnly = subscribe(
    owner,
    `subscription { shiftEvents(kinds: [PUNCHED_OUT], projectId: "${project.id}") { ${EVENT_FIELDS} } }`,
  );
  const all = subscribe(owner);
  await Promise.all([punchesOnly.ready(), all.ready()]);

  expect((await punchIn(owner)).status).toBe(200);
  expect((await punchIn(owner)).status).toBe(422); // already punched in: rolled back
  expect(
    (
      await request(t.app.express)
        .post(`/api/1/projects/${project.id}/punch_out.json`)
        .auth(owner.login, owner.password)
    ).status,
  ).toBe(200);

  expect((await all.next()).kind).toBe('PUNCHED_IN');
  expect((await all.next()).kind).toBe('PUNCHED_OUT');
  expect((await punchesOnly.next()).kind).toBe('PUNCHED_OUT');
});

test('a connection without valid credentials is closed with 4403', async () => {
  const wrong = subscribe({ login: owner.login, password: 'not-the-password' });
  expect((await wrong.closed).code).toBe(4403);
  const none = subscribe(undefined);
  expect((await none.closed).code).toBe(4403);
});

test('connectionParams name the header as HTTP does, in any case', async () => {
  const capitalised = new Subscriber(url, owner, undefined, 'Authorization');
  subscribers.push(capitalised);
  await capitalised.ready();
  expect((await punchIn(owner)).status).toBe(200);
  expect(await capitalised.next()).toMatchObject({
    kind: 'PUNCHED_IN',
    shift: { projectId: project.id },
  });
});

test('a subscription posted over HTTP is a 400 that says where subscriptions live', async () => {
  const res = await t.gql(owner, `subscription { shiftEvents { ${EVENT_FIELDS} } }`);
  expect(res.status).toBe(400);
  expect(res.errors).toEqual([
    expect.objectContaining({
      message: expect.stringMatching(/WebSocket/),
      extensions: expect.objectContaining({ code: 'BAD_REQUEST' }),
    }),
  ]);
});

test('subscriptions pass the same guards as queries', async () => {
  const aliases = Array.from({ length: 40 }, (_, i) => `a${i}: kind`).join(' ');
  const greedy = subscribe(owner, `subscription { shiftEvents { ${aliases} } }`);
  expect(JSON.stringify(await greedy.refused())).toMatch(/alias/i);
});

// A second server process on the same PostgreSQL: the punch is made there, heard here.
(process.env.TEST_DATABASE_URL ? test : test.skip)(
  'a punch made on another server process arrives through LISTEN/NOTIFY',
  async () => {
    const dbUrl = (t.config.database as { url: string }).url;
    const second = runCli('second server', ['serve'], {
      ...process.env,
      DATABASE_URL: dbUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      NODE_ENV: 'test',
      PASSWORD_HASH_MEMORY_KIB: '1024',
    });
    try {
      const [, other] = await waitForOutput(/listening on (http:\/\/[^ \s]+)/, second);
      const owners = subscribe(owner);
      await owners.ready();
      const res = await fetch(`${other}/api/1/projects/${project.id}/punch_in.json`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${owner.login}:${owner.password}`).toString('base64')}`,
        },
      });
      expect(res.status).toBe(200);
      expect(await owners.next()).toMatchObject({
        kind: 'PUNCHED_IN',
        shift: { projectId: project.id, userId: owner.ownerId },
      });
    } finally {
      await stopCli(second, 30_000);
    }
  },
);
