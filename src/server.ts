import { createServer, type Server } from 'node:http';
import { createApp, type App } from './app';
import type { Config } from './config';
import { openDatabase, type Database } from './db/database';
import { OutboxSender } from './modules/outbox/outbox-sender';

export interface RunningServer {
  readonly url: string;
  readonly app: App;
  readonly db: Database;
  /** Delivers the outbox (confirmation e-mails) in the background while the server runs. */
  readonly outbox: OutboxSender;
  stop(): Promise<void>;
}

/** Opens the database (migrating it), builds the app, listens and starts the outbox sender. */
export async function startServer(config: Config): Promise<RunningServer> {
  const db = await openDatabase(config);
  let app: App | undefined;
  try {
    app = await createApp({ orm: db.orm, config });
    const server: Server = createServer(app.express);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const outbox = new OutboxSender(db.orm, config.outbox);
    outbox.start();
    let stopped: Promise<void> | undefined;
    return {
      url: `http://${config.host}:${port}`,
      app,
      db,
      outbox,
      stop: () =>
        (stopped ??= (async () => {
          // First, so a delivery in progress can still record its outcome in the database.
          await outbox.stop();
          await new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeIdleConnections();
          });
          await app!.stop();
          await db.close();
        })()),
    };
  } catch (error) {
    await app?.stop();
    await db.close();
    throw error;
  }
}
