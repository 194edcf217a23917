import { Command } from 'commander';
import { ConfigError, loadConfig } from '../core/config';
import { distributeSchema } from '../db/citus-distribution';
import { openDatabase } from '../db/database';
import { examples } from './command-support';

/** `timetrack migrate`: the pending migrations, then (`--distribute`) the tables Citus does not hold yet. */
export function addMigrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('Apply pending database migrations and exit (serve does this too, at start)')
    .option(
      '--distribute',
      'then, on a Citus coordinator, distribute the tables not distributed yet (docs/scaling.md)',
    )
    .addHelpText(
      'after',
      examples([
        'timetrack migrate',
        'DATABASE_URL=postgres://app@db/timetrack timetrack migrate',
        'DATABASE_URL=postgres://app@coordinator/timetrack timetrack migrate --distribute',
      ]),
    )
    .action(async (options: { distribute?: boolean }) => {
      const config = loadConfig();
      let coordinator: string | undefined;
      if (options.distribute) {
        if (config.database.kind !== 'server')
          throw new ConfigError(
            '--distribute needs DATABASE_URL, the address of a Citus coordinator',
          );
        coordinator = config.database.sessionUrl ?? config.database.url;
      }
      const db = await openDatabase(config);
      await db.close();
      process.stdout.write('migrations applied\n');
      if (coordinator) {
        const done = await distributeSchema(coordinator);
        process.stdout.write(
          done.distributed.length + done.reference.length === 0
            ? 'every table already distributed\n'
            : `distributed by account: ${done.distributed.join(', ') || 'none'}\n` +
                `reference tables: ${done.reference.join(', ') || 'none'}\n`,
        );
      }
    });
}
