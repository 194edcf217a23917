import { workersPrimary } from './cli/serve-workers';

/** Process entry: the only file that exits. With no command, `serve`. */
const args = process.argv.slice(2);

/** The primary of several workers on its own; anything else through the CLI, loaded only then. */
async function main(): Promise<number> {
  const primary = workersPrimary(args);
  if (primary) return primary();
  const { runCli } = await import('./cli');
  return runCli(args.length > 0 ? args : ['serve']);
}

// A reader that stops early (`timetrack export | head`) closes the pipe: that is the end of the
// output it wanted, not a failure to report.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
