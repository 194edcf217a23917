/**
 * Issue 20, finding 6: an open subscription lasts only as long as the right to it. Disabling the
 * subscriber, changing their role or password, or revoking the token they connected with closes
 * the socket with 4403, and nothing more reaches it. With a PostgreSQL server the change is
 * announced with NOTIFY, so it also closes sockets held by another process on the same database.
 *
 * No test waits on a clock: each awaits the close event itself (jest's timeout is the only bound),
 * and "nothing more arrived" is checked by the ids of changes made after the change of rights.
 */
import { GraphQLSocket, basicAuthorization, LiveSubscription } from '../support/graphql-ws-session';
import { submitApproval } from '../support/oauth-approval';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

const serverDatabase = Boolean(process.env.TEST_DATABASE_URL);

interface HeardShift {
  kind: string;
  shift: { id: string; userId: string };
}

let t: TestApp;
let url: string;
let owner: Credentials & { ownerId: string };
let project: { id: string };
const sockets: GraphQLSocket[] = [];

beforeAll(async () => {
  t = await startTestApp();
  url = await t.listen();
  owner = await t.newAccount();
  const company = await t.create(owner, 'createCompany', {
    name: 'Rights Ltd',
    visibility: 'PUBLIC',
  });
  project = await t.create(owner, 'createProject', {
    companyId: company.id,
    name: 'Watched',
    visibility: 'PUBLIC',
  });
});
afterEach(async () => {
  await Promise.all(sockets.splice(0).map((s) => s.dispose()));
});
afterAll(() => t?.close());

let day = 0;
/** The owner logs an hour on the public project: an event every manager may hear. */
async function ownerShift(app: TestApp = t): Promise<string> {
  day += 1;
  const start = new Date(Date.UTC(2026, 0, 1, 9) + day * 86_400_000);
  const created = await app.create(owner, 'createShift', {
    projectId: project.id,
    start: start.toISOString(),
    stop: new Date(start.getTime() + 3_600_000).toISOString(),
  });
  return created.id;
}

/** A socket with a live shiftEvents subscription that has heard at least one event. */
async function listening(
  authorization: string,
  base = url,
): Promise<{ socket: GraphQLSocket; events: LiveSubscription<HeardShift> }> {
  const socket = new GraphQLSocket(base, authorization);
  sockets.push(socket);
  await socket.connected();
  const events = socket.subscribe(
    'subscription { shiftEvents { kind shift: snapshot { id: shiftId userId } } }',
    (data) => data.shiftEvents as HeardShift,
  );
  await events.primed(() => ownerShift());
  return { socket, events };
}

/**
 * After a change of rights: makes one more change the subscriber could hear, then answers what
 * came first, the close of the socket or that change. Once the socket is closed nothing can
 * arrive on it, so "closed 4403" also means the later change never reached the subscriber.
 */
async function closedBeforeTheNextShift(
  socket: GraphQLSocket,
  events: LiveSubscription<HeardShift>,
): Promise<string> {
  const later = await ownerShift();
  return Promise.race([
    socket.closed.then(({ code }) => `closed ${code}`),
    events.heard((e) => e.shift.id === later).then(() => 'heard a later shift'),
  ]);
}

test('a manager demoted and disabled is cut off: 4403, and no later shift reaches them', async () => {
  const manager = await t.newStaff(owner, { type: 'MANAGER' });
  const { socket, events } = await listening(basicAuthorization(manager));
  expect(events.received[0]).toMatchObject({
    kind: 'SHIFT_CREATED',
    shift: { userId: owner.ownerId },
  });

  await t.gqlOk(
    owner,
    'mutation($id: ID!) { updateStaff(input: { staff: { id: $id }, patch: { type: STAFF, active: false } }) { staff { id } } }',
    { id: manager.id },
  );

  expect(await closedBeforeTheNextShift(socket, events)).toBe('closed 4403');
});

