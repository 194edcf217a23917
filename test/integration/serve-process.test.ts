import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * `timetrack serve` as an operator runs it (the built CLI; `npm test` builds first): it answers
 * GraphQL on the embedded database, refuses a second process on the same data directory, and
 * shuts down cleanly on SIGTERM and SIGINT.
 */
const MAIN = path.join(__dirname, '..', '..', 'dist', 'src', 'main.js');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'timetrack-serve-'));
const env = { ...process.env, DATA_DIR: dataDir, PORT: '0', PASSWORD_HASH_MEMORY_KIB: '1024', DATABASE_URL: '' };

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function run(args: string[]): { child: ChildProcessWithoutNullStreams; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [MAIN, ...args], { env });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitFor(pattern: RegExp, output: () => string, timeoutMs = 30_000): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = pattern.exec(output());
    if (match) return match;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}; output:\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test.each(['SIGTERM', 'SIGINT'] as const)('serve answers, keeps a second process off its data, and stops cleanly on %s', async (signal) => {
  const create = run(['account', 'create', '--login', `owner-${signal}`, '--password', 'serve-password', '--email', 'o@example.com']);
  expect(await create.exited).toBe(0);

  const server = run(['serve']);
  const [, url] = await waitFor(/listening on (http:\/\/[^ ]+)/, server.output);
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`owner-${signal}:serve-password`).toString('base64')}` },
    body: JSON.stringify({ query: '{ viewer { staff { login } } }' }),
  });
  expect(await response.json()).toEqual({ data: { viewer: { staff: { login: `owner-${signal}` } } } });

  const second = run(['serve']);
  expect(await second.exited).toBe(2);
  expect(second.output()).toMatch(/in use by another timetrack process/);

  server.child.kill(signal);
  expect(await server.exited).toBe(0);
  expect(server.output()).toMatch(/stopped cleanly/);
  expect(fs.existsSync(path.join(dataDir, 'timetrack.lock'))).toBe(false);
});
