import type { Server, ServerResponse } from 'node:http';
import { createApp, type App } from './http/app';
import { createLimitedHttpServer } from './http/connection-limits';
import type { Config } from './core/config';
import { openDatabase, type Database } from './db/database';
import { OutboxSender } from './modules/delivery';
import { CurrentRateClock } from './modules/rates';

/** How a stop went. */
export interface StopReport {
  /** From the call of stop() until the last connection closed. */
  readonly drainMs: number;
  /** Requests still unanswered at the deadline, whose connections were closed under them. */
  readonly abandoned: number;
}

export interface RunningServer {
  readonly url: string;
  readonly app: App;
  readonly db: Database;
  /** Delivers the outbox (confirmation e-mails) in the background while the server runs. */
  readonly outbox: OutboxSender;
  /** Requests received and not yet answered. */
  readonly inFlight: number;
  /**
   * Stops accepting connections at once (the port refuses new ones) and closes idle keep-alive
   * connections; requests in flight run on, and their answers carry `Connection: close`, until
   * `config.shutdownTimeoutMs`; the connections left then are closed. Then the outbox sender,
   * Apollo and the database stop. Everything up to the first await happens synchronously, so
   * the port is closed when stop() returns its promise. Calling it again returns the same promise.
   */
  stop(): Promise<StopReport>;
}

/**
 * Opens the database (migrating it), builds the app, listens (with the connection caps and
 * timeouts of `config.http`) and starts the outbox sender.
 */
export async function startServer(config: Config): Promise<RunningServer> {
  const db = await openDatabase(config);
  let app: App | undefined;
  try {
    app = await createApp({ orm: db.orm, config, replicas: db.replicas });
    // Express compiles TRUST_PROXY into this function; its proxies are exempt from the per-address cap.
    const trustProxy = app.express.get('trust proxy fn') as (
      address: string,
      hop: number,
    ) => boolean;
    const server: Server = createLimitedHttpServer(config.http, {
      isTrustedProxy: (address) => trustProxy(address, 0),
      logger: app.logger,
    });
    const drain = trackRequests(server);
    server.on('request', app.express);
    app.attachSubscriptions(server);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const outbox = new OutboxSender(db.orm, config.outbox, app.logger);
    outbox.start();
    const rates = new CurrentRateClock(db.orm, app.logger);
    rates.start();
    let stopped: Promise<StopReport> | undefined;
    return {
      url: `http://${config.host}:${port}`,
      app,
      db,
      outbox,
      get inFlight() {
        return drain.inFlight();
      },
      stop: () =>
        (stopped ??= (async () => {
          const started = Date.now();
          const closed = drain.begin();
          // Meanwhile, so a delivery in progress can still record its outcome in the database.
          const outboxStopped = outbox.stop();
          const ratesStopped = rates.stop();
          // A live subscription is never done: its connection is closed (1001) at once.
          await app!.closeSubscriptions();
          const abandoned = await drain.finish(closed, config.shutdownTimeoutMs);
          const drainMs = Date.now() - started;
          await Promise.all([outboxStopped, ratesStopped]);
          await app!.stop();
          await db.close();
          return { drainMs, abandoned };
        })()),
    };
  } catch (error) {
    await app?.stop();
    await db.close();
    throw error;
  }
}

/**
 * Keeps the requests in flight of `server` (register before the app's own 'request' listener, so
 * the header below can still be set) and drains them on shutdown.
 */
function trackRequests(server: Server): {
  inFlight(): number;
  /** Closes the port and the idle connections; resolves once every connection has closed. */
  begin(): Promise<void>;
  /** Waits for `closed` until the deadline, then closes what is left; answers how many requests were cut. */
  finish(closed: Promise<void>, deadlineMs: number): Promise<number>;
} {
  const open = new Set<ServerResponse>();
  let draining = false;
  server.on('request', (_req, res: ServerResponse) => {
    open.add(res);
    // A request that arrives on an open connection during the drain is served, but ends it.
    if (draining) res.setHeader('connection', 'close');
    res.once('close', () => {
      open.delete(res);
      // An answer whose headers left before the drain began kept its connection alive: once it is
      // done, the connection is idle and goes too.
      if (draining) setImmediate(() => server.closeIdleConnections());
    });
  });
  return {
    inFlight: () => open.size,
    begin: () => {
      draining = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      for (const res of open) if (!res.headersSent) res.setHeader('connection', 'close');
      return closed;
    },
    finish: async (closed, deadlineMs) => {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<'deadline'>((resolve) => {
        timer = setTimeout(() => resolve('deadline'), deadlineMs);
      });
      const outcome = await Promise.race([closed.then(() => 'drained' as const), deadline]);
      clearTimeout(timer);
      if (outcome === 'drained') return 0;
      const abandoned = open.size;
      server.closeAllConnections();
      await closed;
      return abandoned;
    },
  };
}
