import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const CODEGEN = path.join(ROOT, 'node_modules', '.bin', 'graphql-codegen');
const CONFIG = path.join('rest-facade', 'codegen', 'codegen.yml');

test('rest-facade/operations/generated.ts is what codegen generates (run `npm run codegen` after a change)', () => {
  // codegen's own check: it generates in memory and compares with the committed file, byte for
  // byte, writing nothing. It fails too when an operation stops validating against the schema.
  const check = spawnSync(CODEGEN, ['--config', CONFIG, '--check'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (check.status !== 0) {
    throw new Error(
      'rest-facade/operations/generated.ts is out of date or cannot be generated: run `npm run codegen` and commit the result.\n' +
        `${check.stdout}\n${check.stderr}`.trim(),
    );
  }
});
