import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * The dependency rules of `.dependency-cruiser.cjs` (run by `npm run lint`) really refuse a wrong
 * import: dependency-cruiser, with the repository's own configuration, on a small tree in
 * test/fixtures/dependency-rules that breaks each of four rules once and keeps them once. The
 * fixture's package.json declares its packages: a development one imported at run time, or one
 * not declared at all (present only in another package's tree), is refused; types-only is not.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'dependency-rules');

test('a forbidden import fails the dependency rules, an allowed one passes', async () => {
  const failed = await promisify(execFile)(
    path.join(ROOT, 'node_modules', '.bin', 'depcruise'),
    ['src', '--config', path.join(ROOT, '.dependency-cruiser.cjs')],
    { cwd: FIXTURE },
  ).then(
    () => undefined,
    (error: { code: number; stdout: string }) => error,
  );
  // The exit code counts the violations.
  expect(failed?.code).toBe(4);
  // Colours are on in CI (chalk reads CI=true); the rows are read without them.
  // eslint-disable-next-line no-control-regex
  const text = failed!.stdout.replace(/\x1b\[[0-9;]*m/g, '');
  const violations = [...text.matchAll(/error ([\w-]+): (\S+) → (\S+)/g)].map(
    ([, rule, from, to]) => [
      rule,
      from,
      // A package by its name, wherever node_modules is.
      to!.replace(/^.*node_modules\/([^/]+)\/.*$/, '$1'),
    ],
  );
  expect(violations.sort()).toEqual([
    ['core-imports-nothing-else', 'src/core/leaky.ts', 'src/graphql/context.ts'],
    ['imports-are-declared', 'src/http/undeclared.ts', 'lru-cache'],
    [
      'module-through-its-index',
      'src/modules/alpha/alpha.service.ts',
      'src/modules/beta/beta.rules.ts',
    ],
    ['runtime-imports-are-dependencies', 'src/http/dev-at-run-time.ts', 'supertest'],
  ]);
}, 60_000);
