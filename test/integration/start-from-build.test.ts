import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import packageJson from '../../package.json';

/**
 * `npm start` builds first (`prestart`), and starts from the build as it is when the build is
 * current: `npm ci` has just built it, and a second start should not spend half a minute
 * compiling again. The build is `tsc -b`, whose up-to-date check compares the sources (their times,
 * then their contents) with the build's record of them. `npm test` has just built this tree; a dry
 * run asks the compiler what `prestart` would do, and writes nothing under the other tests' feet.
 */
const ROOT = path.resolve(__dirname, '..', '..');

test("start's build step finds the tree's build current and would leave it as it is", async () => {
  expect(packageJson.scripts.prestart).toBe('npm run build');
  expect(packageJson.scripts.build).toMatch(/^tsc -b tsconfig\.build\.json && /);
  const { stdout } = await promisify(execFile)(
    path.join(ROOT, 'node_modules', '.bin', 'tsc'),
    ['-b', 'tsconfig.build.json', '--dry', '--verbose'],
    { cwd: ROOT, encoding: 'utf8' },
  );
  // Run `npm run build` first when running this file alone after changing a source.
  expect(stdout).toMatch(/Project 'tsconfig\.build\.json' is up to date/);
  expect(stdout).not.toMatch(/A non-dry build would/);
});
