import 'reflect-metadata';
import parseDuration from 'parse-duration';
import { Command, InvalidArgumentError } from 'commander';
import { createPasswordHasher, createAccount, Staff } from './modules/staff';
import { seedDemo, type DemoReport } from './cli/demo-seed';
import { backupEmbedded, restoreEmbedded } from './cli/embedded-backup';
import { exportShifts } from './cli/export-command';
import {
  checkWorkerCount,
  isServeWorker,
  reportServing,
  serveLinePrefix,
  serveWorkers,
} from './cli/serve-workers';
import { ConfigError, loadConfig, MAX_WORKERS, type Config } from './core/config';
import { openDatabase, type Database } from './db/database';
import { DataDirError } from './db/embedded/embedded-postgres';
import { AppError } from './core/errors';
import { contextForViewer } from './graphql/context';
import { type RequestContext } from './core/request-context';
import { StaffType } from './modules/common';
import {
  OAuthProtocol,
  OAuthClientService,
  type OAuthClient,
  type OperatorListedClient,
} from './modules/oauth';
import { startServer, type StopReport } from './server';

/** The `timetrack` command. Returns the exit code; main.ts is the only place that exits. */
export async function runCli(argv: string[]): Promise<number> {
  const program = new Command('timetrack')
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
  let exitCode = 0;

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
      exitCode = await serve(options.workers);
    });

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

  const clients = program
    .command('oauth')
    .description('Manage OAuth applications')
    .addHelpText('after', examples(['timetrack oauth client list --owner olivia']))
    .command('client')
    .description(
      "Register, list and revoke OAuth applications: an account's own (its users only) or the operator's (every account's users)",
    )
    .addHelpText(
      'after',
      examples([
        'timetrack oauth client create --owner olivia --name Invoicer --redirect-uri https://invoicer.example/cb',
      ]),
    );
  clients
    .command('create')
    .description(
      "Register an application; prints one line of JSON with its key and secret (shown only once). It serves the account's users only, or with --every-account the users of every account",
    )
    .requiredOption(
      '--owner <login>',
      "the login of the account's owner: the account it serves, or with --every-account the one it is filed under",
    )
    .requiredOption('--name <name>', 'the name users see on the approval page')
    .option(
      '--protocol <protocol>',
      'oauth1 (signed requests) or oauth2 (bearer tokens)',
      oauthProtocol,
      OAuthProtocol.OAUTH2,
    )
    .option(
      '--redirect-uri <url>',
      'an allowed redirect URI or callback (repeatable)',
      collect,
      [] as string[],
    )
    .option('--public', 'an OAuth 2.0 client without a secret (SPA, CLI): PKCE is required')
    .option(
      '--every-account',
      "the operator's application: users of every account may authorise it (no account's owner lists or revokes it)",
    )
    .option(
      '--client-id <id>',
      'with --every-account: the key (client_id) to use instead of a generated one, for a client whose id is fixed in its code',
    )
    .option(
      '--token-lifetime <duration>',
      'how long its access tokens last (e.g. 8h, 90d, 1y; 1 minute to 10 years) instead of the defaults: 1 hour with a refresh token, 14 days from the implicit flow, which has none',
      duration,
    )
    .addHelpText(
      'after',
      examples([
        'timetrack oauth client create --owner olivia --name Invoicer --redirect-uri https://invoicer.example/cb',
        'timetrack oauth client create --owner olivia --name "Reports SPA" --public --redirect-uri http://localhost:5173/cb',
        'timetrack oauth client create --owner olivia --name "Old desktop app" --protocol oauth1',
        'timetrack oauth client create --owner olivia --every-account --name "88 Miles CLI" --public --client-id hhWZrEF6YTlPUKrggiesnjXAFViLa8FBZNNUtr8L --redirect-uri https://88miles.net/oauth/authorized --token-lifetime 1y',
      ]),
    )
    .action(
      async (options: {
        owner: string;
        name: string;
        protocol: OAuthProtocol;
        redirectUri: string[];
        public?: boolean;
        everyAccount?: boolean;
        clientId?: string;
        tokenLifetime?: number;
      }) => {
        await asOwner(options.owner, async (ctx) => {
          const service = new OAuthClientService();
          const input = {
            name: options.name,
            protocol: options.protocol,
            redirectUris: options.redirectUri,
            confidential: !options.public,
            clientId: options.clientId,
            accessTokenLifetimeSeconds: options.tokenLifetime,
          };
          // Without --every-account, the account's own application, as GraphQL registers it (a
          // --client-id is then refused, with the message that names --every-account).
          const { client, secret } = options.everyAccount
            ? await service.registerForEveryAccount(ctx, input)
            : await service.register(ctx, input);
          process.stdout.write(
            `${JSON.stringify({ id: client.uuid, name: client.name, protocol: client.protocol, key: client.clientKey, secret, redirect_uris: client.redirectUris, serves: servedAccounts(client), token_lifetime_seconds: client.accessTokenLifetimeSeconds })}\n`,
          );
        });
      },
    );
  clients
    .command('list')
    .description(
      'List the applications of the service, or of the account of --owner, one JSON line each: "serves" is "every account" for the operator\'s, "its account" for an account\'s own; account_owner is the owner of the account it is filed under',
    )
    .option('--owner <login>', "only the applications filed under this owner's account")
    .addHelpText(
      'after',
      examples(['timetrack oauth client list', 'timetrack oauth client list --owner olivia']),
    )
    .action(async (options: { owner?: string }) => {
      const print = (listed: OperatorListedClient[]) => {
        for (const { client, accountUuid, accountOwner } of listed)
          process.stdout.write(
            `${JSON.stringify({ id: client.uuid, name: client.name, protocol: client.protocol, key: client.clientKey, redirect_uris: client.redirectUris, serves: servedAccounts(client), token_lifetime_seconds: client.accessTokenLifetimeSeconds, account_uuid: accountUuid, account_owner: accountOwner })}\n`,
          );
      };
      const service = new OAuthClientService();
      if (options.owner)
        await asOwner(options.owner, async (ctx, db) =>
          print(await service.operatorList(db.orm.em.fork(), ctx.viewer.accountId)),
        );
      else await withDatabase(async (db) => print(await service.operatorList(db.orm.em.fork())));
    });
  clients
    .command('revoke')
    .description('Delete an application and every token it holds, whichever accounts it serves')
    .requiredOption(
      '--owner <login>',
      "the login of the owner of the account it is filed under (list's account_owner)",
    )
    .argument('<id>', 'the application id printed by create or list')
    .addHelpText(
      'after',
      examples([
        'timetrack oauth client revoke --owner olivia 2f1c9d7e-5b7a-4e8e-9a55-0c3f8f0e2b11',
      ]),
    )
    .action(async (id: string, options: { owner: string }) => {
      await asOwner(options.owner, async (ctx) => {
        const client = await new OAuthClientService().operatorRevoke(ctx, id);
        process.stdout.write(`revoked ${client.name} (${client.clientKey})\n`);
      });
    });

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

  program
    .command('export')
    .summary("Write an account's shifts as CSV (as GET /api/1/shifts.csv)")
    .description(
      'Write the shifts of an account as CSV, as GET /api/1/shifts.csv does: the same columns, the ' +
        'same where/order language (docs/json-api.md), streamed page by page. To stdout unless --output.',
    )
    .requiredOption(
      '--owner <login>',
      "the login of the account's owner (every shift of the account)",
    )
    .option(
      '--where <expr>',
      'which shifts, e.g. \'billable = true && start >= "2026-11-01T00:00:00Z"\'',
    )
    .option('--order <expr>', 'their order, e.g. "start desc" (default: creation order)')
    .option(
      '--output <file>',
      'write to this file instead of stdout; replaced only when the export is whole',
    )
    .addHelpText(
      'after',
      examples([
        'timetrack export --owner demo > shifts.csv',
        'timetrack export --owner demo --where "billable = true" --order "start desc" --output billable.csv',
        'timetrack export --owner demo --where \'stop = null || start >= "2026-11-01T00:00:00+01:00"\' --output recent.csv',
      ]),
    )
    .action(async (options: { owner: string; where?: string; order?: string; output?: string }) => {
      await asOwner(options.owner, async (ctx, db, config) => {
        const rows = await exportShifts(
          db,
          config,
          ctx,
          { where: options.where, order: options.order },
          options.output,
        );
        if (options.output !== undefined)
          process.stdout.write(`wrote ${rows} shift(s) to ${options.output}\n`);
      });
    });

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

