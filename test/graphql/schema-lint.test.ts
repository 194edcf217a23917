import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { runner } from 'graphql-schema-linter';

/*
 * graphql-schema-linter over the committed schema (schema/schema.graphql), with the repository's
 * configuration (.graphql-schema-linterrc: every description rule plus the naming rules the schema
 * follows). It is the tool app developers' tooling runs, so this passes only when the tool does:
 * every type, field, argument, enum value and input field describes itself.
 */

const ROOT = path.join(__dirname, '..', '..');

interface LintError {
  message: string;
  location: { line: number; column: number; file: string };
  rule: string;
}

/** Runs the linter's own command-line entry in-process, with the repository's configuration. */
async function lint(
  options: { stdin?: string } = {},
): Promise<{ code: number; errors: LintError[] }> {
  let out = '';
  let err = '';
  const sink = (append: (text: string) => void) =>
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        append(chunk.toString());
        done();
      },
    });
  const stdout = sink((text) => (out += text));
  const stderr = sink((text) => (err += text));
  const argv = ['node', 'graphql-schema-linter', '--config-directory', ROOT, '--format', 'json'];
  if (options.stdin !== undefined) argv.push('--stdin');
  const stdin = Readable.from([Buffer.from(options.stdin ?? '')]);
  const code = await runner.run(stdout, stdin, stderr, argv);
  if (out === '') throw new Error(`graphql-schema-linter printed no report (exit ${code}): ${err}`);
  return { code, errors: (JSON.parse(out) as { errors: LintError[] }).errors };
}

test('the committed schema passes graphql-schema-linter with the description rules', async () => {
  const { code, errors } = await lint();
  const report = errors.map((e) => `  line ${e.location.line}: ${e.message} (${e.rule})`);
  // Listed in full, so the message names every element still missing a description.
  expect({ count: errors.length, report }).toEqual({ count: 0, report: [] });
  expect(code).toBe(0);
});

test('the linter configuration finds an undescribed field (the check above can fail)', async () => {
  const { code, errors } = await lint({
    stdin: [
      '"""The root."""',
      'type Query {',
      '  """Described."""',
      '  described: Int',
      '  undescribed(first: Int): Int',
      '}',
      '',
    ].join('\n'),
  });
  expect(code).toBe(1);
  expect(errors.map((e) => [e.rule, e.message]).sort()).toEqual([
    [
      'arguments-have-descriptions',
      'The `first` argument of `undescribed` is missing a description.',
    ],
    ['fields-have-descriptions', 'The field `Query.undescribed` is missing a description.'],
  ]);
});
