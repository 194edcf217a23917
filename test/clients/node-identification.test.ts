import { randomUUID } from 'node:crypto';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * Relay's global object identification over HTTP: `node(id:)` answers every stored type with its
 * `__typename`; what the caller may not see is null with an error at its path, like a missing id.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const NODES = `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }`;
const NODE = `query($id: ID!) { node(id: $id) { __typename id ... on Project { name } } }`;

async function fixtures(owner: Credentials & { ownerId: string }) {
  const company = await t.create(owner, 'createCompany', { name: 'Acme', visibility: 'PUBLIC' });
  const project = await t.create(owner, 'createProject', {
    name: 'Secret',
    companyId: company.id,
    visibility: 'PRIVATE',
  });
  const activity = await t.create(owner, 'createActivity', {
    name: 'coding',
    projectId: project.id,
  });
  const shift = await t.create(owner, 'createShift', {
    projectId: project.id,
    start: '2026-11-02T09:00:00Z',
    stop: '2026-11-02T10:00:00Z',
  });
  const webhook = (
    await t.gqlOk(
      owner,
      `mutation { createWebhook(input: { url: "https://hooks.example.com/in", eventKinds: [PUNCHED_IN] }) { webhook { id } } }`,
    )
  ).createWebhook.webhook;
  const client = (
    await t.gqlOk(
      owner,
      `mutation { registerOAuthClient(input: { name: "App", protocol: OAUTH2 }) { client { id } } }`,
    )
  ).registerOAuthClient.client;
  const account = (await t.gqlOk(owner, `{ viewer { account { id } } }`)).viewer.account;
  return { company, project, activity, shift, webhook, client, account };
}

test('node and nodes answer every type with its __typename', async () => {
  const owner = await t.newAccount();
  const f = await fixtures(owner);
  const expected: [string, string][] = [
    ['Account', f.account.id],
    ['Staff', owner.ownerId],
    ['Company', f.company.id],
    ['Project', f.project.id],
    ['Activity', f.activity.id],
    ['Shift', f.shift.id],
    ['Webhook', f.webhook.id],
    ['OAuthClient', f.client.id],
  ];
  for (const [type, id] of expected) {
    const { node } = await t.gqlOk(owner, NODE, { id });
    expect(node).toMatchObject({ __typename: type, id });
  }
  const res = await t.gql(owner, NODES, { ids: expected.map(([, id]) => id) });
  expect(res.errors).toBeUndefined();
  expect(res.data!.nodes).toEqual(expected.map(([__typename, id]) => ({ __typename, id })));
});

test('a webhook delivery is a node too', async () => {
  const owner = await t.newAccount();
  const { webhook, project } = await fixtures(owner);
  await t.gqlOk(
    owner,
    `mutation($id: ID!) { punchIn(input: { project: { id: $id } }) { shift { id } } }`,
    { id: project.id },
  );
  const deliveries = (
    await t.gqlOk(owner, `query($w: ID!) { webhookDeliveries(webhookId: $w) { id } }`, {
      w: webhook.id,
    })
  ).webhookDeliveries;
  expect(deliveries.length).toBeGreaterThan(0);
  const { node } = await t.gqlOk(owner, NODE, { id: deliveries[0].id });
  expect(node).toEqual({ __typename: 'WebhookDelivery', id: deliveries[0].id });
});

test("another account's object, a project hidden from a staff member and an unknown id are null with NOT_FOUND at their paths", async () => {
  const owner = await t.newAccount();
  const mine = await fixtures(owner);
  const other = await t.newAccount();
  const theirs = await fixtures(other);
  const staff = await t.newStaff(owner);

  const res = await t.gql(
    owner,
    `query($a: ID!, $b: ID!) { a: node(id: $a) { id } b: node(id: $b) { id } viewer { staff { id } } }`,
    {
      a: theirs.project.id,
      b: mine.project.id,
    },
  );
  expect(res.data).toEqual({
    a: null,
    b: { id: mine.project.id },
    viewer: { staff: { id: owner.ownerId } },
  });
  expect(res.errors).toEqual([
    expect.objectContaining({
      path: ['a'],
      extensions: expect.objectContaining({ code: 'NOT_FOUND' }),
    }),
  ]);

  // The staff member may not see the PRIVATE project, nor its shift; their own user they may.
  const ids = [
    mine.project.id,
    staff.id,
    mine.shift.id,
    randomUUID(),
    'not-a-uuid',
    theirs.company.id,
  ];
  const hidden = await t.gql(staff, NODES, { ids });
  expect(hidden.data!.nodes).toEqual([
    null,
    { __typename: 'Staff', id: staff.id },
    null,
    null,
    null,
    null,
  ]);
  expect(
    (hidden.errors ?? [])
      .map((e) => [e.path, e.extensions?.code])
      .sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
  ).toEqual([
    [['nodes', 0], 'NOT_FOUND'],
    [['nodes', 2], 'NOT_FOUND'],
    [['nodes', 3], 'NOT_FOUND'],
    [['nodes', 4], 'NOT_FOUND'],
    [['nodes', 5], 'NOT_FOUND'],
  ]);
  // Owner-only types are unreadable to a staff member: null with the permission error at the path.
  const ownerOnly = await t.gql(staff, NODES, { ids: [mine.webhook.id, mine.client.id] });
  expect(ownerOnly.data!.nodes).toEqual([null, null]);
  expect(ownerOnly.errors).toHaveLength(2);
});

