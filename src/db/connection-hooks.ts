/**
 * What the pool does to every new `pg` connection (knex's `pool.afterCreate`). knex itself already
 * listens for a connection's 'error' and 'end' (an idle connection dropped by the server is marked
 * and discarded on its next acquire, never an unhandled 'error'); these hooks cover what it does
 * not:
 *
 * - **Prepared statements of an earlier connection.** PGlite (the embedded database) is a single
 *   backend session shared by every connection it ever serves, so statements a previous
 *   connection prepared (rate-limiter-flexible names its statements) outlive it, and the driver's
 *   first PREPARE of the same name on a new connection fails with 42P05 "prepared statement
 *   already exists", for as long as the process runs. `DEALLOCATE ALL` first costs one round trip
 *   per new connection, and finds nothing on a server, where a session starts empty (the
 *   embedded database is also reached through a TCP proxy, as a "server", in the outage tests).
 * - **Named prepared statements through a pooler.** Behind PgBouncer in transaction mode
 *   (DATABASE_SESSION_URL set), consecutive statements of one connection may run on different
 *   server sessions, so a statement prepared on one is missing on the next (rate-limiter-flexible
 *   names its statements). There the names are dropped: each statement is parsed where it runs.
 * - **A query abandoned by the driver's timer.** When `query_timeout` fires, `pg` rejects the
 *   query but keeps it as the connection's active query: every later query on that connection
 *   queues behind an answer that may never come (a partition), each waiting for a full timeout
 *   again, and the server may still hold the abandoned statement's locks. Such a connection is
 *   closed at once, so the pool replaces it and the server ends the session.
 */

/** The part of a `pg` Client the hooks use. */
interface PgClient {
  query(...args: unknown[]): unknown;
  end(): unknown;
  /** pg's protocol connection; its socket is the only way to close a client that cannot answer. */
  connection?: { stream?: { destroy(error?: Error): void } };
  /** knex's mark of a dead connection, which its pool discards instead of handing out. */
  __knex__disposed?: unknown;
}

/** The driver's message when its own timer (`query_timeout`) gave up on an answer. */
const READ_TIMEOUT = 'Query read timeout';

/** `unnamedStatements`: behind a transaction pooler, every statement is sent unnamed. */
export function afterCreateFor(options: {
  unnamedStatements: boolean;
}): (client: PgClient, done: (error: Error | null, client: PgClient) => void) => void {
  return (client, done) => {
    closeOnReadTimeout(client);
    if (options.unnamedStatements) unnameStatements(client);
    deallocate(client, done);
  };
}

function deallocate(client: PgClient, done: (error: Error | null, client: PgClient) => void): void {
  client.query('DEALLOCATE ALL', (error: Error | null) => {
    if (!error) return done(null, client);
    // knex neither returns nor closes a connection whose afterCreate failed.
    closeNow(client, error.message);
    done(error, client);
  });
}

function unnameStatements(client: PgClient): void {
  const query = client.query.bind(client);
  client.query = (...args: unknown[]) => {
    const [config] = args;
    if (config && typeof config === 'object' && 'name' in config) {
      const { name: _name, ...unnamed } = config as { name?: string };
      args[0] = unnamed;
    }
    return query(...args);
  };
}

function closeOnReadTimeout(client: PgClient): void {
  const query = client.query.bind(client);
  const watch = (error: unknown) => {
    if ((error as Error | null)?.message === READ_TIMEOUT) closeNow(client, READ_TIMEOUT);
  };
  client.query = (...args: unknown[]) => {
    // Callback form (knex): watch the callback; promise form (rate-limiter-flexible): the promise.
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (error: unknown, result: unknown) => {
        watch(error);
        (callback as (error: unknown, result: unknown) => void)(error, result);
      };
    }
    const result = query(...args);
    if (result && typeof (result as Promise<unknown>).then === 'function')
      (result as Promise<unknown>).then(undefined, watch);
    return result;
  };
}

/**
 * Closes the socket without the protocol's goodbye, which a peer that does not answer would never
 * acknowledge. `pg` then ends the client ('end'), which knex marks so the pool discards it; but
 * that event comes a turn of the event loop later, and a query acquired meanwhile would be handed
 * this connection and fail with it ("Connection terminated unexpectedly"), so it is marked now.
 */
function closeNow(client: PgClient, reason: string): void {
  client.__knex__disposed = reason;
  const stream = client.connection?.stream;
  if (stream) stream.destroy();
  else void Promise.resolve(client.end()).catch(() => {});
}
