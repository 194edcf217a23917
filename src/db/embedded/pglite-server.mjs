// Child process that owns the embedded PostgreSQL (PGlite) and serves it over the PostgreSQL wire
// protocol on a loopback port. It runs outside the service's event loop (PGlite executes queries
// synchronously) and outside jest's VM (PGlite needs native dynamic import).
// Protocol with the parent (IPC): it sends {type:'ready', port} or {type:'error', message};
// on {type:'stop'}, SIGINT, SIGTERM or a lost parent it checkpoints, closes and exits.
// On {type:'dump', file} it writes the whole data directory as a gzipped tarball to the new file
// `file` and answers {type:'dumped', bytes} or {type:'dump-failed', message}.
// argv: the data directory (or memory://), then optionally a tarball of dumpDataDir to start
// from, which PGlite unpacks into the (empty) data directory before it starts.
import { createWriteStream, openAsBlob } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

const dataDir = process.argv[2] ?? 'memory://';
const archive = process.argv[3];

let db;
let server;
let stopping = false;

/**
 * pglite-socket refuses a connection while its one slot is taken: node's own `maxConnections`
 * resets it, or the server writes "Too many connections" (not even a protocol message). A pool that replaces a dead connection opens the next
 * one at once, often before this process has seen the first one close, and the replacement would
 * fail. Here a new connection waits for the slot instead, as a pooler queues a client, for as long
 * as the client waits (its own connect timeout closes the socket).
 */
class QueueingSocketServer extends PGLiteSocketServer {
  #wakers = [];

  constructor(options) {
    super(options);
    // A slot is free when the server forgets a handler, which it does once the handler's socket
    // closed and its transaction (if any) is rolled back.
    const handlers = this.handlers;
    const forget = handlers.delete.bind(handlers);
    handlers.delete = (handler) => {
      const forgotten = forget(handler);
      if (forgotten) this.#wakeAll();
      return forgotten;
    };
  }

  async start() {
    await super.start();
    // The slot is counted here; node's own count would reset the socket before it could wait.
    this.server.maxConnections = Infinity;
  }

  async handleConnection(socket) {
    while (this.handlers.size >= this.maxConnections && !socket.destroyed) {
      await new Promise((resolve) => {
        this.#wakers.push(resolve);
        socket.once('close', resolve);
      });
    }
    if (!socket.destroyed) await super.handleConnection(socket);
  }

  #wakeAll() {
    const wakers = this.#wakers;
    this.#wakers = [];
    for (const wake of wakers) wake();
  }
}

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
  else if (message && message.type === 'dump') void dump(message.file);
});

async function dump(file) {
  try {
    // Everything in the data files first, so the copy opens without recovery.
    await db.exec('CHECKPOINT');
    const tarball = await db.dumpDataDir('gzip');
    // 'wx': never overwrite; the parent names a new file and renames it when it is whole.
    await pipeline(Readable.fromWeb(tarball.stream()), createWriteStream(file, { flags: 'wx' }));
    process.send?.({ type: 'dumped', bytes: tarball.size });
  } catch (error) {
    process.send?.({ type: 'dump-failed', message: String(error?.message ?? error) });
  }
}

try {
  // Untyped on purpose: PGlite tells a gzipped tarball from a plain one by trying both.
  db = await PGlite.create(dataDir, archive ? { loadDataDir: await openAsBlob(archive) } : {});
  // One connection at a time: pglite-socket's multi-connection mode has known bugs.
  server = new QueueingSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 1 });
  await server.start();
  const port = Number(server.getServerConn().split(':').pop());
  process.send?.({ type: 'ready', port });
} catch (error) {
  process.send?.({ type: 'error', message: String(error?.message ?? error) });
  await stop(1);
}
