import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../core/config';
import { openDatabase } from '../db/database';
import { lockDataDir, pgdataOf, startEmbeddedPostgres } from '../db/embedded/embedded-postgres';
import { BadRequestError } from '../core/errors';

/**
 * `timetrack backup` and `timetrack restore`: the embedded database (DATA_DIR/pgdata) as one
 * gzipped tarball of PGlite's dumpDataDir, and back. Both take the data directory's lock, as a
 * service does, so they refuse while a service runs on it (DataDirInUseError) and no service can
 * start while they work. PGlite runs in the usual child process (its dynamic import fails under
 * jest's VM, and it blocks the event loop).
 */

export interface BackupReport {
  readonly dataDir: string;
  readonly file: string;
  readonly bytes: number;
}

export interface RestoreReport {
  readonly dataDir: string;
  readonly file: string;
  /** Whether a database was there before (and is now gone). */
  readonly replaced: boolean;
  readonly accounts: number;
}

/** Writes the embedded database to `file`: a new file beside it first, renamed when whole. */
export async function backupEmbedded(
  config: Config,
  file: string,
  options: { force?: boolean } = {},
): Promise<BackupReport> {
  const dataDir = embeddedDataDir(config, 'backup');
  const target = path.resolve(file);
  if (!fs.existsSync(path.join(pgdataOf(dataDir), 'PG_VERSION'))) {
    throw new BadRequestError(
      `There is no embedded database in ${dataDir} to back up (set DATA_DIR to the service's data directory)`,
    );
  }
  assertDirectory(path.dirname(target));
  if (fs.existsSync(target) && !options.force)
    throw new BadRequestError(`${target} exists: pass --force to replace it`);
  // An interrupted backup must never leave a truncated file under the backup's name.
  const partial = path.join(
    path.dirname(target),
    `.${path.basename(target)}.partial-${randomBytes(4).toString('hex')}`,
  );
  const embedded = await startEmbeddedPostgres({ dataDir });
  try {
    const bytes = await embedded.dump(partial);
    fs.renameSync(partial, target);
    return { dataDir, file: target, bytes };
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  } finally {
    await embedded.stop();
  }
}

/**
 * Replaces the embedded database with a backup. The backup is first opened in a directory of its
 * own inside DATA_DIR (migrated to this version and queried): a file that does not open changes
 * nothing. Then the current database is moved aside, the restored one moved in (renames within
 * one filesystem), and only then is the old one deleted.
 */
export async function restoreEmbedded(
  config: Config,
  file: string,
  options: { force?: boolean } = {},
): Promise<RestoreReport> {
  const dataDir = embeddedDataDir(config, 'restore');
  const archive = path.resolve(file);
  if (!fs.statSync(archive, { throwIfNoEntry: false })?.isFile())
    throw new BadRequestError(`There is no backup file at ${archive}`);
  fs.mkdirSync(dataDir, { recursive: true });
  const release = await lockDataDir(dataDir);
  try {
    const pgdata = pgdataOf(dataDir);
    const replacing = fs.existsSync(pgdata) && fs.readdirSync(pgdata).length > 0;
    if (replacing && !options.force) {
      throw new BadRequestError(
        `${dataDir} already holds a database: pass --force to replace it with the backup (it is kept until the backup has opened and is in place)`,
      );
    }
    const staging = fs.mkdtempSync(path.join(dataDir, 'restore-'));
    try {
      const accounts = await openBackup(config, staging, archive);
      moveIn(pgdataOf(staging), pgdata);
      return { dataDir, file: archive, replaced: replacing, accounts };
    } finally {
      fs.rmSync(staging, { recursive: true, force: true });
    }
  } finally {
    await release();
  }
}

/** Opens the backup in `staging` as the service would (migrations included); returns its number of accounts. */
async function openBackup(config: Config, staging: string, archive: string): Promise<number> {
  let db;
  try {
    db = await openDatabase(
      { ...config, database: { kind: 'embedded', dataDir: staging } },
      { restoreFrom: archive },
    );
    const [row] = await db.orm.em
      .getConnection()
      .execute<{ accounts: number }[]>('select count(*)::int as accounts from accounts');
    return row?.accounts ?? 0;
  } catch (error) {
    throw new BadRequestError(
      `${archive} does not open as a timetrack backup; nothing was changed (${(error as Error).message})`,
    );
  } finally {
    await db?.close();
  }
}

/** Puts `restored` in the place of `pgdata`; the old one is deleted only once the new one is there. */
function moveIn(restored: string, pgdata: string): void {
  let previous: string | undefined;
  if (fs.existsSync(pgdata)) {
    previous = `${pgdata}.replaced-${Date.now()}`;
    fs.renameSync(pgdata, previous);
  }
  try {
    fs.renameSync(restored, pgdata);
  } catch (error) {
    if (previous) fs.renameSync(previous, pgdata);
    throw error;
  }
  if (previous) fs.rmSync(previous, { recursive: true, force: true });
}

function embeddedDataDir(config: Config, command: 'backup' | 'restore'): string {
  if (config.database.kind === 'server') {
    throw new BadRequestError(
      `timetrack ${command} copies the embedded database, and DATABASE_URL names a PostgreSQL server: ` +
        `use PostgreSQL's own tools instead, for example pg_dump -Fc -f timetrack.dump "$DATABASE_URL" to back up ` +
        `and pg_restore --clean --if-exists -d "$DATABASE_URL" timetrack.dump to restore`,
    );
  }
  return config.database.dataDir;
}

function assertDirectory(dir: string): void {
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory())
    throw new BadRequestError(`There is no directory ${dir} to write to`);
}
