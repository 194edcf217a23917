import { knex as knexLibrary, type Knex } from '@mikro-orm/postgresql';
import { currentAccountId } from '../core/account-scope';

/**
 * The pool's connections, shared out fairly between accounts (issue 20, finding 4). knex's pool
 * hands connections out first come, first served: one account's flood of requests queued ahead of
 * every other account's, took every connection, and the others waited for the pool until they
 * failed with 503.
 *
 * knex takes every connection through its client's `acquireConnection` and gives it back through
 * `releaseConnection` (queries, transactions, the rate limiter's store alike). Both are wrapped
 * here, and the wrapper decides who gets the pool's next connection:
 *
 * - the requests of the account holding the fewest connections go first (first come, first
 *   served among equals), so another account's query waits for the next connection to come back,
 *   not behind the whole of one account's queue. On the embedded database (one connection) the
 *   accounts take turns at it;
 * - one account holds at most `perAccount` connections at once (by default all but one of the
 *   pool), so a connection is left for the others even while one account's transactions are
 *   stuck (waiting for a lock, or for a database that stopped answering);
 * - nobody asks the pool for more than it has, so its own first-come queue never forms, and a
 *   wait here ends after the pool's acquire timeout, as a wait in the pool did: 503, "busy".
 *
 * Which account a query is for comes from src/core/account-scope.ts: the request's, once its
 * credentials are verified. Work of no account (migrations, the outbox sender, probes, a request's
 * authentication) is one more party sharing the pool the same way, with no cap.
 */
export interface ConnectionLanes {
  /** Connections the account holds now. */
  active(accountId: number): number;
  /** Queries of the account waiting for a connection now; of every party without an argument. */
  waiting(accountId?: number): number;
  /** The most connections one account may hold. */
  readonly perAccount: number;
}

type Party = number | 'none';

interface Waiter {
  readonly party: Party;
  readonly seq: number;
  readonly grant: () => void;
  readonly refuse: (error: Error) => void;
}

/**
 * knex's own words for a query after its pool was destroyed; database-errors.ts reads them as a
 * lost connection (503).
 */
const POOL_CLOSED = 'Unable to acquire a connection: the pool is closed';

export class FairConnectionScheduler {
  private outstanding = 0;
  private seq = 0;
  private readonly held = new Map<Party, number>();
  private readonly queues = new Map<Party, Waiter[]>();
  private closed = false;

  constructor(
    private readonly capacity: number,
    readonly perAccount: number,
    private readonly maxWaitMs: number,
  ) {}

  /** Resolves when `party` may take a connection from the pool; then call release once. */
  acquire(party: Party): Promise<void> {
    if (this.closed) return Promise.reject(new Error(POOL_CLOSED));
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        const queue = this.queues.get(party);
        const index = queue?.indexOf(waiter) ?? -1;
        if (index < 0) return;
        queue!.splice(index, 1);
        if (queue!.length === 0) this.queues.delete(party);
        // knex's own error for a pool that lent no connection in time: MikroORM wraps what a
        // query throws, and database-errors.ts knows this one (503, "the database is busy").
        reject(
          new knexLibrary.KnexTimeoutError(
            'Knex: Timeout acquiring a connection. This account holds its share of the pool.',
          ),
        );
      }, this.maxWaitMs);
      timer.unref();
      const waiter: Waiter = {
        party,
        seq: this.seq++,
        grant: () => {
          clearTimeout(timer);
          resolve();
        },
        refuse: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      const queue = this.queues.get(party);
      if (queue) queue.push(waiter);
      else this.queues.set(party, [waiter]);
      this.pump();
    });
  }

  /**
   * The pool is being destroyed: the queries waiting here fail now, as knex fails those waiting in
   * its pool, instead of when their timers fire long after the database was closed; so does any
   * query asked for later.
   */
  close(): void {
    this.closed = true;
    const waiting = [...this.queues.values()].flat();
    this.queues.clear();
    for (const waiter of waiting) waiter.refuse(new Error(POOL_CLOSED));
  }

  release(party: Party): void {
    this.outstanding -= 1;
    const held = (this.held.get(party) ?? 1) - 1;
    if (held > 0) this.held.set(party, held);
    else this.held.delete(party);
    this.pump();
  }

  active(party: Party): number {
    return this.held.get(party) ?? 0;
  }

  waiting(party?: Party): number {
    if (party !== undefined) return this.queues.get(party)?.length ?? 0;
    let all = 0;
    for (const queue of this.queues.values()) all += queue.length;
    return all;
  }

  /** Grants free connections: the party holding fewest first, the longest waiting among equals. */
  private pump(): void {
    while (this.outstanding < this.capacity) {
      let next: Waiter | undefined;
      let nextHeld = Infinity;
      for (const [party, queue] of this.queues) {
        const held = this.held.get(party) ?? 0;
        if (party !== 'none' && held >= this.perAccount) continue;
        const head = queue[0]!;
        if (held < nextHeld || (held === nextHeld && head.seq < next!.seq)) {
          next = head;
          nextHeld = held;
        }
      }
      if (!next) return;
      const queue = this.queues.get(next.party)!;
      queue.shift();
      if (queue.length === 0) this.queues.delete(next.party);
      this.outstanding += 1;
      this.held.set(next.party, nextHeld + 1);
      next.grant();
    }
  }
}

export function installConnectionLanes(
  knex: Knex,
  settings: { poolMax: number; perAccount: number; acquireTimeoutMs: number },
): ConnectionLanes {
  const scheduler = new FairConnectionScheduler(
    settings.poolMax,
    Math.max(1, Math.min(settings.perAccount, settings.poolMax)),
    settings.acquireTimeoutMs,
  );
  const client = knex.client as {
    acquireConnection(): Promise<object>;
    releaseConnection(connection: object): Promise<void>;
    destroy(callback?: unknown): Promise<void>;
  };
  const acquire = client.acquireConnection.bind(client);
  const release = client.releaseConnection.bind(client);
  const destroy = client.destroy.bind(client);
  const parties = new WeakMap<object, Party>();
  client.acquireConnection = async () => {
    const party: Party = currentAccountId() ?? 'none';
    await scheduler.acquire(party);
    try {
      const connection = await acquire();
      parties.set(connection, party);
      return connection;
    } catch (error) {
      scheduler.release(party);
      throw error;
    }
  };
  client.releaseConnection = async (connection) => {
    const party = parties.get(connection);
    parties.delete(connection);
    try {
      return await release(connection);
    } finally {
      if (party !== undefined) scheduler.release(party);
    }
  };
  client.destroy = (callback) => {
    scheduler.close();
    return destroy(callback);
  };
  return {
    active: (accountId) => scheduler.active(accountId),
    waiting: (accountId) => scheduler.waiting(accountId),
    perAccount: scheduler.perAccount,
  };
}
