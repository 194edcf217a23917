import { Command } from 'commander';
import { loadConfig } from '../core/config';
import { examples } from './command-support';
import { backupEmbedded, restoreEmbedded } from './embedded-backup';

/** `timetrack backup` and `restore`: the embedded database to and from one file (embedded-backup.ts). */
export function addBackupCommands(program: Command): void {
  program
    .command('backup')
    .summary('Copy the embedded database into one file (service stopped)')
    .description(
      'Copy the embedded database (DATA_DIR) into one file, a gzipped tarball. The service must be ' +
        "stopped: a running one holds the data directory's lock and the backup is refused. With " +
        'DATABASE_URL, use pg_dump instead.',
    )
    .argument('<file>', 'the backup file to write (a new file, or --force)')
    .option('--force', 'replace the file if it exists')
    .addHelpText(
      'after',
      examples([
        'timetrack backup timetrack-$(date +%F).tar.gz',
        'DATA_DIR=/var/lib/timetrack timetrack backup /backups/timetrack.tar.gz --force',
      ]),
    )
    .action(async (file: string, options: { force?: boolean }) => {
      const report = await backupEmbedded(loadConfig(), file, { force: options.force === true });
      process.stdout.write(
        `backed up ${report.dataDir} to ${report.file} (${megabytes(report.bytes)})\n`,
      );
    });

  program
    .command('restore')
    .summary('Replace the embedded database with a backup (service stopped)')
    .description(
      'Replace the embedded database (DATA_DIR) with a file of timetrack backup. The backup is opened ' +
        'and migrated aside first; the current database is deleted only once the backup is in place. ' +
        'The service must be stopped. With DATABASE_URL, use pg_restore instead.',
    )
    .argument('<file>', 'a file written by timetrack backup')
    .option('--force', 'replace the database DATA_DIR holds (refused without it)')
    .addHelpText(
      'after',
      examples([
        'timetrack restore timetrack-2026-11-25.tar.gz',
        'DATA_DIR=/var/lib/timetrack timetrack restore /backups/timetrack.tar.gz --force',
      ]),
    )
    .action(async (file: string, options: { force?: boolean }) => {
      const report = await restoreEmbedded(loadConfig(), file, { force: options.force === true });
      process.stdout.write(
        `restored ${report.file} into ${report.dataDir} (${report.accounts} account(s)${report.replaced ? '; the previous database is gone' : ''})\n`,
      );
    });
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
}
