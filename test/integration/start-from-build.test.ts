import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * `npm start` builds first (`prestart`), and starts from the build as it is when the build is
 * current: `npm ci` has just built it, and a second start should not spend half a minute
 * compiling again. The build is `tsc -b`, whose up-to-date check compares the sources (their times,
 * then their contents) with the build's record of them; this runs it on this repository.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const BUILD_INFO = path.join(ROOT, 'dist', '.tsbuildinfo');
const MAIN = path.join(ROOT, 'dist', 'src', 'main.js');

const run = (file: string, args: string[]) =>
  promisify(execFile)(file, args, { cwd: ROOT, encoding: 'utf8' });
const modified = (file: string) => fs.statSync(file).mtimeMs;

// A first build of a stale tree can take minutes on a busy machine.
jest.setTimeout(600_000);

beforeAll(async () => {
  await run('npm', ['run', 'build']);
});

test("start's build step leaves a current build as it is", async () => {
  const before = { buildInfo: modified(BUILD_INFO), main: modified(MAIN) };
  await run('npm', ['run', 'prestart']);
  expect({ buildInfo: modified(BUILD_INFO), main: modified(MAIN) }).toEqual(before);
});
