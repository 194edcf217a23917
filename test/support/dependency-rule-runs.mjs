/**
 * Runs the dependency rules of a dependency-cruiser configuration over a fixture tree (the working
 * directory), once with every rule's fixture left out and once per rule with only its own fixture
 * in: `node test/support/dependency-rule-runs.mjs <configuration>`. A rule's fixture is the files
 * named for it (`<rule>.ts`, `<rule>.<part>.ts`). Prints the rules, their fixtures and each run's
 * violations as JSON for test/unit/dependency-rules.test.ts.
 *
 * It uses dependency-cruiser's API in one process, not its command once per run: the package is
 * ESM, which jest's module loader does not load, and each command would spend seconds loading
 * TypeScript again.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const [configuration] = process.argv.slice(2);
const options = await extractDepcruiseOptions(path.resolve(configuration));
const tsConfig = extractTSConfig(options.tsConfig.fileName);
const rules = options.ruleSet.forbidden.map((rule) => rule.name);
const ROOTS = ['src', 'rest-facade', 'web'];

const files = ROOTS.flatMap((root) =>
  readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.posix.join(entry.parentPath.split(path.sep).join('/'), entry.name)),
);
const ruleOf = (file) => rules.find((rule) => path.posix.basename(file).split('.')[0] === rule);
const fixtures = Object.fromEntries(
  rules.map((rule) => [rule, files.filter((file) => ruleOf(file) === rule)]),
);
const leaveOut = (names) => names.map((file) => `^${file.replace(/[.]/g, '\\.')}$`);

async function violations(left) {
  const { output } = await cruise(
    ROOTS,
    { ...options, exclude: { path: [options.exclude.path, ...left].flat() } },
    {},
    { tsConfig },
  );
  return output.summary.violations.map(({ rule, from, to, type }) => ({
    rule: rule.name,
    from,
    to,
    type,
  }));
}

const fixtureFiles = files.filter((file) => ruleOf(file) !== undefined);
const clean = await violations(leaveOut(fixtureFiles));
const alone = {};
for (const rule of rules)
  alone[rule] = await violations(leaveOut(fixtureFiles.filter((file) => ruleOf(file) !== rule)));
process.stdout.write(JSON.stringify({ rules, fixtures, clean, alone }));
