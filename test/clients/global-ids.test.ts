import { Client as UrqlClient, fetchExchange, gql, subscriptionExchange } from '@urql/core';
import { cacheExchange } from '@urql/exchange-graphcache';
import fs from 'node:fs';
import {
  buildSchema,
  getNamedType,
  isInterfaceType,
  isObjectType,
  isUnionType,
  type GraphQLNamedType,
} from 'graphql';
import { createClient, type Client as WsClient } from 'graphql-ws';
import {
  Environment,
  Network,
  Observable,
  RecordSource,
  Store,
  fetchQuery,
  requestSubscription,
  type GraphQLResponse,
} from 'relay-runtime';
import WebSocket from 'ws';
import { compileRelay } from '../support/relay';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * Ids are unique across types, as Relay requires (issue 34 item 2). Relay keys its store by `id`
 * alone, so a value type that answers another object's id as its own `id` (a report row's project,
 * a report's user, an event's snapshot of a shift, a deletion) merges with that object: relay-runtime
 * warns "conflicting types". Those values name the object they refer to instead (`nodeId`,
 * `staffId`, `shiftId`) and have no `id`; urql graphcache embeds them, as `keys` in
 * the setup of docs/graphql-api.md tells it to. Both real clients read one answer that holds a
 * project by `node`, a report grouped by company, project, activity and user, the deletions, and a
 * `shiftEvents` event, and neither warns.
 */
const SCHEMA = buildSchema(fs.readFileSync('schema/schema.graphql', 'utf8'));

/** The graphcache `keys` docs/graphql-api.md gives: the types without an id, embedded in their parent. */
const VALUE_TYPES = [
  'Deletion',
  'OAuthAuthorization',
  'Report',
  'ReportRef',
  'ReportRow',
  'ReportSums',
  'ReportUser',
  'TimeZone',
  'Viewer',
];
const keys = Object.fromEntries(VALUE_TYPES.map((name) => [name, () => null]));

const QUERY = `
  query GlobalIdsQuery($id: ID!, $from: DateTimeISO!, $to: DateTimeISO!, $since: DateTimeISO!) {
    node(id: $id) {
      __typename
      id
      ... on Project {
        name
        company {
          id
          name
        }
      }
    }
    viewer {
      staff {
        id
        login
      }
    }
    report(input: { from: $from, to: $to, groupBy: [COMPANY, PROJECT, ACTIVITY, USER] }) {
      totalCount
      rows {
        company {
          nodeId
          legacyId
          name
        }
        project {
          nodeId
          legacyId
          name
        }
        activity {
          nodeId
          name
        }
        user {
          staffId
          login
        }
        seconds
      }
      totals {
        seconds
      }
    }
    deletions(since: $since) {
      nodes {
        nodeId
        typename
      }
    }
  }
`;
const SUBSCRIPTION = `
  subscription GlobalIdsEventsSubscription {
    shiftEvents {
      kind
      snapshot {
        shiftId
        projectId
        userId
        notes
      }
      shift {
        id
        notes
      }
      project {
        id
        name
      }
    }
  }
`;

let t: TestApp;
let url: string;
let owner: Credentials & { ownerId: string };
let projectId: string;
let shiftId: string;
let deletedShiftId: string;
let variables: Record<string, string>;
beforeAll(async () => {
  t = await startTestApp();
  url = await t.listen();
  owner = await t.newAccount();
  const company = await t.create(owner, 'createCompany', { name: 'Ids Co', visibility: 'PUBLIC' });
  projectId = (await t.create(owner, 'createProject', { name: 'Ids', companyId: company.id })).id;
  const activity = await t.create(owner, 'createActivity', { name: 'coding', projectId });
  const shift = (start: string, stop: string) =>
    t.create(owner, 'createShift', { projectId, activityId: activity.id, start, stop });
  shiftId = (await shift('2026-11-02T09:00:00Z', '2026-11-02T10:00:00Z')).id;
  deletedShiftId = (await shift('2026-11-02T11:00:00Z', '2026-11-02T12:00:00Z')).id;
  const since = (await t.gqlOk(owner, '{ syncWatermark }')).syncWatermark as string;
  await t.gqlOk(
    owner,
    'mutation($id: ID!) { deleteShift(input: { shift: { id: $id } }) { __typename } }',
    {
      id: deletedShiftId,
    },
  );
  variables = { id: projectId, from: '2026-11-01T00:00:00Z', to: '2026-12-01T00:00:00Z', since };
});
afterAll(() => t?.close());

