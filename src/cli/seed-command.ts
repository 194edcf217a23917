import { Command } from 'commander';
import { loadConfig } from '../core/config';
import { openDatabase } from '../db/database';
import { examples } from './command-support';
import { seedDemo, type DemoReport } from './demo-seed';

/** `timetrack seed --demo`: the demo account (demo-seed.ts), and its logins printed. */
export function addSeedCommand(program: Command): void {
  program
    .command('seed')
    .summary('Load a demo account with staff, projects and three weeks of shifts')
    .description(
      'Load the demo dataset into a new account, all or nothing: an owner, a manager, three staff, ' +
        'three companies, five projects (limits, rates, default tags; one nearly overdue), activities, ' +
        'three weeks of shifts and one running shift. Every row goes through the same rules as the API. ' +
        'Prints the logins at the end.',
    )
    .requiredOption('--demo', 'the demo dataset (the only one so far)')
    .option('--login <login>', "the owner's login; the others' are <login>.<first name>", 'demo')
    .option(
      '--password <password>',
      'the password of every demo user (at least 8 characters)',
      'demo-password',
    )
    .option(
      '--time-zone <zone>',
      'IANA time zone of the demo users; working hours are local to it',
      'Europe/Berlin',
    )
    .addHelpText(
      'after',
      examples([
        'timetrack seed --demo',
        'timetrack seed --demo --login trial --password "trial-password" --time-zone America/Chicago',
      ]) +
        '\nRefused (exit 2, nothing written) when the login is taken, e.g. by an earlier seed.\n',
    )
    .action(async (options: { login: string; password: string; timeZone: string }) => {
      const config = loadConfig();
      const db = await openDatabase(config);
      try {
        printDemoReport(await seedDemo(db, config, options));
      } finally {
        await db.close();
      }
    });
}

function printDemoReport(report: DemoReport): void {
  const manager = report.others
    .filter((o) => o.type === 'manager')
    .map((o) => `${o.login} (${o.name})`);
  const staff = report.others
    .filter((o) => o.type === 'staff')
    .map((o) => `${o.login} (${o.name})`);
  process.stdout.write(
    [
      `Seeded the demo account "${report.accountName}" (id ${report.accountId}):`,
      `  ${report.companies} companies, ${report.projects} projects, ${report.activities} activities,`,
      `  ${report.shifts} shifts (${report.hours} h) over the last ${report.days} days, and one running shift:`,
      `  ${report.running.name} on ${report.running.project} since ${report.running.since} (${report.running.timeZone}).`,
      `  ${report.nearlyOverdue.project} is nearly overdue: ${report.nearlyOverdue.hours} h of its ${report.nearlyOverdue.limitHours} h limit.`,
      '',
      `Sign in as the owner:  login ${report.owner.login}  password ${report.owner.password}`,
      `Manager:               ${manager.join(', ')}`,
      `Staff:                 ${staff.join(', ')}`,
      '(every demo user has the same password)',
      '',
    ].join('\n'),
  );
}
