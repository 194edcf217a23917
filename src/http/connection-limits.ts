import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { HttpServerLimits } from '../core/config';
import type { Logger } from '../core/logger';

/**
 * The HTTP server of `timetrack serve`, with caps on what clients can hold open. Each open
 * connection costs a file descriptor and memory whether or not it ever sends a request; about
 * 22,000 idle connections from one address once made the service unreachable for everyone
 * (issue 20, item 9). So:
 *
 * - a client has `headersTimeout` to send a request's headers, from its connection on (Node's
 *   default is 60 s, checked every 30 s) and `requestTimeout` for the whole request; then it is
 *   answered 408 and closed;
 * - at most `maxConnections` are open in all (Node's `server.maxConnections`), and at most
 *   `maxConnectionsPerAddress` from one client address: more are closed as they arrive, without an
 *   answer, so one client cannot take every connection (a counter of our own on `connection`
 *   events; Node has no per-address cap, and the libraries that count per address are about
 *   requests, not connections);
 * - a trusted proxy's own address (`TRUST_PROXY`) is exempt from the per-address cap: every client
 *   behind it shares that address, so the proxy has to limit per client (docs/operations.md).
 */
export function createLimitedHttpServer(
  limits: HttpServerLimits,
  deps: {
    /** Whether a connection's peer address is a trusted proxy (Express's `trust proxy fn`). */
    isTrustedProxy(address: string): boolean;
    logger: Logger;
  },
): Server {
  const server = createServer({
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    // How often Node looks for connections past those timeouts (default 30 s, so an idle
    // connection could outlive the headers timeout by that much).
    connectionsCheckingInterval: 1_000,
  });
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  if (limits.maxConnections > 0) {
    server.maxConnections = limits.maxConnections;
    warnOfDrops(server, deps.logger, limits.maxConnections);
  }
  if (limits.maxConnectionsPerAddress > 0)
    capPerAddress(server, limits.maxConnectionsPerAddress, deps);
  return server;
}

function capPerAddress(
  server: Server,
  cap: number,
  deps: { isTrustedProxy(address: string): boolean; logger: Logger },
): void {
  const open = new Map<string, number>();
  // Addresses refused since they last had no connection: each is logged once per such episode.
  const refusing = new Set<string>();
  // After the http server's own listener, which sets the connection up; a socket destroyed here is
  // one it cleans up like any other that closed early.
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined || deps.isTrustedProxy(address)) return;
    const count = (open.get(address) ?? 0) + 1;
    if (count > cap) {
      socket.destroy();
      if (!refusing.has(address)) {
        refusing.add(address);
        deps.logger.warn(
          { address, open: cap },
          'connections refused: this address holds the most connections one address may',
        );
      }
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else {
        open.delete(address);
        refusing.delete(address);
      }
    });
  });
}

/** Logs connections dropped at the total cap: once, then a count at most once a minute. */
function warnOfDrops(server: Server, logger: Logger, cap: number): void {
  let dropped = 0;
  let timer: NodeJS.Timeout | undefined;
  server.on('drop', () => {
    dropped += 1;
    if (timer) return;
    logger.warn({ open: cap }, 'connections refused: the server holds the most connections it may');
    dropped = 0;
    timer = setTimeout(() => {
      timer = undefined;
      if (dropped > 0)
        logger.warn({ open: cap, dropped }, 'connections refused in the last minute at the cap');
    }, 60_000);
    timer.unref();
  });
}