/** What relay-runtime and graphcache say while `run` runs (both warn through the console). */
async function warningsDuring(run: () => Promise<void>): Promise<string[]> {
  const said: string[] = [];
  const error = jest
    .spyOn(console, 'error')
    .mockImplementation((...args) => said.push(args.join(' ')));
  const warn = jest
    .spyOn(console, 'warn')
    .mockImplementation((...args) => said.push(args.join(' ')));
  try {
    await run();
  } finally {
    error.mockRestore();
    warn.mockRestore();
  }
  return said;
}

const authorization = (who: Credentials) =>
  `Basic ${Buffer.from(`${who.login}:${who.password}`).toString('base64')}`;

function wsClientFor(who: Credentials): WsClient {
  return createClient({
    url: `${url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: authorization(who) },
    retryAttempts: 0,
  });
}

/**
 * Waits for the first event of a subscription started just before: changes the shift's notes
 * (the same each time) until the event arrives, so nothing depends on when the subscription is
 * held.
 */
async function firstEvent(heard: Promise<unknown>): Promise<void> {
  let done = false;
  void heard.then(() => (done = true));
  while (!done) {
    await t.gqlOk(
      owner,
      'mutation($id: ID!) { updateShift(input: { shift: { id: $id }, patch: { notes: "event" } }) { shift { id } } }',
      { id: shiftId },
    );
    await Promise.race([heard, new Promise((resolve) => setImmediate(resolve))]);
  }
}

test('every object type whose id is an ID is a Node: no value answers another object as its id', () => {
  const notNodes = Object.values(SCHEMA.getTypeMap())
    .filter(isObjectType)
    .filter((type) => !type.name.startsWith('__'))
    .filter((type) => {
      const id = type.getFields().id;
      return id && getNamedType(id.type).name === 'ID';
    })
    .filter((type) => !type.getInterfaces().some((i) => i.name === 'Node'))
    .map((type) => type.name);
  expect(notNodes).toEqual([]);
});

test('the documented graphcache keys list every type a query reaches that has no id', () => {
  // graphcache's own exemption: its KEYLESS_TYPE_RE.
  const exempt = /^__|PageInfo|(Connection|Edge)$/;
  const seen = new Set<string>();
  const keyless: string[] = [];
  const visit = (type: GraphQLNamedType): void => {
    if (seen.has(type.name)) return;
    seen.add(type.name);
    if (isInterfaceType(type) || isUnionType(type))
      for (const possible of SCHEMA.getPossibleTypes(type)) visit(possible);
    if (!isObjectType(type) && !isInterfaceType(type)) return;
    const fields = type.getFields();
    if (
      isObjectType(type) &&
      type !== SCHEMA.getQueryType() &&
      !fields.id &&
      !exempt.test(type.name)
    )
      keyless.push(type.name);
    for (const field of Object.values(fields)) visit(getNamedType(field.type));
  };
  visit(SCHEMA.getQueryType()!);
  expect(keyless.sort()).toEqual(VALUE_TYPES);
  const docs = fs.readFileSync('docs/graphql-api.md', 'utf8');
  expect(VALUE_TYPES.filter((name) => !docs.includes(`${name}: () => null`))).toEqual([]);
});

test('relay-runtime stores node, report, deletions and a shift event without a conflict', async () => {
  const build = compileRelay({
    'GlobalIds.js': `graphql\`${QUERY}\`;\ngraphql\`${SUBSCRIPTION}\`;\n`,
  });
  expect({ status: build.status, output: build.status === 0 ? '' : build.output }).toEqual({
    status: 0,
    output: '',
  });
  const ws = wsClientFor(owner);
  const network = Network.create(
    async (params, vars) => {
      const res = await t.gql(owner, params.text!, vars);
      return { data: res.data ?? null, errors: res.errors } as GraphQLResponse;
    },
    (params, vars) =>
      Observable.create<GraphQLResponse>((sink) =>
        ws.subscribe<Record<string, unknown>>(
          { query: params.text!, operationName: params.name, variables: vars },
          {
            next: (value) => sink.next(value as GraphQLResponse),
            error: (error) => sink.error(error as Error),
            complete: () => sink.complete(),
          },
        ),
      ),
  );
  const environment = new Environment({ network, store: new Store(new RecordSource()) });
  const events: unknown[] = [];
  try {
    const warnings = await warningsDuring(async () => {
      const data = (await fetchQuery(
        environment,
        build.requests.get('GlobalIdsQuery')!,
        variables,
      ).toPromise()) as { report: { rows: unknown[] }; deletions: { nodes: unknown[] } };
      expect(data.report.rows).toEqual([
        expect.objectContaining({
          project: expect.objectContaining({ nodeId: projectId, name: 'Ids' }),
          user: expect.objectContaining({ staffId: owner.ownerId }),
        }),
      ]);
      expect(data.deletions.nodes).toEqual([{ nodeId: deletedShiftId, typename: 'Shift' }]);
      let heard!: () => void;
      const heardPromise = new Promise<void>((resolve) => (heard = resolve));
      const subscription = requestSubscription(environment, {
        subscription: build.requests.get('GlobalIdsEventsSubscription')!,
        variables: {},
        onNext: (event) => {
          events.push(event);
          heard();
        },
      });
      await firstEvent(heardPromise);
      subscription.dispose();
    });
    expect(warnings).toEqual([]);
    expect(events[0]).toMatchObject({
      shiftEvents: { snapshot: { shiftId }, shift: { id: shiftId, notes: 'event' } },
    });
    // Each id is one record of the one type it names.
    const source = environment.getStore().getSource();
    expect([projectId, owner.ownerId, shiftId].map((id) => source.get(id)?.__typename)).toEqual([
      'Project',
      'Staff',
      'Shift',
    ]);
  } finally {
    await ws.dispose();
  }
});

