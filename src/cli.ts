import 'reflect-metadata';
import { Command } from 'commander';
import { addAccountCommands } from './cli/account-commands';
import { addBackupCommands } from './cli/backup-commands';
import { examples } from './cli/command-support';
import { addExportCommand } from './cli/export-command';
import { addMigrateCommand } from './cli/migrate-command';
import { addOAuthClientCommands } from './cli/oauth-client-commands';
import { addSeedCommand } from './cli/seed-command';
import { addServeCommand } from './cli/serve-command';
import { ConfigError } from './core/config';
import { DataDirError } from './db/embedded/embedded-postgres';
import { AppError } from './core/errors';

/** The `timetrack` command. Returns the exit code; main.ts is the only place that exits. */
export async function runCli(argv: string[]): Promise<number> {
  const program = timetrackProgram();
  let exitCode = 0;
  // In the order `timetrack help` lists them.
  addServeCommand(program, (code) => (exitCode = code));
  addMigrateCommand(program);
  addAccountCommands(program);
  addOAuthClientCommands(program);
  addSeedCommand(program);
  addExportCommand(program);
  addBackupCommands(program);

  try {
    // commander's help command looks one level down only: `help oauth client create` is
    // `oauth client create --help`.
    const args = argv[0] === 'help' && argv.length > 2 ? [...argv.slice(1), '--help'] : argv;
    await program.parseAsync(args, { from: 'user' });
    return exitCode;
  } catch (error) {
    return reportCliError(error);
  }
}

/** The root command: its description, help and error output; the commands are added to it. */
function timetrackProgram(): Command {
  return new Command('timetrack')
    .description(
      'Time-tracking service: GraphQL over PostgreSQL with legacy JSON and XML APIs. ' +
        'Settings come from environment variables (docs/configuration.md): without DATABASE_URL the ' +
        'database is the embedded PostgreSQL in DATA_DIR (default ./data), which one process uses at a time.',
    )
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) })
    .showHelpAfterError('(run timetrack help for the commands, timetrack help <command> for one)')
    .addHelpText(
      'after',
      examples([
        'timetrack seed --demo                      # an account to look around in: demo / demo-password',
        'timetrack serve                            # http://127.0.0.1:3000, GraphQL at /graphql',
        'PORT=8080 DATA_DIR=/var/lib/timetrack timetrack serve',
        'timetrack help account create              # the options of one command',
      ]) + '\nEvery command: docs/cli.md\n',
    );
}

/** A failed command's exit code (2: refused, 1: failed), with its message on stderr. */
function reportCliError(error: unknown): number {
  const e = error as { code?: string; exitCode?: number; message?: string };
  if (typeof e.code === 'string' && e.code.startsWith('commander.')) {
    // commander has printed its message (or the help) already.
    return e.code === 'commander.helpDisplayed' || e.code === 'commander.version'
      ? 0
      : (e.exitCode ?? 2);
  }
  if (error instanceof ConfigError || error instanceof DataDirError) {
    process.stderr.write(`${error.message}\n`);
    return 2;
  }
  if (error instanceof AppError) {
    const details = error.details.fieldErrors?.map((f) => `  ${f.field}: ${f.message}`).join('\n');
    process.stderr.write(`error: ${error.message}${details ? `\n${details}` : ''}\n`);
    return 2;
  }
  process.stderr.write(`error: ${e.message ?? String(error)}\n`);
  return 1;
}
