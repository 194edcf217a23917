import { runCli } from './cli';

/** Process entry: the only file that exits. With no command, `serve`. */
const args = process.argv.slice(2);
runCli(args.length > 0 ? args : ['serve']).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
