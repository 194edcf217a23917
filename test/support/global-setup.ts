import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { citusWorkers, createClusterDatabase } from '../../bench/citus-nodes';
import { withClient } from '../../bench/postgres-clients';
import {
  CITUS_EMPTY_TEMPLATE_ENV,
  CITUS_WORKERS_ENV,
  EMBEDDED_TEMPLATE_ENV,
  SERVER_TEMPLATE_ENV,
} from './test-database';

/**
 * Jest's global set-up: migrates one template database per run, which every test file's database
 * copies (createTestDatabaseTarget's `migrated`). An embedded PostgreSQL otherwise runs initdb and
 * every migration for each file (most of a file's start); on a server, CREATE DATABASE ... TEMPLATE
 * is a file copy. The workers inherit the environment variables set here.
 */
async function globalSetup(): Promise<void> {
  // Jest's node environment copies the process's globals into the test files it runs in this
  // process (a run of one file): MikroORM's metadata store, which the migrations left here, would
  // hand that file's entities this realm's objects ("Map.prototype.set called on incompatible
  // receiver"). So the set-up leaves no global of its own behind, and loads the service's
  // modules (whose decorators fill that store) only here, after taking stock.
  const before = new Set(Reflect.ownKeys(globalThis));
  try {
    await import('reflect-metadata');
    const serverUrl = process.env.TEST_DATABASE_URL;
    if (serverUrl) process.env[SERVER_TEMPLATE_ENV] = await serverTemplate(serverUrl);
    else process.env[EMBEDDED_TEMPLATE_ENV] = await embeddedTemplate();
  } finally {
    for (const key of Reflect.ownKeys(globalThis))
      if (!before.has(key)) delete (globalThis as Record<PropertyKey, unknown>)[key];
  }
}

const ROOT = path.join(__dirname, '..', '..');
/** Where migrations live: the shared ones in src/db, each module's in its own folder. */
const MIGRATION_FOLDERS = [
  path.join('src', 'db', 'migrations'),
  ...fs
    .readdirSync(path.join(ROOT, 'src', 'modules'))
    .sort()
    .map((module) => path.join('src', 'modules', module, 'migrations')),
].filter((folder) => fs.existsSync(path.join(ROOT, folder)));
/** A template of another run (left by a killed one, or of older migrations) goes after this long. */
const STALE_TEMPLATE_MS = 6 * 60 * 60 * 1000;
const TEMPLATE_PREFIX = 'timetrack_template_';

/**
 * A migrated database on the server, named with its creation time so that a later run can drop
 * one a killed run left behind (global-teardown.ts drops this run's). On a Citus coordinator it is
 * the cluster's, distributed as `timetrack migrate --distribute` leaves it, and beside it the
 * template of an empty database of the cluster.
 */
async function serverTemplate(serverUrl: string): Promise<string> {
  const workers = await citusWorkers(serverUrl);
  const stamp = `${Date.now()}_${randomBytes(4).toString('hex')}`;
  const name = `${TEMPLATE_PREFIX}${stamp}`;
  for (const node of [serverUrl, ...workers]) await dropStaleTemplates(node);
  await createClusterDatabase(serverUrl, workers, name);
  if (workers.length > 0) {
    const empty = `${TEMPLATE_PREFIX}${stamp}_empty`;
    await createClusterDatabase(serverUrl, workers, empty);
    process.env[CITUS_EMPTY_TEMPLATE_ENV] = empty;
    process.env[CITUS_WORKERS_ENV] = workers.join(',');
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const { loadConfig } = await import('../../src/core/config');
  const { openDatabase } = await import('../../src/db/database');
  const db = await openDatabase(loadConfig({ NODE_ENV: 'test', DATABASE_URL: url.toString() }));
  // A template copies only while nobody is connected to it.
  await db.close();
  if (workers.length > 0) {
    const { distributeSchema } = await import('../../src/db/citus-distribution');
    await distributeSchema(url.toString());
  }
  return name;
}

/** The templates of runs that ended more than STALE_TEMPLATE_MS ago, killed before their teardown. */
async function dropStaleTemplates(serverUrl: string): Promise<void> {
  await withClient(serverUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      `select datname from pg_database where datname like '${TEMPLATE_PREFIX}%'`,
    );
    for (const { datname } of rows) {
      const created = Number(datname.slice(TEMPLATE_PREFIX.length).split('_')[0]);
      if (Date.now() - created > STALE_TEMPLATE_MS)
        await client.query(`drop database if exists ${datname} with (force)`);
    }
  });
}

/**
 * A tarball of a migrated embedded database, kept between runs in node_modules/.cache under a
 * hash of the migrations and of the PGlite version (a new migration makes a new one).
 */
async function embeddedTemplate(): Promise<string> {
  const dir = path.join(ROOT, 'node_modules', '.cache', 'timetrack-test-templates');
  const file = path.join(dir, `embedded-${templateKey()}.tar`);
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(dir, { recursive: true });
  const { MikroORM } = await import('@mikro-orm/postgresql');
  const { startEmbeddedPostgres } = await import('../../src/db/embedded/embedded-postgres');
  const { ormOptions } = await import('../../src/db/orm-options');
  const embedded = await startEmbeddedPostgres('memory');
  const gzipped = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.gz`;
  try {
    const orm = await MikroORM.init(
      ormOptions({
        clientUrl: embedded.url,
        poolMax: 1,
        statementTimeoutMs: 0,
        acquireTimeoutMs: 120_000,
        connectTimeoutMs: 60_000,
      }),
    );
    try {
      await orm.getMigrator().up();
    } finally {
      await orm.close(true);
    }
    await embedded.dump(gzipped);
    // Unpacked once here rather than by each test file's database as it starts.
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    fs.writeFileSync(partial, gunzipSync(fs.readFileSync(gzipped)));
    // Atomic: another run reading the cache sees the whole file or none.
    fs.renameSync(partial, file);
    // Templates of older migrations, once no run can still be using them.
    for (const name of fs.readdirSync(dir)) {
      const other = path.join(dir, name);
      const modified = fs.statSync(other, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
      if (other !== file && Date.now() - modified > STALE_TEMPLATE_MS)
        fs.rmSync(other, { force: true });
    }
  } finally {
    fs.rmSync(gzipped, { force: true });
    await embedded.stop();
  }
  return file;
}

function templateKey(): string {
  const hash = createHash('sha256');
  for (const folder of MIGRATION_FOLDERS)
    for (const name of fs.readdirSync(path.join(ROOT, folder)).sort()) {
      hash.update(path.join(folder, name));
      hash.update(fs.readFileSync(path.join(ROOT, folder, name)));
    }
  hash.update(
    fs.readFileSync(path.join(ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json')),
  );
  hash.update(fs.readFileSync(path.join(ROOT, 'src', 'db', 'embedded', 'pglite-server.mjs')));
  return hash.digest('hex').slice(0, 16);
}

// Jest takes the module itself as the function (the lint rule keeps default exports out).
export = globalSetup;
