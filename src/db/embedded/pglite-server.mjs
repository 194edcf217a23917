// Child process that owns the embedded PostgreSQL (PGlite) and serves it over the PostgreSQL wire
// protocol on a loopback port. It runs outside the service's event loop (PGlite executes queries
// synchronously) and outside jest's VM (PGlite needs native dynamic import).
// Protocol with the parent (IPC): it sends {type:'ready', port} or {type:'error', message};
// on {type:'stop'}, SIGINT, SIGTERM or a lost parent it checkpoints, closes and exits.
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

const dataDir = process.argv[2] ?? 'memory://';

let db;
let server;
let stopping = false;

async function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  try {
    if (server) await server.stop();
    if (db && !db.closed) {
      // Flush everything to the data files so the next start needs no recovery.
      await db.exec('CHECKPOINT').catch(() => {});
      await db.close();
    }
  } catch (error) {
    process.stderr.write(`embedded postgres: error while closing: ${error?.message ?? error}\n`);
    code = 1;
  }
  if (process.connected) process.disconnect();
  process.exit(code);
}

process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
process.on('disconnect', () => void stop());
process.on('message', (message) => {
  if (message && message.type === 'stop') void stop();
});

try {
  db = await PGlite.create(dataDir);
  // One connection only: pglite-socket's multi-connection mode has known bugs.
  server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 1 });
  await server.start();
  const port = Number(server.getServerConn().split(':').pop());
  process.send?.({ type: 'ready', port });
} catch (error) {
  process.send?.({ type: 'error', message: String(error?.message ?? error) });
  await stop(1);
}
