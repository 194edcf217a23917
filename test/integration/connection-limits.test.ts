import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/core/config';
import { startEmbeddedPostgres } from '../../src/db/embedded/embedded-postgres';
import { startServer, type RunningServer } from '../../src/server';
import { createTestDatabaseTarget, type TestDatabaseTarget } from '../support/test-database';

/**
 * Issue 20, item 9: about 22,000 idle connections from one address made `/healthz` and the API
 * unreachable. `timetrack serve` (startServer, a real listening server) now caps connections per
 * client address and in all, closing the excess as it arrives, and gives a client
 * `HTTP_HEADERS_TIMEOUT_MS` to send its headers. The caps are small here so that the test can
 * fill them; every other loopback address (127.0.0.2, ...) is another client.
 */

jest.setTimeout(60_000);

interface Started {
  server: RunningServer;
  port: number;
  stop(): Promise<void>;
}

async function start(env: Record<string, string>): Promise<Started> {
  const target: TestDatabaseTarget = await createTestDatabaseTarget({ schema: 'migrated' });
  // Without a server: a copy of the suite's migrated template, served over its URL as a server
  // would be (one connection, no LISTEN, as test/support/proxied-database.ts sets it), not initdb
  // and every migration in a new DATA_DIR: what this file tests is the HTTP server's connections.
  const embedded = target.inMemory
    ? await startEmbeddedPostgres({
        memory: true,
        ...(target.restoreFrom ? { restoreFrom: target.restoreFrom } : {}),
      })
    : undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'timetrack-connections-'));
  const drop = async () => {
    await embedded?.stop();
    await target.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const server = await startServer(
      loadConfig({
        NODE_ENV: 'test',
        PORT: '0',
        DATA_DIR: dataDir,
        PASSWORD_HASH_MEMORY_KIB: '8',
        ...target.env,
        ...(embedded ? { DATABASE_URL: embedded.url, DB_POOL_MAX: '1', DB_LISTEN: 'false' } : {}),
        ...env,
      }),
    );
    return {
      server,
      port: Number(new URL(server.url).port),
      stop: async () => {
        await server.stop();
        await drop();
      },
    };
  } catch (error) {
    await drop();
    throw error;
  }
}

/** A raw TCP connection from `from` (a loopback address) that records what the server does. */
class Client {
  readonly socket: net.Socket;
  private received = '';
  private readonly closed: Promise<void>;
  private waiting: (() => void) | undefined;

  private constructor(port: number, from: string) {
    this.socket = net.connect({ port, host: '127.0.0.1', localAddress: from });
    // A write to a connection the server already closed fails; what the server did is what counts.
    this.socket.on('error', () => {});
    this.socket.on('data', (chunk: Buffer) => {
      this.received += chunk.toString('latin1');
      this.waiting?.();
    });
    this.closed = new Promise((resolve) => this.socket.once('close', () => resolve()));
  }

  static async open(port: number, from: string): Promise<Client> {
    const client = new Client(port, from);
    await new Promise<void>((resolve, reject) => {
      client.socket.once('connect', resolve);
      client.socket.once('error', reject);
    });
    return client;
  }

  /**
   * Sends `GET /healthz` and answers what became of it: the status line of the answer, or
   * `closed` when the server closed the connection without answering.
   */
  async healthz(): Promise<string> {
    const before = this.received.length;
    this.socket.write('GET /healthz HTTP/1.1\r\nHost: timetrack\r\n\r\n');
    return this.outcome(before);
  }

  /** What the server does without being asked anything: its answer's status line, or `closed`. */
  untilServerActs(): Promise<string> {
    return this.outcome(this.received.length);
  }

  private async outcome(from: number): Promise<string> {
    const answered = new Promise<void>((resolve) => {
      this.waiting = () => {
        if (this.received.indexOf('\r\n', from) >= 0) resolve();
      };
      this.waiting();
    });
    await Promise.race([answered, this.closed]);
    const line = this.received.slice(from).split('\r\n')[0];
    return line ? line : 'closed';
  }

  close(): void {
    this.socket.destroy();
  }
}

describe('connection caps', () => {
  let s: Started;
  const clients: Client[] = [];
  const open = async (from: string) => {
    const client = await Client.open(s.port, from);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    s = await start({
      HTTP_MAX_CONNECTIONS_PER_ADDRESS: '3',
      HTTP_MAX_CONNECTIONS: '8',
      // A proxy in front, as TRUST_PROXY names it: every client behind it shares its address.
      TRUST_PROXY: '127.0.0.9',
      // Long enough that nothing held here times out while the test runs.
      HTTP_HEADERS_TIMEOUT_MS: '600000',
      HTTP_REQUEST_TIMEOUT_MS: '600000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '600000',
    });
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await s?.stop();
  });

  test('one address holds at most its share; the next is closed unanswered, another client gets through', async () => {
    const held = [await open('127.0.0.1'), await open('127.0.0.1'), await open('127.0.0.1')];
    // The server accepts connections in the order they arrive: this one is the fourth.
    const fourth = await open('127.0.0.1');
    expect(await fourth.healthz()).toBe('closed');
    // Another client is served; so are the connections the first one holds.
    expect(await (await open('127.0.0.2')).healthz()).toBe('HTTP/1.1 200 OK');
    expect(await held[0]!.healthz()).toBe('HTTP/1.1 200 OK');

    // A connection given up frees its place (once the server has seen it close).
    held[1]!.close();
    let again = 'closed';
    while (again === 'closed') again = await (await open('127.0.0.1')).healthz();
    expect(again).toBe('HTTP/1.1 200 OK');
  });

  test("a trusted proxy's own address is not capped: the proxy limits its clients", async () => {
    const throughProxy = [];
    for (let i = 0; i < 4; i += 1) throughProxy.push(await open('127.0.0.9'));
    for (const client of throughProxy) expect(await client.healthz()).toBe('HTTP/1.1 200 OK');
  });

  test('the server holds at most HTTP_MAX_CONNECTIONS in all; more are closed unanswered', async () => {
    // Held now: three from 127.0.0.1, one from 127.0.0.2 and four from the proxy: eight, the cap.
    expect(await (await open('127.0.0.3')).healthz()).toBe('closed');
  });
});

describe('header timeout', () => {
  let s: Started;
  beforeAll(async () => {
    s = await start({ HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '2000' });
  });
  afterAll(() => s?.stop());

  test('a connection that sends nothing, or half a request, is answered 408 and closed', async () => {
    const idle = await Client.open(s.port, '127.0.0.1');
    const slow = await Client.open(s.port, '127.0.0.1');
    slow.socket.write('GET /healthz HTTP/1.1\r\nHost: timetrack\r\n');
    const served = await Client.open(s.port, '127.0.0.1');
    expect(await served.healthz()).toBe('HTTP/1.1 200 OK');
    // No clock is read: the server acts by itself (Node's defaults would take 60 to 90 s, past the
    // test's timeout).
    expect(await idle.untilServerActs()).toBe('HTTP/1.1 408 Request Timeout');
    expect(await slow.untilServerActs()).toBe('HTTP/1.1 408 Request Timeout');
    for (const client of [idle, slow, served]) client.close();
  });
});
