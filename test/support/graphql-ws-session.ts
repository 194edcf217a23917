import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import type { Credentials, GraphQLResponse } from './test-app';

/** The Authorization value of Basic credentials, as connectionParams carry it. */
export function basicAuthorization(who: Credentials): string {
  return `Basic ${Buffer.from(`${who.login}:${who.password}`).toString('base64')}`;
}

/**
 * One graphql-ws connection to a test server, for tests that run operations over a WebSocket as an
 * app does. Nothing here waits on a clock: every promise settles on a message or on the close, and
 * jest's timeout is the only bound.
 */
export class GraphQLSocket {
  readonly closed: Promise<{ code: number; reason: string }>;
  private readonly client: Client;
  private readonly connectedOnce: Promise<void>;

  constructor(baseUrl: string, authorization: string | undefined) {
    let onClosed!: (event: { code: number; reason: string }) => void;
    this.closed = new Promise((resolve) => (onClosed = resolve));
    let onConnected!: () => void;
    this.connectedOnce = new Promise((resolve) => (onConnected = resolve));
    this.client = createClient({
      url: baseUrl.replace(/^http/, 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: false,
      connectionParams: authorization ? { authorization } : {},
      on: {
        connected: () => onConnected(),
        closed: (event) => {
          const { code, reason } = event as { code: number; reason: string };
          onClosed({ code, reason: String(reason) });
        },
      },
      onNonLazyError: () => undefined,
    });
  }

  /** Resolves once the server acknowledged the connection; rejects if it closed instead. */
  connected(): Promise<void> {
    return Promise.race([
      this.connectedOnce,
      this.closed.then(({ code }) => Promise.reject(new Error(`closed with ${code}`))),
    ]);
  }

  /**
   * Runs a query or a mutation and answers like TestApp.gql (without a status): the result of a
   * `next` message, or the errors of an `error` message.
   */
  run<T = Record<string, any>>(
    query: string,
    variables?: Record<string, unknown>,
  ): Promise<Omit<GraphQLResponse<T>, 'status'>> {
    return new Promise((resolve, reject) => {
      let result: Omit<GraphQLResponse<T>, 'status'> | undefined;
      this.client.subscribe<T>(
        { query, ...(variables ? { variables } : {}) },
        {
          next: (value) => (result = value as Omit<GraphQLResponse<T>, 'status'>),
          error: (error) =>
            Array.isArray(error)
              ? resolve({ errors: error as GraphQLResponse['errors'] })
              : reject(new Error(`connection closed: ${JSON.stringify(error)}`)),
          complete: () => resolve(result ?? {}),
        },
      );
    });
  }

  /** Starts a subscription whose results queue up until the test takes them. */
  subscribe<T>(query: string, pick: (data: Record<string, any>) => T): LiveSubscription<T> {
    const subscription = new LiveSubscription<T>();
    this.client.subscribe(
      { query },
      {
        next: (result) => {
          if (result.errors) subscription.errors.push(...result.errors);
          if (result.data) subscription.push(pick(result.data));
        },
        error: (error) => subscription.errors.push(...(Array.isArray(error) ? error : [error])),
        complete: () => undefined,
      },
    );
    return subscription;
  }

  dispose(): Promise<void> {
    return Promise.resolve(this.client.dispose());
  }
}

export class LiveSubscription<T> {
  /** Everything received so far, in order. */
  readonly received: T[] = [];
  readonly errors: unknown[] = [];
  private readonly waiting: ((value: T) => void)[] = [];
  private readonly watchers: ((value: T) => void)[] = [];
  private taken = 0;

  push(value: T): void {
    this.received.push(value);
    for (const watcher of this.watchers) watcher(value);
    const waiter = this.waiting.shift();
    if (waiter) {
      this.taken += 1;
      waiter(value);
    }
  }

  /** The next result not taken yet. */
  next(): Promise<T> {
    if (this.taken < this.received.length) return Promise.resolve(this.received[this.taken++]!);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Resolves with the first result, received already or later, that `matches`. */
  heard(matches: (value: T) => boolean): Promise<T> {
    const found = this.received.find(matches);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve) =>
      this.watchers.push((value) => {
        if (matches(value)) resolve(value);
      }),
    );
  }

  /**
   * Makes changes until one is heard: the server registers a subscription a little after it
   * acknowledges the subscribe message, and a change made before that is never delivered. Each
   * round waits for its change to commit, so this ends as soon as the subscription is live.
   */
  async primed(change: () => Promise<unknown>): Promise<void> {
    while (this.received.length === 0) {
      await change();
      // Let the socket deliver what is already on its way before deciding on another round.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}
