/**
 * The direction of dependencies (docs/architecture.md, "Dependency rules"): main → cli → server →
 * http → graphql → auth → modules → core, with db beside graphql (it registers the modules'
 * entities) and rest-facade → the executor port + core. `npm run lint` runs these rules and fails
 * on any violation. Type-only imports count too: a type cycle is still a knot for whoever reads
 * the code. test/unit/dependency-rules.test.ts shows each rule refusing a fixture that breaks it.
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
      name: 'no-folder-cycle',
      comment:
        'Folders (each module, each folder of src/, rest-facade) form a hierarchy, not a knot: two folders that import each other can be neither read nor changed alone, even when no file cycle ties them.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^(src|rest-facade)(/|$)' },
      to: { path: '^(src|rest-facade)(/|$)', circular: true },
    },
    {
      name: 'web-app-is-a-client',
      comment:
        'The web app uses the public interfaces only (OAuth 2.0, /graphql, graphql-ws): it imports nothing of the service, and the service nothing of it.',
      severity: 'error',
      from: { path: '^web/' },
      to: { path: '^(src|rest-facade|test|bench)/' },
    },
    {
      name: 'service-imports-no-web-app',
      comment: 'The service serves the built app as files; it never imports its code.',
      severity: 'error',
      from: { path: '^(src|rest-facade)/' },
      to: { path: '^web/' },
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
      comment:
        "A module reaches another only through the other's index.ts (and, from its own graphql/ folder, the other's graphql/index.ts): what a module keeps inside can change without a look at its users.",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: {
        path: '^src/modules/[^/]+/',
        pathNot: [
          '^src/modules/$1/',
          '^src/modules/[^/]+/index\\.ts$',
          '^src/modules/[^/]+/graphql/index\\.ts$',
        ],
      },
    },
    {
      name: 'outside-through-module-index',
      comment:
        'Layers above the modules use a module through its index.ts (the schema assembly also through its graphql/index.ts), never a file inside.',
      severity: 'error',
      from: { path: '^(src|rest-facade)/', pathNot: '^src/modules/' },
      to: {
        path: '^src/modules/[^/]+/',
        pathNot: ['^src/modules/[^/]+/index\\.ts$', '^src/modules/[^/]+/graphql/index\\.ts$'],
      },
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
      name: 'module-rules-below-graphql',
      comment:
        "A module's services, policies, loaders and index.ts import nothing of a graphql/ folder: the rules take plain types (the GraphQL inputs implement them), so they serve every interface, and GraphQL stays a layer over them. Entities are GraphQL object types themselves and may name another module's GraphQL enum (webhook.entity.ts: ShiftEventKind); common/index.ts still hands the other modules' graphql/ folders their building blocks.",
      severity: 'error',
      from: {
        path: '^src/modules/[^/]+/',
        pathNot: [
          '^src/modules/[^/]+/graphql/',
          '^src/modules/[^/]+/[^/]+\\.entity\\.ts$',
          '^src/modules/common/index\\.ts$',
        ],
      },
      to: { path: '^src/modules/[^/]+/graphql/' },
    },
    {
      name: 'module-graphql-for-the-schema',
      comment:
        "Outside the modules, only the schema assembly (src/graphql) uses a module's graphql/ folder: HTTP, auth, the database setup, the CLI and the facade work with services and the executor.",
      severity: 'error',
      from: { path: '^(src|rest-facade)/', pathNot: '^src/(modules|graphql)/' },
      to: { path: '^src/modules/[^/]+/graphql/' },
    },
    {
      name: 'auth-below-graphql-and-http',
      comment:
        'auth says who is calling, for every interface; it uses modules and core and never reaches up into the HTTP app, the GraphQL assembly or the database setup that sit over it.',
      severity: 'error',
      from: { path: '^src/auth/' },
      to: { path: '^src/(http|graphql|db)/' },
    },
    {
      name: 'db-below-graphql-and-http',
      comment:
        'The database setup opens the database and registers the entities; it knows nothing of the interfaces (HTTP, GraphQL) or of who is calling (auth).',
      severity: 'error',
      from: { path: '^src/db/' },
      to: { path: '^src/(http|graphql|auth)/' },
    },
    {
      name: 'graphql-below-http',
      comment:
        'The GraphQL assembly serves every transport (HTTP, WebSocket, the executor port); the Express app mounts it, never the other way round.',
      severity: 'error',
      from: { path: '^src/graphql/' },
      to: { path: '^src/http/' },
    },
    {
      name: 'process-entry-on-top',
      comment:
        'main.ts, cli.ts, src/cli/ and server.ts start the process and wire the layers together; a layer that imported them would depend on everything above it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(cli/|(main|cli|server)\\.ts$)' },
      to: { path: '^src/(cli/|(main|cli|server)\\.ts$)' },
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
