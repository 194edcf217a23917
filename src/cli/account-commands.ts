import { Command } from 'commander';
import { loadConfig } from '../core/config';
import { openDatabase } from '../db/database';
import { createPasswordHasher, createAccount } from '../modules/staff';
import { OAuthClientService } from '../modules/oauth';
import { examples, positiveNumber, wholeNumber } from './command-support';

/** `timetrack account create`: an account and its owner. */
export function addAccountCommands(program: Command): void {
  program
    .command('account')
    .description('Manage accounts')
    .addHelpText(
      'after',
      examples([
        'timetrack account create --login olivia --password "correct horse" --email olivia@example.com',
      ]),
    )
    .command('create')
    .description('Create an account and its owner; prints one line of JSON with their ids')
    .requiredOption('--login <login>', "the owner's login (unique in the whole service)")
    .requiredOption('--password <password>', "the owner's password (at least 8 characters)")
    .requiredOption('--email <email>', "the owner's e-mail address")
    .option('--first-name <name>', "the owner's first name")
    .option('--last-name <name>', "the owner's last name")
    .option('--time-zone <zone>', 'IANA time zone of the owner', 'UTC')
    .option('--currency <code>', 'ISO 4217 code of the amounts and rates', 'USD')
    .option(
      '--staff-max <n>',
      'plan limit: most active staff members besides the owner (0: none; unset: no limit)',
      wholeNumber,
    )
    .option(
      '--time-max-hours <h>',
      'plan limit: most hours of entered time (unset: no limit)',
      positiveNumber,
    )
    .addHelpText(
      'after',
      examples([
        'timetrack account create --login olivia --password "correct horse" --email olivia@example.com',
        'timetrack account create --login acme --password s3cret-pass --email ops@acme.example --time-zone Europe/Berlin --staff-max 5',
      ]),
    )
    .action(async (options: Record<string, string | number | undefined>) => {
      const config = loadConfig();
      const db = await openDatabase(config);
      try {
        const { account, owner } = await createAccount(
          db.orm,
          createPasswordHasher(config.auth.hashMemoryKib),
          new OAuthClientService(),
          {
            login: String(options.login),
            password: String(options.password),
            email: String(options.email),
            firstName: (options.firstName as string | undefined) ?? '',
            lastName: (options.lastName as string | undefined) ?? '',
            timeZone: String(options.timeZone),
            currency: String(options.currency),
            staffMax: (options.staffMax as number | undefined) ?? null,
            timeMaxHours: (options.timeMaxHours as number | undefined) ?? null,
          },
        );
        process.stdout.write(
          `${JSON.stringify({ account_uuid: account.uuid, account_id: account.id, owner_uuid: owner.uuid, owner_id: owner.id, login: owner.login })}\n`,
        );
      } finally {
        await db.close();
      }
    });
}
