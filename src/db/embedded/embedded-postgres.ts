import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';

export interface EmbeddedPostgres {
  /** A postgres:// URL for the ordinary `pg` driver. */
  readonly url: string;
  stop(): Promise<void>;
}

export class DataDirInUseError extends Error {}

const SERVER_SCRIPT = path.join(packageRoot(), 'src', 'db', 'embedded', 'pglite-server.mjs');
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;

/**
 * Starts PGlite in a child process. With a directory, data persist there and a lock file keeps a
 * second process off it (two PGlite instances on one directory corrupt it); with `memory`, the
 * database lives and dies with the child (tests).
 */
export async function startEmbeddedPostgres(
  location: { dataDir: string } | 'memory',
): Promise<EmbeddedPostgres> {
  let release: (() => Promise<void>) | undefined;
  let pgliteDir = 'memory://';
  if (location !== 'memory') {
    fs.mkdirSync(location.dataDir, { recursive: true });
    release = await lockDataDir(location.dataDir);
    pgliteDir = path.join(location.dataDir, 'pgdata');
  }

  let child: ChildProcess;
  try {
    child = fork(SERVER_SCRIPT, [pgliteDir], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      // The child is plain ESM JavaScript: keep test/ts loaders of the parent out of it.
      execArgv: [],
    });
    const port = await waitForReady(child);
    let stopped: Promise<void> | undefined;
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      stop: () => (stopped ??= stopChild(child).finally(() => release?.())),
    };
  } catch (error) {
    await release?.();
    throw error;
  }
}

async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
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

/** The folder holding package.json, from src/ (ts-jest) and from dist/src/ (built) alike. */
function packageRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + __dirname);
    dir = parent;
  }
  return dir;
}