test('a role change alone closes the socket: the demoted manager would otherwise keep hearing of shifts a staff member may not see', async () => {
  const manager = await t.newStaff(owner, { type: 'MANAGER' });
  const { socket, events } = await listening(basicAuthorization(manager));

  await t.gqlOk(
    owner,
    'mutation($id: ID!) { updateStaff(input: { staff: { id: $id }, patch: { type: STAFF } }) { staff { id } } }',
    {
      id: manager.id,
    },
  );

  expect(await closedBeforeTheNextShift(socket, events)).toBe('closed 4403');
});

test('a password change closes the sockets opened with the old password', async () => {
  const manager = await t.newStaff(owner, { type: 'MANAGER' });
  const { socket, events } = await listening(basicAuthorization(manager));

  await t.gqlOk(
    manager,
    'mutation($id: ID!) { updateStaff(input: { staff: { id: $id }, patch: { password: "a-brand-new-password" } }) { staff { id } } }',
    { id: manager.id },
  );

  expect(await closedBeforeTheNextShift(socket, events)).toBe('closed 4403');
});

test('revoking the token a socket connected with closes it; a socket signed in otherwise stays', async () => {
  const manager = await t.newStaff(owner, { type: 'MANAGER' });
  const registered = await t.gqlOk<{ registerOAuthClient: { client: { key: string } } }>(
    owner,
    `mutation { registerOAuthClient(input: { name: "Live board", protocol: OAUTH2, confidential: false, redirectUris: ["${url}/oauth/authorized"] }) { client { key } } }`,
  );
  const key = registered.registerOAuthClient.client.key;
  const approved = await submitApproval(
    `${url}/oauth/authorize?response_type=token&client_id=${key}`,
    manager,
  );
  const token = new URLSearchParams(new URL(approved.headers.get('location')!).hash.slice(1)).get(
    'access_token',
  )!;
  const { socket, events } = await listening(`Bearer ${token}`);
  const { events: byPassword } = await listening(basicAuthorization(manager));

  await t.gqlOk(
    manager,
    'mutation($key: String!) { revokeOAuthAuthorization(input: { clientKey: $key }) { revoked } }',
    {
      key,
    },
  );

  expect(await closedBeforeTheNextShift(socket, events)).toBe('closed 4403');
  const later = await ownerShift();
  await byPassword.heard((e) => e.shift.id === later);
});

test('with nothing else happening, a disabled subscriber is still cut off', async () => {
  // No later event and no operation asks again here: on the embedded database (which announces
  // nothing) the periodic check closes the socket, on a server the notification does.
  const manager = await t.newStaff(owner, { type: 'MANAGER' });
  const { socket } = await listening(basicAuthorization(manager));

  await t.gqlOk(
    owner,
    'mutation($id: ID!) { disableStaff(input: { staff: { id: $id } }) { staff { id } } }',
    { id: manager.id },
  );

  expect((await socket.closed).code).toBe(4403);
});

// Another server process on the same PostgreSQL: the change is made there, the socket lives here.
// This app re-checks no sockets on a timer, so only the notification can close it.
(serverDatabase ? describe : describe.skip)('across processes', () => {
  let here: TestApp;
  let hereUrl: string;
  beforeAll(async () => {
    const { url: databaseUrl } = t.config.database as { url: string };
    // The database belongs to `t`, which drops it.
    const shared = { env: { DATABASE_URL: databaseUrl }, inMemory: false, drop: async () => {} };
    here = await startTestApp({ SUBSCRIPTION_RECHECK_MS: '0' }, { target: shared });
    hereUrl = await here.listen();
  });
  afterAll(() => here?.close());

  test('a manager disabled through another process is cut off here', async () => {
    const manager = await t.newStaff(owner, { type: 'MANAGER' });
    const { socket } = await listening(basicAuthorization(manager), hereUrl);

    await t.gqlOk(
      owner,
      'mutation($id: ID!) { disableStaff(input: { staff: { id: $id } }) { staff { id } } }',
      { id: manager.id },
    );

    expect((await socket.closed).code).toBe(4403);
  });
});