test('urql graphcache keys every object of the same answer, with the documented keys, and warns of nothing', async () => {
  const ws = wsClientFor(owner);
  const client = new UrqlClient({
    url: `${url}/graphql`,
    preferGetMethod: false,
    fetchOptions: { headers: { authorization: authorization(owner) } },
    exchanges: [
      cacheExchange({ keys }),
      fetchExchange,
      subscriptionExchange({
        forwardSubscription: (request) => ({
          subscribe: (sink) => ({
            unsubscribe: ws.subscribe({ ...request, query: request.query ?? '' }, sink),
          }),
        }),
      }),
    ],
  });
  try {
    const warnings = await warningsDuring(async () => {
      const result = await client.query(gql(QUERY), variables).toPromise();
      expect(result.error).toBeUndefined();
      let heard!: () => void;
      const heardPromise = new Promise<void>((resolve) => (heard = resolve));
      const { unsubscribe } = client.subscription(gql(SUBSCRIPTION), {}).subscribe((event) => {
        if (event.data) heard();
      });
      await firstEvent(heardPromise);
      unsubscribe();
      // The project of `node` and of the event is one entity, read back from the cache alone.
      const cached = await client
        .query(
          gql`
            query ($id: ID!) {
              node(id: $id) {
                id
                ... on Project {
                  name
                }
              }
            }
          `,
          { id: projectId },
          { requestPolicy: 'cache-only' },
        )
        .toPromise();
      expect(cached.data?.node).toMatchObject({ id: projectId, name: 'Ids' });
    });
    expect(warnings).toEqual([]);
  } finally {
    await ws.dispose();
  }
});
