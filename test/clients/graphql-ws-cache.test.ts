/**
 * Live events update a normalised client cache (issue 21 item 7): Apollo Client 4 with
 * InMemoryCache, a GraphQLWsLink (graphql-ws) for subscriptions and an HttpLink for the rest,
 * against the in-process service on a real port. A shift read by a query changes through other
 * connections (a staff member's mutation over HTTP, the legacy JSON API's punches); the event's
 * `shift` and `project` land on `Shift:<id>` and `Project:<id>`, and the query read from the cache
 * alone shows the new values, with no request over HTTP.
 *
 * No sleeps: the test waits for the subscription's events. Until the subscription is known to be
 * held, the first change is repeated (it sets the same values), so nothing depends on timing.
 */
import {
  ApolloClient,
  HttpLink,
  InMemoryCache,
  gql,
  split,
  type TypedDocumentNode,
} from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { getMainDefinition } from '@apollo/client/utilities';
import { createClient, type Client } from 'graphql-ws';
import request from 'supertest';
import WebSocket from 'ws';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

interface ShiftQuery {
  shift: {
    __typename: 'Shift';
    id: string;
    notes: string | null;
    stop: string | null;
    project: { __typename: 'Project'; id: string; grandTotal: number } | null;
  };
}
const SHIFT: TypedDocumentNode<ShiftQuery, { id: string }> = gql`
  query Shift($id: ID!) {
    shift(id: $id) {
      id
      notes
      stop
      project {
        id
        grandTotal
      }
    }
  }
`;

interface EventData {
  shiftEvents: {
    kind: string;
    deletedShiftId: string | null;
    shift: { id: string; notes: string | null; stop: string | null; running: boolean } | null;
    project: { id: string; grandTotal: number } | null;
  };
}
const EVENTS: TypedDocumentNode<EventData> = gql`
  subscription Events {
    shiftEvents {
      kind
      deletedShiftId
      shift {
        id
        notes
        stop
        running
      }
      project {
        id
        grandTotal
      }
    }
  }
`;

let t: TestApp;
let url: string;
let owner: Credentials;
let staff: Credentials;
let projectId: string;
beforeAll(async () => {
  t = await startTestApp();
  url = await t.listen();
  owner = await t.newAccount();
  staff = await t.newStaff(owner);
  const company = await t.create(owner, 'createCompany', { name: 'Cache Co' });
  projectId = (
    await t.create(owner, 'createProject', {
      name: 'Cached',
      companyId: company.id,
      visibility: 'PUBLIC',
    })
  ).id;
});
afterAll(() => t?.close());

