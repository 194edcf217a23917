import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../../src/cli';
import { createTestDatabaseTarget, type TestDatabaseTarget } from '../support/test-database';

/** Runs the CLI in-process with an environment, capturing what it prints. */
async function cli(args: string[], env: Record<string, string>) {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  let stdout = '';
  let stderr = '';
  const out = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
  const err = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
  try {
    const code = await runCli(args);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
    process.env = saved;
  }
}

let target: TestDatabaseTarget;
let env: Record<string, string>;
beforeAll(async () => {
  target = await createTestDatabaseTarget();
  // Without a server the CLI uses an embedded database in a directory of its own.
  env = { PASSWORD_HASH_MEMORY_KIB: '1024', ...target.env, ...(target.inMemory ? { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'timetrack-cli-')) } : {}) };
});
afterAll(() => target?.drop());

test('account create prints one line of JSON with the new ids', async () => {
  const result = await cli(['account', 'create', '--login', 'cli-owner', '--password', 'cli-password', '--email', 'o@example.com', '--staff-max', '3', '--time-max-hours', '1.5'], env);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const lines = result.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  const printed = JSON.parse(lines[0]!);
  expect(printed).toEqual({
    account_uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
    account_id: expect.any(Number),
    owner_uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
    owner_id: expect.any(Number),
    login: 'cli-owner',
  });
});

test('a taken login is refused with a message and a non-zero exit', async () => {
  const result = await cli(['account', 'create', '--login', 'CLI-OWNER', '--password', 'cli-password', '--email', 'o@example.com'], env);
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/login: is already taken/);
});

test.each([
  [['account', 'create', '--login', 'x', '--email', 'x@example.com'], /required option '--password <password>'/],
  [['account', 'create', '--login', 'x', '--password', 'long-enough', '--email', 'x@example.com', '--staff-max', 'lots'], /--staff-max.*whole number/],
  [['account', 'create', '--login', 'x', '--password', 'short', '--email', 'nope'], /password: must be at least 8 characters[\s\S]*email: is not an e-mail address/],
  [['account', 'create', '--login', 'x', '--password', 'long-enough', '--email', 'x@example.com', '--time-zone', 'Mars/Olympus'], /timeZone: is not a valid IANA time zone/],
  [['frobnicate'], /unknown command 'frobnicate'/],
])('bad arguments %j give a clear message and a non-zero exit', async (args, message) => {
  const result = await cli(args, env);
  expect(result.code).not.toBe(0);
  expect(result.stderr).toMatch(message);
});

test('an invalid setting stops the CLI with a message naming the variable', async () => {
  const result = await cli(['migrate'], { ...env, PORT: 'eighty' });
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/PORT/);
});

test('oauth client create, list and revoke act for the owner named by --owner', async () => {
  expect((await cli(['account', 'create', '--login', 'oauth-owner', '--password', 'cli-password', '--email', 'oo@example.com'], env)).code).toBe(0);
  const created = await cli(['oauth', 'client', 'create', '--owner', 'oauth-owner', '--name', 'Invoicer', '--protocol', 'oauth1', '--redirect-uri', 'https://app.example/cb'], env);
  expect(created.stderr).toBe('');
  expect(created.code).toBe(0);
  const client = JSON.parse(created.stdout.trim());
  expect(client).toEqual({
    id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    name: 'Invoicer',
    protocol: 'oauth1',
    key: expect.stringMatching(/^[\w-]{24}$/),
    secret: expect.stringMatching(/^[\w-]{43}$/),
    redirect_uris: ['https://app.example/cb'],
  });
  const publicClient = JSON.parse((await cli(['oauth', 'client', 'create', '--owner', 'oauth-owner', '--name', 'CLI', '--public'], env)).stdout);
  expect(publicClient).toMatchObject({ protocol: 'oauth2', secret: null });

  const listed = await cli(['oauth', 'client', 'list', '--owner', 'oauth-owner'], env);
  expect(listed.stdout.trim().split('\n').map((line) => JSON.parse(line).key)).toEqual([client.key, publicClient.key]);
  expect(listed.stdout).not.toContain(client.secret);

  const revoked = await cli(['oauth', 'client', 'revoke', '--owner', 'oauth-owner', client.id], env);
  expect(revoked).toMatchObject({ code: 0, stdout: `revoked Invoicer (${client.key})\n` });
  expect((await cli(['oauth', 'client', 'list', '--owner', 'oauth-owner'], env)).stdout).not.toContain(client.key);
});

test('oauth client commands refuse a login that is not an owner, and a bad protocol', async () => {
  const notOwner = await cli(['oauth', 'client', 'list', '--owner', 'nobody-at-all'], env);
  expect(notOwner).toMatchObject({ code: 2, stderr: 'error: No account owner has the login nobody-at-all\n' });
  const badProtocol = await cli(['oauth', 'client', 'create', '--owner', 'oauth-owner', '--name', 'x', '--protocol', 'oauth3'], env);
  expect(badProtocol.code).toBeGreaterThan(0);
  expect(badProtocol.stderr).toMatch(/--protocol.*must be oauth1 or oauth2/);
});
