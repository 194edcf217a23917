import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const CODEGEN = path.join(ROOT, 'node_modules', '.bin', 'graphql-codegen');

test.each([
  ['rest-facade/operations/generated.ts', 'rest-facade/codegen/codegen.yml', 'npm run codegen'],
  ['web/src/api/generated.ts', 'web/codegen.yml', 'npm run web:codegen'],
])('%s is what codegen generates (run `%s` after a change)', (file, config, command) => {
  // codegen's own check: it generates in memory and compares with the committed file, byte for
  // byte, writing nothing. It fails too when an operation stops validating against the schema.
  const check = spawnSync(CODEGEN, ['--config', config, '--check'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (check.status !== 0) {
    throw new Error(
      `${file} is out of date or cannot be generated: run \`${command}\` and commit the result.\n` +
        `${check.stdout}\n${check.stderr}`.trim(),
    );
  }
});
