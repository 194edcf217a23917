/**
 * The README's tour, word for word: a newcomer copies its two blocks into a shell, so they must
 * work on a fresh embedded database. The blocks are read from README.md (the code fence after
 * `<!-- tour:setup -->` and after `<!-- tour:requests -->`) and run with bash from the repository
 * root, as a person would. Two liberties, both forced by running inside a test suite:
 * - `npm start` is `npm run build` then `node <heap flags> dist/src/main.js serve`; `npm test` has
 *   built dist/ already, so the test starts that server directly, with the start script's own
 *   command (in the background, as the README's second terminal implies) instead of building
 *   again;
 * - the server gets a free port and its own DATA_DIR, and `http://127.0.0.1:3000` in the commands
 *   is replaced by its address, so the test never collides with a service a developer runs.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { waitForOutput } from '../support/cli-process';
import { startFlags } from '../../bench/start-flags';
import packageJson from '../../package.json';

jest.setTimeout(300_000);

const ROOT = path.join(__dirname, '..', '..');
const README_URL = 'http://127.0.0.1:3000';
const run = promisify(execFile);

/** The sh code fence that follows `<!-- tour:<name> -->` in README.md. */
function tourBlock(name: string): string {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const match = new RegExp(`<!-- tour:${name} -->\\s*\`\`\`sh\\n([\\s\\S]*?)\`\`\``).exec(readme);
  if (!match) throw new Error(`README.md has no tour:${name} block`);
  return match[1]!;
}

/** A block split into its commands: paragraphs, each led by its comment line. */
function commands(block: string): { comment: string; script: string }[] {
  return block
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph) => {
      const lines = paragraph.split('\n');
      return {
        comment: lines.filter((l) => l.startsWith('#')).join(' '),
        script: lines.filter((l) => !l.startsWith('#')).join('\n'),
      };
    });
}

let dataDir: string;
let server: ChildProcess | undefined;
let baseUrl: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'timetrack-tour-'));
  // The embedded database, whatever the suite runs on: the README's tour is the embedded one.
  env = { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'development' };
  delete env.DATABASE_URL;
  delete env.TEST_DATABASE_URL;
});

afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((resolve) => server!.once('exit', resolve));
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('the setup block seeds the demo account and starts the service', async () => {
  const lines = tourBlock('setup')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  expect(lines).toEqual(['npx timetrack seed --demo', 'npm start']);

  const seeded = await run('bash', ['-euo', 'pipefail', '-c', lines[0]!], { cwd: ROOT, env });
  expect(seeded.stdout).toMatch(/demo/);

  const flags = startFlags(packageJson.scripts.start);
  const child = spawn(
    process.execPath,
    [...flags, path.join(ROOT, 'dist', 'src', 'main.js'), 'serve'],
    {
      cwd: ROOT,
      env: { ...env, PORT: '0' },
    },
  );
  server = child;
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  // Awaited on each chunk it prints (and failed at once if it exits first), not on a timer.
  const [, url] = await waitForOutput(/listening on (http:\/\/[^\s"]+)/, {
    name: 'the service',
    child,
    output: () => output,
    exited: new Promise((resolve) => child.on('exit', resolve)),
  });
  baseUrl = url!.replace(/\/$/, '');
});

test('the started build serves the web app at /, and its client asks the demo owner for approval', async () => {
  expect(baseUrl).toBeDefined();
  const page = await fetch(`${baseUrl}/`, { headers: { accept: 'text/html' } });
  expect(page.status).toBe(200);
  expect(await page.text()).toMatch(
    /<script type="module" crossorigin src="\/app\/assets\/[^"]+\.js">/,
  );
  // The seed opened the first account, which registered the web app's client.
  const approval = await fetch(
    `${baseUrl}/oauth/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: 'timetrack-web',
      state: 'tour',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    })}`,
  );
  expect(approval.status).toBe(200);
  expect(await approval.text()).toContain('timetrack web app');
});

test('every request of the tour answers as the README says', async () => {
  expect(baseUrl).toBeDefined();
  const steps = commands(tourBlock('requests'));
  const outputs: string[] = [];
  for (const { comment, script } of steps) {
    expect(script).toContain(README_URL);
    const { stdout } = await run(
      'bash',
      ['-euo', 'pipefail', '-c', script.split(README_URL).join(baseUrl)],
      { cwd: ROOT, env },
    );
    outputs.push(stdout);
    expect({ comment, stdout }).toEqual({ comment, stdout: expect.stringMatching(/\S/) });
  }
  expect(steps).toHaveLength(5);
  const [graphql, projectsJson, runningJson, xml, report] = outputs;

  const viewerAndProjects = JSON.parse(graphql!);
  expect(viewerAndProjects.errors).toBeUndefined();
  expect(viewerAndProjects.data.viewer.staff).toEqual({ login: 'demo', type: 'OWNER' });
  expect(viewerAndProjects.data.projects.totalCount).toBeGreaterThan(0);
  expect(
    viewerAndProjects.data.projects.nodes.some((p: { grandTotal: number }) => p.grandTotal > 0),
  ).toBe(true);

  const projects = JSON.parse(projectsJson!);
  expect(projects.count).toBe(viewerAndProjects.data.projects.totalCount);
  const names = projects.response.map((p: { name: string }) => p.name);
  expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b)));
  expect(projects.response[0]).toEqual(
    expect.objectContaining({
      uuid: expect.any(String),
      grand_total: expect.any(Number),
      active: expect.any(String),
    }),
  );

  // The demo has one running shift.
  const running = JSON.parse(runningJson!);
  expect(running.count).toBeGreaterThanOrEqual(1);
  expect(running.response.every((s: { stop: string | null }) => s.stop === null)).toBe(true);

  // The punch-in answers a project document; the list shows project 1 (XML checked loosely: the
  // XML contract tests check the shapes).
  expect(xml).toMatch(
    /^<\?xml[^>]*\?>\s*<project>\s*<id type="integer">1<\/id>[\s\S]*<\/project>\s*<\?xml[^>]*\?>\s*<projects type="array">\s*<project>/,
  );

  const summary = JSON.parse(report!);
  expect(summary.errors).toBeUndefined();
  expect(summary.data.report.totalCount).toBeGreaterThan(0);
  expect(summary.data.report.totals.seconds).toBeGreaterThan(0);
});
