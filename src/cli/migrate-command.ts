import { Command } from 'commander';
import { loadConfig } from '../core/config';
import { openDatabase } from '../db/database';
import { examples } from './command-support';

/** `timetrack migrate`: the pending migrations, then exit. */
export function addMigrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('Apply pending database migrations and exit (serve does this too, at start)')
    .addHelpText(
      'after',
      examples(['timetrack migrate', 'DATABASE_URL=postgres://app@db/timetrack timetrack migrate']),
    )
    .action(async () => {
      const db = await openDatabase(loadConfig());
      await db.close();
      process.stdout.write('migrations applied\n');
    });
}
