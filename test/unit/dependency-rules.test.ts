import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * The dependency rules of `.dependency-cruiser.cjs` (run by `npm run lint`) really refuse a wrong
 * import: dependency-cruiser, with the repository's own configuration, on a small tree in
 * test/fixtures/dependency-rules that breaks two rules once each and keeps them once.
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
  expect(failed?.code).toBe(2);
  // Colours are on in CI (chalk reads CI=true); the rows are read without them.
  // eslint-disable-next-line no-control-regex
  const text = failed!.stdout.replace(/\x1b\[[0-9;]*m/g, '');
  const violations = [...text.matchAll(/error ([\w-]+): (\S+) → (\S+)/g)].map((m) => m.slice(1));
  expect(violations.sort()).toEqual([
    ['core-imports-nothing-else', 'src/core/leaky.ts', 'src/graphql/context.ts'],
    [
      'module-through-its-index',
      'src/modules/alpha/alpha.service.ts',
      'src/modules/beta/beta.rules.ts',
    ],
  ]);
}, 60_000);
