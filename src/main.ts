import { runCli } from './cli';

/** Process entry: the only file that exits. With no command, `serve`. */
const args = process.argv.slice(2);

// A reader that stops early (`timetrack export | head`) closes the pipe: that is the end of the
// output it wanted, not a failure to report.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

runCli(args.length > 0 ? args : ['serve']).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
