/**
 * The direction of dependencies (docs/architecture.md): http → graphql → auth → modules → core,
 * and rest-facade → the executor port + core. `npm run lint` runs these rules and fails on any
 * violation. Type-only imports count too: a type cycle is still a knot for whoever reads the code.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A file cycle makes load order decide what is undefined at import time.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-imports-nothing-else',
      comment: 'src/core is the bottom layer: it imports libraries only.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^(src|rest-facade)/', pathNot: '^src/core/' },
    },
    {
      name: 'module-through-its-index',
      comment: "A module reaches another only through the other's index.ts.",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: {
        path: '^src/modules/[^/]+/',
        pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/index\\.ts$'],
      },
    },
    {
      name: 'outside-through-module-index',
      comment: 'Layers above the modules use a module through its index.ts.',
      severity: 'error',
      from: { path: '^(src|rest-facade)/', pathNot: '^src/modules/' },
      to: { path: '^src/modules/[^/]+/', pathNot: '^src/modules/[^/]+/index\\.ts$' },
    },
    {
      name: 'modules-below-graphql-and-http',
      comment:
        'Modules hold the rules; they never reach up into GraphQL assembly, HTTP, auth, the database setup or the CLI.',
      severity: 'error',
      from: { path: '^src/modules/' },
      to: { path: '^src/(graphql|http|auth|db|cli)/|^src/(server|cli|main)\\.ts$' },
    },
    {
      name: 'graphql-libraries-in-graphql-layers',
      comment:
        'Only src/graphql and the graphql/ part of a module (and entities, which are object types) speak GraphQL.',
      severity: 'error',
      from: {
        path: '^src/',
        pathNot: [
          '^src/graphql/',
          '^src/modules/[^/]+/graphql/',
          '^src/modules/[^/]+/[^/]+\\.entity\\.ts$',
        ],
      },
      to: { path: 'node_modules/(type-graphql|graphql)/' },
    },
    {
      name: 'facade-is-a-client',
      comment: 'rest-facade uses only the executor port and src/core.',
      severity: 'error',
      from: { path: '^rest-facade/' },
      to: { path: '^src/', pathNot: ['^src/core/', '^src/graphql/executor\\.ts$'] },
    },
    {
      name: 'only-http-imports-facade',
      comment: 'The facade is mounted by the HTTP layer; everything else reaches it through that.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/http/' },
      to: { path: '^rest-facade/' },
    },
    {
      name: 'runtime-imports-are-dependencies',
      comment:
        'What the service imports at run time is in "dependencies": a production install (npm ci --omit=dev) has no devDependencies. Type-only imports are erased when compiled.',
      severity: 'error',
      // The emit scripts are developer tools, run by npm scripts that build the committed schemas.
      from: {
        path: '^(src|rest-facade)/',
        pathNot: '^(src/graphql/emit-schema|rest-facade/emit-openapi)\\.ts$',
      },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'imports-are-declared',
      comment:
        "A package the service imports is declared in package.json, not present by accident of another package's tree.",
      severity: 'error',
      from: { path: '^(src|rest-facade)/' },
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(test|bench|dist)/' },
  },
};
