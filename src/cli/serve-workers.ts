import { fork as forkProcess } from 'node:child_process';
import cluster, { type Worker } from 'node:cluster';
import { once } from 'node:events';
import path from 'node:path';
import { ConfigError, MAX_WORKERS, loadConfig, type Config } from '../core/config';

/**
 * `timetrack serve --workers N` (WORKERS): a primary process that forks N server processes
 * sharing one listening port through node:cluster. Each worker is an ordinary `timetrack serve`
 * (cli.ts); everything the processes must agree on already lives in PostgreSQL.
 */

/** The built entry point, whoever started the primary. */
const MAIN = path.join(__dirname, '..', 'main.js');

/** Exits counted for the restart back-off: those within this long before the latest. */
const CRASH_WINDOW_MS = 60_000;
const FIRST_RESTART_DELAY_MS = 500;
const MAX_RESTART_DELAY_MS = 30_000;
/** How long past SHUTDOWN_TIMEOUT_MS a stopping worker gets before it is killed. */
const STOP_GRACE_MS = 10_000;

/** A `--workers` value as a count of workers, or undefined when it is not one. */
export function parseWorkerCount(value: string): number | undefined {
  const count = /^\d+$/.test(value) ? Number(value) : NaN;
  return count >= 1 && count <= MAX_WORKERS ? count : undefined;
}

/**
 * The primary of `serve` with several workers, started without the rest of the CLI: it serves
 * nothing (it migrates through a child process, forks the workers and watches them), so it loads
 * the configuration and node:cluster only, not the service's 2,600 modules that every worker holds
 * (a third copy: about 150 MB instead of 60). Undefined for any other command line, or one the
 * CLI must refuse (a bad count, a bad configuration): the CLI answers those with its own messages.
 */
export function workersPrimary(args: readonly string[]): (() => Promise<number>) | undefined {
  if (!cluster.isPrimary) return undefined;
  const [command, ...options] = args.length > 0 ? args : ['serve'];
  if (command !== 'serve') return undefined;
  const value =
    options.length === 2 && options[0] === '--workers'
      ? options[1]!
      : options.length === 1 && options[0]!.startsWith('--workers=')
        ? options[0]!.slice('--workers='.length)
        : undefined;
  if (options.length > 0 && value === undefined) return undefined;
  const option = value === undefined ? undefined : parseWorkerCount(value);
  if (value !== undefined && option === undefined) return undefined;
  try {
    const config = loadConfig();
    const workers = option ?? config.workers;
    checkWorkerCount(config, workers, option === undefined ? 'WORKERS' : '--workers');
    return workers > 1 ? () => serveWorkers(config, workers) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether this process is a worker forked by a `serve --workers` primary. */
export function isServeWorker(): boolean {
  return cluster.isWorker;
}

/** What a worker puts before its own lines, so the interleaved output of N processes is readable. */
export function serveLinePrefix(): string {
  return cluster.isWorker ? `worker ${process.pid}: ` : '';
}

/** What a worker tells the primary once it serves (its server listens, its outbox sender runs). */
interface ServingMessage {
  readonly timetrack: 'serving';
  readonly url: string;
}

function isServingMessage(message: unknown): message is ServingMessage {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as { timetrack?: unknown }).timetrack === 'serving'
  );
}

/** In a worker: tells the primary that this process serves at `url`. Elsewhere nothing. */
export function reportServing(url: string): void {
  if (cluster.isWorker) process.send?.({ timetrack: 'serving', url } satisfies ServingMessage);
}

/**
 * Refuses more than one worker on the embedded database: PGlite runs in a child of one process
 * and its data directory is locked to that process, so a second worker could never open it.
 */
export function checkWorkerCount(
  config: Config,
  workers: number,
  source: 'WORKERS' | '--workers',
): void {
  if (workers > 1 && config.database.kind === 'embedded') {
    throw new ConfigError(
      `Invalid configuration:\n  ${source}: must be 1 without DATABASE_URL: the embedded database ` +
        'belongs to one process; more workers need a PostgreSQL server',
    );
  }
}

/**
 * How long to wait before replacing a worker that died, given how many died within the last
 * minute (this one included): 0.5 s, doubling, at most 30 s, so a worker that crashes at start
 * (the database gone, a bad deploy) does not spin the primary.
 */
export function restartDelayMs(recentExits: number): number {
  return Math.min(MAX_RESTART_DELAY_MS, FIRST_RESTART_DELAY_MS * 2 ** Math.max(0, recentExits - 1));
}

/**
 * The primary: migrates, forks `count` workers, announces the port once all listen, replaces
 * workers that die, and on SIGINT/SIGTERM passes the signal on and waits for every worker to
 * drain and exit. Returns the exit code: 0 when every worker stopped cleanly.
 */
