import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * The dependency rules of `.dependency-cruiser.cjs` (run by `npm run lint`) really refuse a wrong
 * import: dependency-cruiser, with the repository's own configuration, over the small tree in
 * test/fixtures/dependency-rules. The tree imports only the way the layers go (main → cli → server
 * → http → graphql → auth → modules → core, db beside graphql, rest-facade → the executor port);
 * beside it each rule has a fixture named for it (`<rule>.ts`) that breaks it. Without the
 * fixtures the tree passes; with one rule's fixture it fails with that rule and no other. Every
 * rule of the configuration has one. The fixture's package.json declares its packages: a
 * development one imported at run time, or one not declared at all (present only in another
 * package's tree), is refused; types-only is not.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'dependency-rules');
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs');

/** What each rule's fixture breaks: from → to (a package by its name). */
const REFUSED: Record<string, [from: string, to: string][]> = {
  'no-circular': [['src/core/no-circular.partner.ts', 'src/core/no-circular.ts']],
  // Folders, not files: every edge of the knot beta → alpha → beta (beta/graphql is part of beta).
  'no-folder-cycle': [
    ['src/modules/alpha', 'src/modules/beta'],
    ['src/modules/alpha', 'src/modules/beta/graphql'],
    ['src/modules/beta', 'src/modules/alpha'],
    ['src/modules/beta/graphql', 'src/modules/beta'],
  ],
  'core-imports-nothing-else': [
    ['src/core/core-imports-nothing-else.ts', 'src/graphql/guards/depth-limit.ts'],
  ],
  'module-through-its-index': [
    ['src/modules/alpha/module-through-its-index.ts', 'src/modules/beta/beta.rules.ts'],
  ],
  'outside-through-module-index': [
    ['src/http/outside-through-module-index.ts', 'src/modules/beta/beta.rules.ts'],
  ],
  'modules-below-graphql-and-http': [
    ['src/modules/alpha/modules-below-graphql-and-http.ts', 'src/http/observability/metrics.ts'],
  ],
  'module-rules-below-graphql': [
    [
      'src/modules/alpha/module-rules-below-graphql.ts',
      'src/modules/alpha/graphql/alpha.inputs.ts',
    ],
  ],
  'module-graphql-for-the-schema': [
    ['src/http/module-graphql-for-the-schema.ts', 'src/modules/alpha/graphql/index.ts'],
  ],
  'auth-below-graphql-and-http': [
    ['src/auth/auth-below-graphql-and-http.ts', 'src/graphql/guards/depth-limit.ts'],
  ],
  'db-below-graphql-and-http': [
    ['src/db/db-below-graphql-and-http.ts', 'src/http/observability/metrics.ts'],
  ],
  'graphql-below-http': [
    ['src/graphql/graphql-below-http.ts', 'src/http/observability/metrics.ts'],
  ],
  'process-entry-on-top': [['src/http/process-entry-on-top.ts', 'src/cli/demo-seed.ts']],
  'graphql-libraries-in-graphql-layers': [
    ['src/modules/alpha/graphql-libraries-in-graphql-layers.ts', 'type-graphql'],
  ],
  'facade-is-a-client': [['rest-facade/facade-is-a-client.ts', 'src/modules/alpha/index.ts']],
  'only-http-imports-facade': [
    ['src/graphql/only-http-imports-facade.ts', 'rest-facade/xml/xml-writer.ts'],
  ],
  'web-app-is-a-client': [['web/src/web-app-is-a-client.ts', 'src/core/errors.ts']],
  'service-imports-no-web-app': [['src/http/service-imports-no-web-app.ts', 'web/src/main.ts']],
  'runtime-imports-are-dependencies': [
    ['src/http/runtime-imports-are-dependencies.ts', 'supertest'],
  ],
  'imports-are-declared': [['src/http/imports-are-declared.ts', 'lru-cache']],
};

interface Violation {
  rule: string;
  from: string;
  to: string;
}
interface Runs {
  /** The configuration's rules, and the files named for each. */
  rules: string[];
  fixtures: Record<string, string[]>;
  /** The violations of the tree without any fixture, and with each rule's fixture alone. */
  clean: Violation[];
  alone: Record<string, Violation[]>;
}

let runs: Runs;
beforeAll(async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [path.join(ROOT, 'test', 'support', 'dependency-rule-runs.mjs'), CONFIG],
    { cwd: FIXTURE, maxBuffer: 16 * 1024 * 1024 },
  );
  runs = JSON.parse(stdout) as Runs;
}, 120_000);

/** The rows of a run, a package by its name wherever node_modules is. */
const rows = (violations: Violation[]) =>
  violations
    .map(({ rule, from, to }) => [rule, from, to.replace(/^.*node_modules\/([^/]+)\/.*$/, '$1')])
    .sort();

test('every rule of the configuration has a fixture, and every fixture a rule', () => {
  expect([...runs.rules].sort()).toEqual(Object.keys(REFUSED).sort());
  for (const rule of runs.rules)
    expect([rule, runs.fixtures[rule]!.length > 0]).toEqual([rule, true]);
});

test('the tree without the fixtures passes every rule', () => {
  expect(runs.clean).toEqual([]);
});

test.each(Object.keys(REFUSED))('%s refuses its fixture, and no other rule does', (rule) => {
  expect(rows(runs.alone[rule] ?? [])).toEqual(
    REFUSED[rule]!.map(([from, to]) => [rule, from, to]).sort(),
  );
});
