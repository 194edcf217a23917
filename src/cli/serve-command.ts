import { Command, InvalidArgumentError } from 'commander';
import { loadConfig, MAX_WORKERS } from '../core/config';
import { startServer, type StopReport } from '../server';
import { examples } from './command-support';
import {
  checkWorkerCount,
  isServeWorker,
  parseWorkerCount,
  reportServing,
  serveLinePrefix,
  serveWorkers,
} from './serve-workers';

/**
 * `timetrack serve`: the HTTP service until a signal. Its exit code comes through `onExit`, as
 * runCli returns it (commander's action returns none).
 */
export function addServeCommand(program: Command, onExit: (code: number) => void): void {
  program
    .command('serve')
    .description(
      'Migrate the database and serve HTTP until SIGINT/SIGTERM (the default with no command)',
    )
    .addHelpText(
      'after',
      examples([
        'timetrack serve',
        'HOST=0.0.0.0 PORT=8080 timetrack serve',
        'DATABASE_URL=postgres://app@db/timetrack timetrack serve',
        'DATABASE_URL=postgres://app@db/timetrack timetrack serve --workers 4',
      ]),
    )
    .option(
      '--workers <n>',
      `server processes sharing the port, 1 to ${MAX_WORKERS} (default: WORKERS, else 1); above 1 needs DATABASE_URL`,
      workerCount,
    )
    .action(async (options: { workers?: number }) => {
      onExit(await serve(options.workers));
    });
}

/** `--workers` overrides WORKERS. In a worker of `serve --workers`, this serves as one process. */
async function serve(workersOption: number | undefined): Promise<number> {
  const config = loadConfig();
  if (!isServeWorker()) {
    const workers = workersOption ?? config.workers;
    checkWorkerCount(config, workers, workersOption === undefined ? 'WORKERS' : '--workers');
    if (workers > 1) return serveWorkers(config, workers);
  }
  // Empty in a single process, whose lines stay as they were; a worker's name otherwise.
  const tag = serveLinePrefix();
  const server = await startServer(config);
  const where =
    server.db.kind === 'embedded'
      ? `embedded PostgreSQL in ${config.database.kind === 'embedded' ? config.database.dataDir : ''}`
      : 'PostgreSQL server';
  process.stdout.write(
    `${tag}timetrack listening on ${server.url} (GraphQL at ${server.url}/graphql, ${where})\n`,
  );
  reportServing(server.url);
  // Listeners stay registered through the shutdown: proper-lockfile's signal-exit re-raises a
  // signal that nobody else listens to, which would kill the process before the database closes.
  // A second signal during the drain changes nothing: the deadline already bounds it.
  let onSignal: (signal: NodeJS.Signals) => void = () => {};
  const { stopping } = await new Promise<{ stopping: Promise<StopReport> }>((resolve) => {
    let received = false;
    onSignal = (signal) => {
      if (received) {
        process.stdout.write(`${tag}${signal} received: already shutting down\n`);
        return;
      }
      received = true;
      // stop() closes the port before it returns: by the time this line is out, no connection
      // is accepted any more.
      const stop = server.stop();
      process.stdout.write(
        `${tag}${signal} received: shutting down; new connections refused, ${server.inFlight} request(s) in flight get up to ${config.shutdownTimeoutMs} ms\n`,
      );
      resolve({ stopping: stop });
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  try {
    const report = await stopping;
    if (report.abandoned > 0) {
      process.stderr.write(
        `${tag}${report.abandoned} request(s) still in flight after ${config.shutdownTimeoutMs} ms: their connections were closed\n`,
      );
    }
    process.stdout.write(`${tag}drained in ${report.drainMs} ms\n`);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  process.stdout.write(`${tag}stopped cleanly\n`);
  return 0;
}

function workerCount(value: string): number {
  const count = parseWorkerCount(value);
  if (count === undefined)
    throw new InvalidArgumentError(`must be a whole number from 1 to ${MAX_WORKERS}`);
  return count;
}