export async function serveWorkers(config: Config, count: number): Promise<number> {
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const complain = (line: string) => process.stderr.write(`${line}\n`);

  let stopSignal: NodeJS.Signals | undefined;
  let failed = false;
  const live = new Set<Worker>();
  const restarts = new Set<NodeJS.Timeout>();
  const recentExits: number[] = [];
  let announced = false;
  let serving = 0;
  let settle: () => void = () => {};
  const allGone = new Promise<void>((resolve) => (settle = resolve));
  const settleIfDone = () => {
    if (stopSignal && live.size === 0 && restarts.size === 0) settle();
  };

  const stop = (signal: NodeJS.Signals) => {
    stopSignal = signal;
    for (const timer of restarts) clearTimeout(timer);
    restarts.clear();
    // The worker's own handler drains (up to SHUTDOWN_TIMEOUT_MS) and exits; cluster's
    // worker.kill() would disconnect it first and close its server without that drain.
    for (const worker of live) worker.process.kill(signal);
    // A worker stuck past its own deadline (and then some) is killed: the primary never hangs.
    const deadline = setTimeout(() => {
      for (const worker of live) {
        complain(`worker ${worker.process.pid} did not stop in time; killing it`);
        worker.process.kill('SIGKILL');
      }
    }, config.shutdownTimeoutMs + STOP_GRACE_MS);
    void allGone.then(() => clearTimeout(deadline));
    settleIfDone();
  };
  // Registered before the migration, so a signal then ends the start instead of killing the
  // primary in the middle of it.
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopSignal) {
      say(`${signal} received: already shutting down`);
      return;
    }
    say(
      `${signal} received: stopping ${live.size} worker(s); each lets its requests in flight finish for up to ${config.shutdownTimeoutMs} ms`,
    );
    stop(signal);
  };

  // Not cluster's 'listening': the port is open a little before the worker is done starting.
  const onMessage = (worker: Worker, message: unknown) => {
    if (!isServingMessage(message) || !live.has(worker) || announced) return;
    serving += 1;
    if (serving < count) return;
    announced = true;
    // Every worker has the same port, also with PORT=0: the primary holds the one socket.
    const url = message.url;
    say(
      `timetrack listening on ${url} with ${count} workers (GraphQL at ${url}/graphql, PostgreSQL server)`,
    );
  };

  const onExit = (worker: Worker, code: number | null, signal: NodeJS.Signals | null) => {
    if (!live.delete(worker)) return;
    const how = signal ? `signal ${signal}` : `code ${code}`;
    if (stopSignal) {
      // A worker still starting has no handler yet and dies of the signal itself.
      if (code !== 0 && signal !== stopSignal) {
        failed = true;
        complain(`worker ${worker.process.pid} exited with ${how} while stopping`);
      }
      settleIfDone();
      return;
    }
    if (!announced) {
      // At start a dying worker means the others will die the same way (the port taken, the
      // database refusing): better one clear failure than a restart loop.
      failed = true;
      complain(
        `worker ${worker.process.pid} exited with ${how} before the service was listening; stopping the others`,
      );
      stop('SIGTERM');
      return;
    }
    const now = Date.now();
    recentExits.push(now);
    while (recentExits[0]! < now - CRASH_WINDOW_MS) recentExits.shift();
    const delay = restartDelayMs(recentExits.length);
    complain(
      `worker ${worker.process.pid} exited unexpectedly with ${how}; starting another in ${delay} ms`,
    );
    const timer = setTimeout(() => {
      restarts.delete(timer);
      if (!stopSignal) fork();
    }, delay);
    restarts.add(timer);
  };

  const fork = () => {
    live.add(cluster.fork());
  };

  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  cluster.on('message', onMessage);
  cluster.on('exit', onExit);
  try {
    // Migrated once, before any worker opens the database: MikroORM's migrator takes no lock,
    // so N workers starting together would race to apply the same migration. By `timetrack
    // migrate` in a child, so that the primary never loads the database layer; a signal to the
    // primary lets it finish, as it always did.
    const migrate = forkProcess(MAIN, ['migrate']);
    const [code] = (await once(migrate, 'exit')) as [number | null];
    if (code !== 0) {
      complain(`the database could not be migrated (timetrack migrate exited with ${code})`);
      return 1;
    }
    if (!stopSignal) {
      // A worker knows itself by cluster.isWorker and serves, whatever WORKERS says.
      cluster.setupPrimary({ exec: MAIN, args: ['serve'] });
      for (let i = 0; i < count; i++) fork();
    }
    await allGone;
  } finally {
    cluster.off('message', onMessage);
    cluster.off('exit', onExit);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  if (failed) return 1;
  say('stopped cleanly: every worker has exited');
  return 0;
}
