import net, { type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * What the proxy does with traffic:
 * - `open`: forwards both ways;
 * - `down`: a stopped server: every connection is cut and the port refuses new ones (ECONNREFUSED);
 * - `blackhole`: a network partition: connections are accepted and kept, but nothing is forwarded
 *   either way, so the client waits for an answer that never comes.
 */
export type ProxyMode = 'open' | 'down' | 'blackhole';

/** A TCP proxy a test controls, placed between the app and its database. */
export interface TcpProxy {
  /** `host:port` of the proxy. */
  readonly host: string;
  readonly port: number;
  readonly mode: ProxyMode;
  /** Connections the proxy accepted since it started. */
  readonly accepted: number;
  /** Connections open right now. */
  readonly open: number;
  /** Forward again, on the same port. */
  restore(): Promise<void>;
  /** Destroys every connection and refuses new ones, as a stopped server does. */
  cut(): Promise<void>;
  /** Accepts, but forwards nothing (existing connections included). */
  blackhole(): Promise<void>;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream: Socket | undefined;
}

export async function startTcpProxy(upstream: { host: string; port: number }): Promise<TcpProxy> {
  let mode: ProxyMode = 'open';
  let accepted = 0;
  const pairs = new Set<Pair>();
  let server: Server | undefined;
  let port = 0;
  const host = '127.0.0.1';

  const destroyAll = () => {
    for (const pair of pairs) {
      pair.client.destroy();
      pair.upstream?.destroy();
    }
    pairs.clear();
  };

  const onConnection = (client: Socket) => {
    accepted += 1;
    const pair: Pair = { client, upstream: undefined };
    pairs.add(pair);
    client.on('error', () => {});
    client.on('close', () => {
      pair.upstream?.destroy();
      pairs.delete(pair);
    });
    if (mode === 'blackhole') {
      // Swallow whatever the client sends; never answer.
      client.on('data', () => {});
      return;
    }
    const up = net.connect(upstream.port, upstream.host);
    pair.upstream = up;
    up.on('error', () => client.destroy());
    up.on('close', () => client.destroy());
    // Bytes flow only while the proxy is open; in a blackhole they are dropped on the floor.
    client.on('data', (chunk) => {
      if (mode === 'open') up.write(chunk);
    });
    up.on('data', (chunk) => {
      if (mode === 'open') client.write(chunk);
    });
  };

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = net.createServer(onConnection);
      s.once('error', reject);
      s.listen(port, host, () => {
        s.off('error', reject);
        server = s;
        port = (s.address() as AddressInfo).port;
        resolve();
      });
    });

  const stopListening = async () => {
    const s = server;
    server = undefined;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };

  await listen();

  return {
    host,
    get port() {
      return port;
    },
    get mode() {
      return mode;
    },
    get accepted() {
      return accepted;
    },
    get open() {
      return pairs.size;
    },
    restore: async () => {
      if (mode === 'blackhole') destroyAll();
      mode = 'open';
      if (!server) await listen();
    },
    cut: async () => {
      mode = 'down';
      const closing = stopListening();
      destroyAll();
      await closing;
    },
    blackhole: async () => {
      mode = 'blackhole';
      if (!server) await listen();
    },
    close: async () => {
      mode = 'down';
      const closing = stopListening();
      destroyAll();
      await closing;
    },
  };
}

/** The URL of a database reached through `proxy`: `url` with the proxy's host and port. */
export function throughProxy(url: string, proxy: TcpProxy): string {
  const proxied = new URL(url);
  proxied.hostname = proxy.host;
  proxied.port = String(proxy.port);
  return proxied.toString();
}
