import fs from 'node:fs';
import path from 'node:path';
import { MetadataStorage } from '@mikro-orm/core';
import { ENTITIES } from '../../src/db/entities';
import { migrations } from '../../src/db/migrations';
import { MODULES, type ModuleDefinition } from '../../src/modules';

/**
 * One registration (issue 35, item 5): each module names its entities and migrations once, in its
 * index.ts, and src/modules/index.ts lists the modules in order; the ORM, the migrator and the
 * schema read that list. These tests hold the list to the folders and the files: no module, entity
 * or migration left out, none named twice, and the order really bottom up.
 */
const ROOT = path.join(__dirname, '..', '..');
const MODULES_DIR = path.join(ROOT, 'src', 'modules');
const modules: readonly ModuleDefinition[] = MODULES;

/**
 * The names `mikro_orm_migrations` holds for a database migrated before the migrations moved into
 * their modules' folders: they never change, or such a database would run them again.
 */
const STORED_NAMES = [
  '20261121000000-initial',
  '20261122000000-outbox',
  '20261123000000-oauth',
  '20261124000000-project-totals',
  '20261125000000-idempotency-keys',
  '20261127000000-webhooks',
  '20261128000000-project-default-tags-text',
  '20261129120000-credential-notifications',
  '20261130000000-sync',
  '20261201000000-page-indexes',
  '20261202000000-rate-history',
  '20261203000000-staff-money',
  '20261204000000-time-rollups',
  '20261205000000-caller-positions',
  '20261206000000-oauth-client-accounts',
  '20261207000000-credentials-version',
  '20261208120000-oauth-token-lifetime',
  '20261209000000-project-code',
  '20261210000000-project-totals-covering',
  '20261211000000-web-app-client',
  '20261212000000-shard-local-time-triggers',
  '20261213000000-tenant-keys',
  '20261214000000-shard-local-row-triggers',
  '20261215000000-references-cleared-by-triggers',
  '20261216000000-current-rates-recorded-by-writes',
  '20261217000000-logins',
  '20261218000000-oauth-grants-by-account',
  '20261219000000-oauth-clients-shared',
  '20261220000000-oauth-token-accounts',
  '20261221000000-credential-notices-by-writes',
];

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? filesUnder(path.join(dir, entry.name))
        : entry.name.endsWith('.ts')
          ? [path.join(dir, entry.name)]
          : [],
    );
}

/** The modules a module's files import (relative imports only; packages and core are not modules). */
function modulesImportedBy(name: string): Set<string> {
  const imported = new Set<string>();
  for (const file of filesUnder(path.join(MODULES_DIR, name)))
    for (const [, specifier] of fs
      .readFileSync(file, 'utf8')
      .matchAll(/(?:from|import)\s+'(\.[^']*)'/g)) {
      const target = path.relative(MODULES_DIR, path.resolve(path.dirname(file), specifier!));
      const other = target.split(path.sep)[0]!;
      if (!target.startsWith('..') && other !== name) imported.add(other);
    }
  return imported;
}

describe('the modules (src/modules/index.ts)', () => {
  it('lists every folder of src/modules once, by its name', () => {
    const folders = fs
      .readdirSync(MODULES_DIR, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(modules.map((m) => m.name).sort()).toEqual(folders.sort());
    expect(new Set(modules.map((m) => m.name)).size).toBe(modules.length);
  });

  it('lists them bottom up: each imports only modules before it', () => {
    const misplaced = modules.flatMap((module, i) => {
      const below = new Set(modules.slice(0, i).map((m) => m.name));
      return [...modulesImportedBy(module.name)]
        .filter((other) => !below.has(other))
        .map((other) => `${module.name} imports ${other}, listed after it`);
    });
    expect(misplaced).toEqual([]);
  });

  it("registers every entity with the ORM once, in its own module's list", () => {
    // What MikroORM's decorators saw (@Entity, and @Property on the TenantEntity base), by file.
    const decorated = Object.values(MetadataStorage.getMetadata()).map(
      (meta) => `${path.relative(MODULES_DIR, meta.path).split(path.sep)[0]}:${meta.className}`,
    );
    const registered = modules.flatMap((m) =>
      (m.entities ?? []).map((entity) => `${m.name}:${entity.name}`),
    );
    expect(registered.sort()).toEqual(decorated.sort());
    expect(new Set(ENTITIES).size).toBe(ENTITIES.length);
  });
});

describe('the migrations (src/db/migrations/index.ts)', () => {
  it('keeps the names a database stores, in their order', () => {
    expect(migrations.map((m) => m.name)).toEqual(STORED_NAMES);
  });

  it('lists every migration file once: the shared ones in src/db, each module its own', async () => {
    const files = [
      ...filesUnder(path.join(ROOT, 'src', 'db', 'migrations')),
      ...filesUnder(MODULES_DIR).filter((file) =>
        file.includes(`${path.sep}migrations${path.sep}`),
      ),
    ]
      .filter((file) => file.endsWith('.migration.ts'))
      .map((file) => path.relative(ROOT, file));
    const listed = [
      ...migrations
        .filter((m) => !modules.some((module) => module.migrations?.includes(m)))
        .map((m) => path.join('src', 'db', 'migrations', `${m.name}.migration.ts`)),
      ...modules.flatMap((module) =>
        (module.migrations ?? []).map((m) =>
          path.join('src', 'modules', module.name, 'migrations', `${m.name}.migration.ts`),
        ),
      ),
    ];
    expect(listed.sort()).toEqual(files.sort());
    // Each name runs the class its file exports.
    for (const file of files) {
      const exported = Object.values(
        (await import(path.join(ROOT, file))) as Record<string, unknown>,
      );
      const name = path.basename(file, '.migration.ts');
      expect(exported).toContain(migrations.find((m) => m.name === name)?.class);
    }
  });
});
