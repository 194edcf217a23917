import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { packageRoot } from '../../core/package-root';

export interface EmbeddedPostgres {
  /** A postgres:// URL for the ordinary `pg` driver. */
  readonly url: string;
  /**
   * Writes the whole database as a gzipped tarball (PGlite's dumpDataDir) to `file`, which must
   * not exist yet; resolves with its size in bytes. A consistent copy only while no client is
   * connected: it is the backup of a database no service is using.
   */
  dump(file: string): Promise<number>;
  stop(): Promise<void>;
}

/** A data directory, and optionally a tarball of dump() to fill it with when it is still empty. */
export interface EmbeddedLocation {
  readonly dataDir: string;
  readonly restoreFrom?: string;
}

/**
 * Tests: a database in the child's memory that dies with it, optionally started from a tarball of
 * dump() (the test suite's migrated template, so each test file skips initdb and the migrations).
 */
export interface InMemoryLocation {
  readonly memory: true;
  readonly restoreFrom?: string;
}

/** The data directory cannot be used as it is: the message says why and what to do. */
export class DataDirError extends Error {}
export class DataDirInUseError extends DataDirError {}

const SERVER_SCRIPT = path.join(packageRoot(), 'src', 'db', 'embedded', 'pglite-server.mjs');
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;

/**
 * Starts PGlite in a child process. With a directory, data persist there and a lock file keeps a
 * second process off it (two PGlite instances on one directory corrupt it); in memory, the
 * database lives and dies with the child (tests).
 */
export async function startEmbeddedPostgres(
  location: EmbeddedLocation | InMemoryLocation | 'memory',
): Promise<EmbeddedPostgres> {
  let release: (() => Promise<void>) | undefined;
  let pgliteDir = 'memory://';
  const onDisk = location !== 'memory' && 'dataDir' in location ? location : undefined;
  if (onDisk) {
    fs.mkdirSync(onDisk.dataDir, { recursive: true });
    release = await lockDataDir(onDisk.dataDir);
    pgliteDir = pgdataOf(onDisk.dataDir);
  }
  const restoreFrom = location !== 'memory' ? location.restoreFrom : undefined;

  let child: ChildProcess;
  try {
    if (onDisk && !restoreFrom) refuseInterruptedRestore(onDisk.dataDir);
    child = fork(SERVER_SCRIPT, [pgliteDir, ...(restoreFrom ? [restoreFrom] : [])], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      // The child is plain ESM JavaScript: keep test/ts loaders of the parent out of it.
      execArgv: [],
    });
    const port = await waitForReady(child);
    let stopped: Promise<void> | undefined;
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      dump: (file) => dumpFromChild(child, file),
      stop: () => (stopped ??= stopChild(child).finally(() => release?.())),
    };
  } catch (error) {
    await release?.();
    throw error;
  }
}

/**
 * A restore renames the old database aside before it moves the new one in. Killed between the two,
 * it leaves no `pgdata` but a `pgdata.replaced-<time>`: starting then would create an empty
 * database beside the real one, and the service would seem to have lost everything.
 */
function refuseInterruptedRestore(dataDir: string): void {
  if (fs.existsSync(pgdataOf(dataDir))) return;
  const aside = fs.readdirSync(dataDir).filter((name) => name.startsWith('pgdata.replaced-'));
  if (aside.length > 0) {
    throw new DataDirError(
      `${dataDir} holds ${aside.join(', ')} from an interrupted restore and no pgdata: ` +
        `rename it back to pgdata (or run timetrack restore again) before starting`,
    );
  }
}

/** Where PGlite keeps the database inside a data directory. */
export function pgdataOf(dataDir: string): string {
  return path.join(dataDir, 'pgdata');
}

/**
 * Takes the data directory's lock, as a service does, or fails with DataDirInUseError. Backup and
 * restore hold it for their whole run, so no service starts on a directory being replaced.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  try {
    return await lockfile.lock(dataDir, {
      lockfilePath: path.join(dataDir, 'timetrack.lock'),
      // A lock whose owner died (no refresh for this long) may be taken over.
      stale: 15_000,
      update: 5_000,
      onCompromised: (error) => {
        // Another process took the directory over: continuing would corrupt it.
        process.stderr.write(`data directory lock lost: ${error.message}; exiting\n`);
        process.exit(70);
      },
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') {
      throw new DataDirInUseError(
        `The data directory ${dataDir} is in use by another timetrack process (the embedded ` +
          'database serves one process at a time). Stop that process, set DATA_DIR to another ' +
          'directory, or use a PostgreSQL server through DATABASE_URL.',
      );
    }
    throw error;
  }
}

function waitForReady(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('embedded PostgreSQL did not start in time'));
    }, START_TIMEOUT_MS);
    const done = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    const onMessage = (message: { type?: string; port?: number; message?: string }) => {
      if (message.type === 'ready' && typeof message.port === 'number') {
        done();
        resolve(message.port);
      } else if (message.type === 'error') {
        done();
        reject(new Error(`embedded PostgreSQL failed to start: ${message.message}`));
      }
    };
    const onExit = (code: number | null) => {
      done();
      reject(new Error(`embedded PostgreSQL exited during start (code ${code})`));
    };
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

function dumpFromChild(child: ChildProcess, file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const done = () => {
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    const onMessage = (message: { type?: string; bytes?: number; message?: string }) => {
      if (message.type === 'dumped') {
        done();
        resolve(message.bytes ?? 0);
      } else if (message.type === 'dump-failed') {
        done();
        reject(new Error(`embedded PostgreSQL could not write the dump: ${message.message}`));
      }
    };
    const onExit = (code: number | null) => {
      done();
      reject(new Error(`embedded PostgreSQL exited during the dump (code ${code})`));
    };
    child.on('message', onMessage);
    child.on('exit', onExit);
    child.send({ type: 'dump', file });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    if (child.connected) child.send({ type: 'stop' });
    else child.kill('SIGTERM');
  });
}
