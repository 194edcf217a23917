/**
 * Issue 20, finding 5: every guard of HTTP applies to every operation on a WebSocket. Queries,
 * mutations and subscriptions sent over graphql-ws count against the request limits and meet the
 * same depth, alias, cost, introspection and suggestion rules, with the same error codes as on
 * /graphql. Real graphql-ws client, real port, real database.
 */
import { GraphQLSocket, basicAuthorization } from '../support/graphql-ws-session';
import { codes, startTestApp, type Credentials, type TestApp } from '../support/test-app';

const PER_ACCOUNT = 5;

let t: TestApp;
let url: string;
const sockets: GraphQLSocket[] = [];

function open(who: Credentials, base = url): GraphQLSocket {
  const socket = new GraphQLSocket(base, basicAuthorization(who));
  sockets.push(socket);
  return socket;
}

beforeAll(async () => {
  // A long window: however slow the machine, every request of a test falls in the same one.
  t = await startTestApp({
    RATE_LIMIT_PER_ACCOUNT: String(PER_ACCOUNT),
    RATE_LIMIT_WINDOW_S: '3600',
  });
  url = await t.listen();
});
afterEach(async () => {
  await Promise.all(sockets.splice(0).map((s) => s.dispose()));
});
afterAll(() => t?.close());

test('operations on a socket count against the account limit: past it, TOO_MANY_REQUESTS as over HTTP, mutations included', async () => {
  const owner = await t.newAccount();
  const socket = open(owner);
  await socket.connected(); // signing in is the account's first request

  const answers = [];
  for (let i = 0; i < PER_ACCOUNT + 2; i += 1)
    answers.push(await socket.run('{ viewer { staff { login } } }'));
  expect(answers.map((a) => (a.errors ? codes({ status: 0, ...a })[0] : 'ok'))).toEqual([
    ...Array<string>(PER_ACCOUNT - 1).fill('ok'),
    'TOO_MANY_REQUESTS',
    'TOO_MANY_REQUESTS',
    'TOO_MANY_REQUESTS',
  ]);
  expect(answers[0]!.data).toEqual({ viewer: { staff: { login: owner.login } } });
  const refusedMutation = await socket.run(
    'mutation { createCompany(input: { name: "Past the limit" }) { company { id } } }',
  );
  // Refused, a subscription ends at once with its error instead of waiting for events.
  const refusedSubscription = await socket.run('subscription { shiftEvents { kind } }');
  expect(codes({ status: 0, ...refusedMutation })).toEqual(['TOO_MANY_REQUESTS']);
  expect(refusedMutation.errors![0]!.extensions).toMatchObject({
    retryAfterSeconds: expect.any(Number),
  });
  expect(codes({ status: 0, ...refusedSubscription })).toEqual(['TOO_MANY_REQUESTS']);
  // The refused mutation wrote nothing.
  const [{ count }] = await t.db.orm.em
    .getConnection()
    .execute<{ count: string }[]>('select count(*) from companies where account_id = ?', [
      owner.accountId,
    ]);
  expect(Number(count)).toBe(0);
  // HTTP sees the same count and answers with the same code.
  const overHttp = await t.gql(owner, '{ viewer { staff { login } } }');
  expect(overHttp.status).toBe(429);
  expect(codes(overHttp)).toEqual(['TOO_MANY_REQUESTS']);
});

test('limits of size and cost refuse an operation on a socket with the codes of HTTP', async () => {
  const owner = await t.newAccount();
  const socket = open(owner);
  await socket.connected();
  const costly =
    '{ projects(first: 5000) { nodes { shifts(first: 5000) { nodes { id project { name } } } } } }';
  const overHttp = await t.gql(owner, costly);
  const overSocket = await socket.run(costly);
  expect(codes({ status: 0, ...overSocket })).toEqual(['GRAPHQL_VALIDATION_FAILED']);
  expect(overSocket.errors![0]!.extensions).toMatchObject({
    cost: overHttp.errors![0]!.extensions!.cost,
    maxCost: t.config.graphql.maxCost,
  });

  const aliases = Array.from({ length: t.config.graphql.maxAliases + 1 }, (_, i) => `a${i}: kind`);
  const greedy = await socket.run(`subscription { shiftEvents { ${aliases.join(' ')} } }`);
  expect(codes({ status: 0, ...greedy })).toEqual(['GRAPHQL_VALIDATION_FAILED']);
  expect(greedy.errors![0]!.message).toMatch(/Aliases limit/);

  const filler = Array.from({ length: t.config.graphql.maxTokens }, () => 'kind').join(' ');
  const long = await socket.run(`subscription { shiftEvents { ${filler} } }`);
  expect(codes({ status: 0, ...long })).toEqual(['GRAPHQL_PARSE_FAILED']);
});

describe('in production', () => {
  let production: TestApp;
  let productionUrl: string;
  let owner: Credentials;
  beforeAll(async () => {
    production = await startTestApp({ NODE_ENV: 'production' });
    productionUrl = await production.listen();
    owner = await production.newAccount();
  });
  afterAll(() => production?.close());

  test('a socket answers no introspection, as HTTP does not', async () => {
    const socket = open(owner, productionUrl);
    await socket.connected();
    const overHttp = await production.gql(owner, '{ __schema { types { name } } }');
    const overSocket = await socket.run('{ __schema { types { name } } }');
    expect(overSocket.data ?? undefined).toBeUndefined();
    expect(codes({ status: 0, ...overSocket })).toEqual(codes(overHttp));
    expect(codes(overHttp)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(overSocket.errors![0]!.message).toMatch(/introspection/i);
    const typeOf = await socket.run('{ __type(name: "Query") { fields { name } } }');
    expect(typeOf.data ?? undefined).toBeUndefined();
    expect(codes({ status: 0, ...typeOf })).toEqual(['GRAPHQL_VALIDATION_FAILED']);
  });

  test('errors on a socket carry no "Did you mean" suggestions, for queries and subscriptions', async () => {
    const socket = open(owner, productionUrl);
    await socket.connected();
    const query = await socket.run('{ viewer { staf { login } } }');
    expect(query.errors!.map((e) => e.message)).toEqual([
      'Cannot query field "staf" on type "Viewer".',
    ]);
    expect(codes({ status: 0, ...query })).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    const subscription = await socket.run('subscription { shiftEvents { kinda } }');
    expect(subscription.errors!.map((e) => e.message)).toEqual([
      'Cannot query field "kinda" on type "ShiftEvent".',
    ]);
    expect(codes({ status: 0, ...subscription })).toEqual(['GRAPHQL_VALIDATION_FAILED']);
  });

  test('outside production the same socket helps developers (introspection and suggestions)', async () => {
    const owner2 = await t.newAccount();
    const socket = open(owner2);
    await socket.connected();
    expect((await socket.run('{ __schema { queryType { name } } }')).data).toEqual({
      __schema: { queryType: { name: 'Query' } },
    });
    expect(
      (await socket.run('subscription { shiftEvents { kinda } }')).errors![0]!.message,
    ).toMatch(/Did you mean "kind"/);
  });
});