/** An Apollo client as an app builds one: subscriptions over graphql-ws, the rest over HTTP. */
function apolloFor(who: Credentials) {
  const authorization = `Basic ${Buffer.from(`${who.login}:${who.password}`).toString('base64')}`;
  let httpRequests = 0;
  const http = new HttpLink({
    uri: `${url}/graphql`,
    headers: { authorization },
    fetch: (input, init) => {
      httpRequests += 1;
      return fetch(input, init);
    },
  });
  const wsClient: Client = createClient({
    url: `${url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization },
    retryAttempts: 0,
  });
  const link = split(
    ({ query }) => {
      const definition = getMainDefinition(query);
      return definition.kind === 'OperationDefinition' && definition.operation === 'subscription';
    },
    new GraphQLWsLink(wsClient),
    http,
  );
  const client = new ApolloClient({ link, cache: new InMemoryCache() });
  return {
    client,
    httpRequests: () => httpRequests,
    close: async () => {
      client.stop();
      await wsClient.dispose();
    },
  };
}

/** The subscription's events, taken one at a time as they arrive. */
function eventsOf(client: ApolloClient) {
  const queued: EventData['shiftEvents'][] = [];
  const waiting: ((event: EventData['shiftEvents']) => void)[] = [];
  const errors: unknown[] = [];
  const subscription = client.subscribe({ query: EVENTS }).subscribe({
    next: (result) => {
      if (result.error) errors.push(result.error);
      const event = result.data?.shiftEvents;
      if (!event) return;
      const waiter = waiting.shift();
      if (waiter) waiter(event);
      else queued.push(event);
    },
    error: (error: unknown) => errors.push(error),
  });
  const next = () =>
    queued.length > 0
      ? Promise.resolve(queued.shift()!)
      : new Promise<EventData['shiftEvents']>((resolve) => waiting.push(resolve));
  return {
    next,
    errors,
    /** The next event of `kind`, skipping others (repeats of a change made while waiting). */
    async nextOf(kind: string) {
      for (;;) {
        const event = await next();
        if (event.kind === kind) return event;
      }
    },
    stop: () => subscription.unsubscribe(),
  };
}

const gqlAs = (who: Credentials, query: string, variables: Record<string, unknown>) =>
  t.gqlOk(who, query, variables);

test("events from other connections update the cache's Shift and Project entries", async () => {
  const shiftId = (
    await t.create(staff, 'createShift', {
      projectId,
      start: '2026-04-01T09:00:00Z',
      stop: '2026-04-01T10:00:00Z',
      notes: 'first',
    })
  ).id;
  const app = apolloFor(owner);
  try {
    const read = await app.client.query({ query: SHIFT, variables: { id: shiftId } });
    expect(read.data?.shift).toMatchObject({
      id: shiftId,
      notes: 'first',
      stop: '2026-04-01T10:00:00.000Z',
      project: { id: projectId, grandTotal: 3600 },
    });
    const requestsAfterRead = app.httpRequests();

    const events = eventsOf(app.client);
    // Another user changes the shift over HTTP; repeated (same values) until the subscription,
    // held from some point on, hears it.
    const edit = () =>
      gqlAs(
        staff,
        'mutation($id: ID!) { updateShift(input: { shift: { id: $id }, patch: { notes: "second", stop: "2026-04-01T11:00:00Z" } }) { shift { id } } }',
        { id: shiftId },
      );
    const firstEvent = events.next();
    let heard = false;
    void firstEvent.then(() => (heard = true));
    while (!heard) {
      await edit();
      await Promise.race([firstEvent, new Promise((resolve) => setImmediate(resolve))]);
    }
    expect(await firstEvent).toMatchObject({
      kind: 'SHIFT_UPDATED',
      shift: { id: shiftId, notes: 'second' },
    });

    const cached = app.client.readQuery({ query: SHIFT, variables: { id: shiftId } });
    expect(cached?.shift).toMatchObject({
      notes: 'second',
      stop: '2026-04-01T11:00:00.000Z',
      project: { id: projectId, grandTotal: 7200 },
    });
    // The normalised entry itself, as InMemoryCache stores it.
    const cachedShift = (id: string) =>
      (app.client.cache.extract() as Record<string, Record<string, unknown> | undefined>)[
        `Shift:${id}`
      ];
    expect(cachedShift(shiftId)).toMatchObject({ notes: 'second' });

    // The legacy JSON API punches: the running shift arrives, then its stop.
    const legacy = (path: string) =>
      request(t.app.express).post(`/api/1${path}`).auth(staff.login, staff.password);
    expect((await legacy(`/projects/${projectId}/punch_in.json`)).status).toBe(200);
    const punchedIn = await events.nextOf('PUNCHED_IN');
    const running = punchedIn.shift!.id;
    expect(cachedShift(running)).toMatchObject({ stop: null, running: true });
    expect((await legacy(`/projects/${projectId}/punch_out.json`)).status).toBe(200);
    const punchedOut = await events.nextOf('PUNCHED_OUT');
    expect(punchedOut.shift!.id).toBe(running);
    expect(cachedShift(running)).toMatchObject({ running: false });
    expect(cachedShift(running)!.stop).not.toBeNull();

    // A deletion names the shift, which the cache can then evict.
    await gqlAs(
      staff,
      'mutation($id: ID!) { deleteShift(input: { shift: { id: $id } }) { shift { id } } }',
      { id: running },
    );
    const deleted = await events.nextOf('SHIFT_DELETED');
    expect(deleted).toMatchObject({ shift: null, deletedShiftId: running });

    expect(app.httpRequests()).toBe(requestsAfterRead);
    expect(events.errors).toEqual([]);
    events.stop();
  } finally {
    await app.close();
  }
});

test('an unknown or hidden projectId is NOT_FOUND when subscribing', async () => {
  const other = await t.newAccount();
  const otherCompany = await t.create(other, 'createCompany', { name: 'Elsewhere' });
  const theirs = await t.create(other, 'createProject', {
    name: 'Theirs',
    companyId: otherCompany.id,
    visibility: 'PUBLIC',
  });
  const app = apolloFor(owner);
  try {
    for (const id of [theirs.id, '00000000-0000-4000-8000-000000000000']) {
      const error = await new Promise<unknown>((resolve) => {
        app.client
          .subscribe({
            query: gql`
              subscription ($p: ID!) {
                shiftEvents(projectId: $p) {
                  kind
                }
              }
            `,
            variables: { p: id },
          })
          .subscribe({
            next: (result) => result.error && resolve(result.error),
            error: resolve,
          });
      });
      expect(JSON.stringify(error)).toContain('NOT_FOUND');
    }
  } finally {
    await app.close();
  }
});