/** Runs `work` on the database, opened (and migrated) for it and closed after it. */
async function withDatabase(work: (db: Database) => Promise<void>): Promise<void> {
  const db = await openDatabase(loadConfig());
  try {
    await work(db);
  } finally {
    await db.close();
  }
}

/** Which users an application serves, as `oauth client create` and `list` print it. */
function servedAccounts(client: OAuthClient): 'every account' | 'its account' {
  return client.servesEveryAccount ? 'every account' : 'its account';
}

/** Runs `work` as the owner with this login, as if the owner had called the GraphQL API. */
async function asOwner(
  login: string,
  work: (ctx: RequestContext, db: Database, config: Config) => Promise<void>,
): Promise<void> {
  const config = loadConfig();
  const db = await openDatabase(config);
  try {
    const owner = await db.orm.em
      .fork()
      .findOne(Staff, { login, type: StaffType.OWNER }, { filters: false });
    if (!owner) throw new AppError('NOT_FOUND', `No account owner has the login ${login}`);
    const viewer = {
      id: owner.id,
      uuid: owner.uuid,
      login: owner.login,
      type: owner.type,
      accountId: owner.account.id,
      // The owner reads money whatever the setting for staff.
      staffSeeMoney: false,
    };
    await work(contextForViewer(db.orm, config, viewer), db, config);
  } finally {
    await db.close();
  }
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

/** The "Examples:" section of a command's help. */
function examples(lines: readonly string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
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

function oauthProtocol(value: string): OAuthProtocol {
  if (value !== OAuthProtocol.OAUTH1 && value !== OAuthProtocol.OAUTH2)
    throw new InvalidArgumentError('must be oauth1 or oauth2');
  return value;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function workerCount(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_WORKERS)
    throw new InvalidArgumentError(`must be a whole number from 1 to ${MAX_WORKERS}`);
  return Number(value);
}

/** A duration as people write one (`90d`, `1y`, `36h`), in whole seconds. */
function duration(value: string): number {
  const seconds = parseDuration(value, 's');
  if (seconds == null || !Number.isFinite(seconds) || seconds <= 0)
    throw new InvalidArgumentError('must be a duration such as 8h, 90d or 1y');
  return Math.round(seconds);
}

function wholeNumber(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number');
  return Number(value);
}

function positiveNumber(value: string): number {
  if (!/^\d+(\.\d+)?$/.test(value)) throw new InvalidArgumentError('must be a positive number');
  return Number(value);
}