test('ids are unique across types: a client-chosen id taken by another type is refused', async () => {
  const owner = await t.newAccount();
  const { company } = await fixtures(owner);
  const res = await t.gql(
    owner,
    `mutation($input: CreateProjectInput!) { createProject(input: $input) { project { id } } }`,
    { input: { id: company.id, name: 'Clash', companyId: company.id } },
  );
  expect(res.errors?.[0]?.extensions).toMatchObject({
    code: 'VALIDATION_FAILED',
    fieldErrors: [{ field: 'id', message: 'is already taken' }],
  });
});

test('the types of all the ids come from one statement, however many ids', async () => {
  const owner = await t.newAccount();
  const unknown = (n: number) => Array.from({ length: n }, () => randomUUID());
  await t.gql(owner, NODES, { ids: unknown(1) });
  const one = await t.countStatements(() => t.gql(owner, NODES, { ids: unknown(1) }));
  const many = await t.countStatements(() => t.gql(owner, NODES, { ids: unknown(50) }));
  expect(many).toBe(one);
});

test('nodes is bounded at the page size maximum', async () => {
  const owner = await t.newAccount();
  const ids = Array.from({ length: t.config.pageSize.max + 1 }, () => randomUUID());
  const res = await t.gql(owner, NODES, { ids });
  expect(res.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
});

describe('nodes(ids:) costs and works as the ids it names (issue 33, finding 1)', () => {
  test('every id costs at least 1, even when only its id is asked for', async () => {
    const owner = await t.newAccount();
    const ids = Array.from({ length: 300 }, () => randomUUID());
    const res = await t.gql(owner, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids });
    expect(res.extensions?.cost?.requestedQueryCost).toBeGreaterThanOrEqual(ids.length);
  });

  test('each distinct id is read once, and each type in one statement, however many ids', async () => {
    const owner = await t.newAccount();
    const { project } = await fixtures(owner);
    const shift = () =>
      t.create(owner, 'createShift', {
        projectId: project.id,
        start: '2026-11-03T09:00:00Z',
        stop: '2026-11-03T09:30:00Z',
      });
    const shifts = [await shift(), await shift(), await shift()];
    const one = await t.countStatements(() => t.gql(owner, NODES, { ids: [shifts[0]!.id] }));
    // The same id many times, several ids of the type, and a project among them.
    const repeated = Array.from({ length: 500 }, () => shifts[0]!.id);
    const mixed = [...repeated, ...shifts.map((s) => s.id), project.id];
    const res = await t.gql(owner, NODES, { ids: mixed });
    expect(res.errors).toBeUndefined();
    expect(res.data!.nodes).toHaveLength(mixed.length);
    expect(res.data!.nodes[499]).toEqual({ __typename: 'Shift', id: shifts[0]!.id });
    expect(res.data!.nodes.at(-1)).toEqual({ __typename: 'Project', id: project.id });
    expect(await t.countStatements(() => t.gql(owner, NODES, { ids: repeated }))).toBe(one);
    // One more type, one more statement: never one per id.
    expect(await t.countStatements(() => t.gql(owner, NODES, { ids: mixed }))).toBe(one + 1);
  });
});

describe('node and nodes are no oracle (issue 33, finding 5)', () => {
  // The answer without its path: what a caller learns of an id.
  const refusals = (res: { errors?: { path?: unknown; message: string; extensions?: object }[] }) =>
    (res.errors ?? []).map(({ message, extensions }) => ({ message, extensions }));

  test("another account's object of every type answers exactly what an id that names nothing does", async () => {
    const owner = await t.newAccount();
    const staff = await t.newStaff(owner);
    const other = await t.newAccount();
    const theirs = await fixtures(other);
    const theirIds = [
      theirs.account.id,
      other.ownerId,
      theirs.company.id,
      theirs.project.id,
      theirs.activity.id,
      theirs.shift.id,
      theirs.webhook.id,
      theirs.client.id,
    ];
    const nothing = randomUUID();
    for (const who of [owner, staff]) {
      const unknown = await t.gql(who, NODE, { id: nothing });
      expect(refusals(unknown)).toEqual([
        {
          message: 'No object has this id',
          extensions: expect.objectContaining({ code: 'NOT_FOUND', entity: 'Node' }),
        },
      ]);
      for (const id of theirIds) {
        const res = await t.gql(who, NODE, { id });
        expect({ id, status: res.status, data: res.data, errors: refusals(res) }).toEqual({
          id,
          status: unknown.status,
          data: unknown.data,
          errors: refusals(unknown),
        });
      }
      const many = await t.gql(who, NODES, { ids: theirIds });
      expect(many.data!.nodes).toEqual(theirIds.map(() => null));
      expect(refusals(many)).toEqual(theirIds.map(() => refusals(unknown)[0]));
    }
  });

  test("an object of the caller's own account that its policy hides answers as one that does not exist", async () => {
    const owner = await t.newAccount();
    const mine = await fixtures(owner);
    const staff = await t.newStaff(owner);
    const hidden = await t.gql(staff, NODES, {
      ids: [mine.project.id, mine.shift.id, randomUUID()],
    });
    expect(hidden.data!.nodes).toEqual([null, null, null]);
    const [first, ...rest] = refusals(hidden);
    expect(first).toMatchObject({ extensions: { code: 'NOT_FOUND', entity: 'Node' } });
    expect(rest).toEqual([first, first]);
  });
});
