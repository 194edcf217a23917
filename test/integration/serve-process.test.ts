import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { waitForOutput, type Spawned } from '../support/cli-process';
import { createTestDatabaseTarget } from '../support/test-database';

/**
 * `timetrack serve` as an operator runs it (the built CLI; `npm test` builds first): it answers
 * GraphQL on the embedded database, refuses a second process on the same data directory, and
 * shuts down cleanly on SIGTERM and SIGINT: the port closes at once, requests in flight get their
 * answers until SHUTDOWN_TIMEOUT_MS, and then the process exits whatever is still open.
 */
const MAIN = path.join(__dirname, '..', '..', 'dist', 'src', 'main.js');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'timetrack-serve-'));
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  PORT: '0',
  PASSWORD_HASH_MEMORY_KIB: '1024',
  DATABASE_URL: '',
};

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

// Each test starts `timetrack` processes that boot an embedded database and run the migrations:
// seconds on an idle machine, over a minute on a saturated 2-core CI machine.
jest.setTimeout(240_000);

/** Starts `timetrack <args>`; its output is awaited with waitForOutput (on each chunk, not a timer). */
function run(args: string[], extraEnv: Record<string, string> = {}): Spawned {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [MAIN, ...args], {
    env: { ...env, ...extraEnv },
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { name: `timetrack ${args.join(' ')}`, child, output: () => output, exited };
}

test.each(['SIGTERM', 'SIGINT'] as const)(
  'serve answers, keeps a second process off its data, and stops cleanly on %s',
  async (signal) => {
    const create = run([
      'account',
      'create',
      '--login',
      `owner-${signal}`,
      '--password',
      'serve-password',
      '--email',
      'o@example.com',
    ]);
    expect(await create.exited).toBe(0);

    const server = run(['serve']);
    const [, url] = await waitForOutput(/listening on (http:\/\/[^ ]+)/, server);
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from(`owner-${signal}:serve-password`).toString('base64')}`,
      },
      body: JSON.stringify({ query: '{ viewer { staff { login } } }' }),
    });
    expect(await response.json()).toEqual({
      data: { viewer: { staff: { login: `owner-${signal}` } } },
      extensions: { cost: expect.any(Object) },
    });

    const second = run(['serve']);
    expect(await second.exited).toBe(2);
    expect(second.output()).toMatch(/in use by another timetrack process/);

    server.child.kill(signal);
    expect(await server.exited).toBe(0);
    expect(server.output()).toMatch(/stopped cleanly/);
    expect(fs.existsSync(path.join(dataDir, 'timetrack.lock'))).toBe(false);
  },
);

describe('SIGTERM drains requests in flight', () => {
  /** A fresh database for one serve process: an embedded one in its own directory, or a server's. */
  async function database(): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
    const target = await createTestDatabaseTarget();
    if (!target.inMemory) return { env: target.env, drop: target.drop };
    return { env: { DATA_DIR: fs.mkdtempSync(path.join(dataDir, 'drain-')) }, drop: target.drop };
  }

  /** `serve` with an account in its database; answers its URL and port. */
  async function serveWithAccount(login: string, extraEnv: Record<string, string>) {
    const create = run(
      [
        'account',
        'create',
        '--login',
        login,
        '--password',
        'serve-password',
        '--email',
        'o@example.com',
      ],
      extraEnv,
    );
    expect(await create.exited).toBe(0);
    const server = run(['serve'], extraEnv);
    const [, url] = await waitForOutput(/listening on (http:\/\/[^ ]+)/, server);
    return { server, url: url!, port: Number(new URL(url!).port) };
  }

  const query = JSON.stringify({ query: '{ viewer { staff { login } } }' });
  const basic = (login: string) =>
    `Basic ${Buffer.from(`${login}:serve-password`).toString('base64')}`;

  /**
   * A POST /graphql written by hand: the headers and the first half of the body now; `finish()`
   * sends the rest. The server has the request (and counts it in flight) but cannot answer yet.
   * `Expect: 100-continue` makes the server say when it has the request: Node writes the interim
   * `100 Continue` and emits 'request' (where the server counts it in flight) in the same turn, so
   * once `inFlight` resolves the request is counted, with no pause guessed. `received()` is what
   * came after the interim answer.
   */
  function slowRequest(port: number, login: string) {
    const socket = net.connect(port, '127.0.0.1');
    const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n';
    let received = '';
    let onInFlight!: () => void;
    const inFlight = new Promise<void>((resolve) => (onInFlight = resolve));
    socket.on('data', (d) => {
      received += d;
      if (received.startsWith(CONTINUE)) onInFlight();
    });
    socket.on('error', () => {});
    const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now())));
    const half = Math.floor(query.length / 2);
    socket.write(
      `POST /graphql HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\n` +
        `authorization: ${basic(login)}\r\ncontent-length: ${Buffer.byteLength(query)}\r\n` +
        `expect: 100-continue\r\n\r\n${query.slice(0, half)}`,
    );
    return {
      inFlight,
      closed,
      received: () => (received.startsWith(CONTINUE) ? received.slice(CONTINUE.length) : received),
      finish: () => socket.write(query.slice(half)),
    };
  }

  function refused(port: number): Promise<string> {
    return new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.on('connect', () => {
        socket.destroy();
        resolve('connected');
      });
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    });
  }

  test('a request in flight still gets its answer; idle connections close at once; new ones are refused', async () => {
    const db = await database();
    try {
      const login = 'drain-owner';
      const { server, url, port } = await serveWithAccount(login, db.env);

      // An idle keep-alive connection: one answered request, then nothing.
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const { idleClosed } = await new Promise<{ idleClosed: Promise<number> }>(
        (resolve, reject) => {
          const req = http.request(
            `${url}/graphql`,
            {
              method: 'POST',
              agent,
              headers: { 'content-type': 'application/json', authorization: basic(login) },
            },
            (res) => {
              res.resume();
              res.on('end', () => {
                expect(res.statusCode).toBe(200);
                expect(res.headers.connection).toBe('keep-alive');
                resolve({
                  idleClosed: new Promise((closed) =>
                    req.socket!.once('close', () => closed(Date.now())),
                  ),
                });
              });
            },
          );
          req.on('error', reject);
          req.end(query);
        },
      );

      const slow = slowRequest(port, login);
      await slow.inFlight;
      const signalledAt = Date.now();
      server.child.kill('SIGTERM');
      await waitForOutput(
        /SIGTERM received: shutting down; new connections refused, 1 request\(s\) in flight/,
        server,
      );

      // The idle connection goes at once: it closes while the request in flight is still unfinished
      // (were it kept until the drain ends, this would wait for ever and the request would be cut
      // at the deadline instead of answered below). The port refuses new connections.
      const idleClosedAt = await idleClosed;
      expect(await refused(port)).toBe('ECONNREFUSED');
      agent.destroy();

      // The request in flight finishes after the signal and is answered in full, closing its connection.
      slow.finish();
      const answeredAt = await slow.closed;
      const [head, body] = slow.received().split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 200 /);
      expect(head).toMatch(/\r\nconnection: close\r\n/i);
      expect(JSON.parse(body!)).toEqual({
        data: { viewer: { staff: { login } } },
        extensions: { cost: expect.any(Object) },
      });

      expect(await server.exited).toBe(0);
      const exitedAt = Date.now();
      expect(server.output()).toMatch(/drained in \d+ ms\nstopped cleanly/);
      expect(server.output()).not.toMatch(/still in flight/);
      console.log(
        `drain: idle connection closed ${idleClosedAt - signalledAt} ms after SIGTERM; request answered ${answeredAt - signalledAt} ms after it; ` +
          `exit ${exitedAt - signalledAt} ms after it (${/drained in \d+ ms/.exec(server.output())?.[0]})`,
      );
    } finally {
      await db.drop();
    }
  });

  test('a request that never finishes is cut at SHUTDOWN_TIMEOUT_MS and the process still exits cleanly', async () => {
    const db = await database();
    try {
      const login = 'drain-stuck-owner';
      const shutdownTimeoutMs = 1500;
      const { server, port } = await serveWithAccount(login, {
        ...db.env,
        SHUTDOWN_TIMEOUT_MS: String(shutdownTimeoutMs),
      });
      const stuck = slowRequest(port, login);
      await stuck.inFlight;
      const signalledAt = Date.now();
      server.child.kill('SIGTERM');
      await waitForOutput(
        /SIGTERM received: shutting down; new connections refused, 1 request\(s\) in flight/,
        server,
      );
      expect(await refused(port)).toBe('ECONNREFUSED');

      const cutAt = await stuck.closed;
      expect(await server.exited).toBe(0);
      const exitedAt = Date.now();
      // Its connection lasts until the deadline (never cut early) and the process says it cut it
      // there; how much later it exits depends on the machine's load, so no upper bound is timed.
      expect(cutAt - signalledAt).toBeGreaterThanOrEqual(shutdownTimeoutMs - 50);
      expect(stuck.received()).toBe('');
      expect(server.output()).toMatch(
        /1 request\(s\) still in flight after 1500 ms: their connections were closed/,
      );
      expect(server.output()).toMatch(/stopped cleanly/);
      console.log(
        `drain deadline: connection cut ${cutAt - signalledAt} ms after SIGTERM; exit ${exitedAt - signalledAt} ms after it`,
      );
    } finally {
      await db.drop();
    }
  });
});
