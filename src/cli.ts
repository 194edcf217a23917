import 'reflect-metadata';
import { Command, InvalidArgumentError } from 'commander';
import { createPasswordHasher } from './auth/passwords';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/database';
import { DataDirInUseError } from './db/embedded/embedded-postgres';
import { AppError } from './errors';
import { contextForViewer, type RequestContext } from './graphql/context';
import { createAccount } from './modules/accounts/account.service';
import { StaffType } from './modules/common/enums';
import { OAuthProtocol } from './modules/oauth/oauth-client.entity';
import { OAuthClientService } from './modules/oauth/oauth-client.service';
import { Staff } from './modules/staff/staff.entity';
import { startServer, type StopReport } from './server';

/** The `timetrack` command. Returns the exit code; main.ts is the only place that exits. */
export async function runCli(argv: string[]): Promise<number> {
  const program = new Command('timetrack')
    .description('Time-tracking service: GraphQL over PostgreSQL with legacy JSON and XML APIs')
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  let exitCode = 0;

  program
    .command('serve')
    .description('Migrate the database and serve HTTP until SIGINT/SIGTERM')
    .action(async () => {
      exitCode = await serve();
    });

  program
    .command('migrate')
    .description('Apply pending database migrations and exit')
    .action(async () => {
      const db = await openDatabase(loadConfig());
      await db.close();
      process.stdout.write('migrations applied\n');
    });

  program
    .command('account')
    .description('Manage accounts')
    .command('create')
    .description('Create an account and its owner; prints one line of JSON')
    .requiredOption('--login <login>', "the owner's login")
    .requiredOption('--password <password>', "the owner's password (at least 8 characters)")
    .requiredOption('--email <email>', "the owner's e-mail address")
    .option('--first-name <name>', "the owner's first name")
    .option('--last-name <name>', "the owner's last name")
    .option('--time-zone <zone>', 'IANA time zone of the owner', 'UTC')
    .option('--staff-max <n>', 'most active staff members besides the owner', wholeNumber)
    .option('--time-max-hours <h>', 'most hours of entered time', positiveNumber)
    .action(async (options: Record<string, string | number | undefined>) => {
      const config = loadConfig();
      const db = await openDatabase(config);
      try {
        const { account, owner } = await createAccount(db.orm, createPasswordHasher(config.auth.hashMemoryKib), {
          login: String(options.login),
          password: String(options.password),
          email: String(options.email),
          firstName: (options.firstName as string | undefined) ?? '',
          lastName: (options.lastName as string | undefined) ?? '',
          timeZone: String(options.timeZone),
          staffMax: (options.staffMax as number | undefined) ?? null,
          timeMaxHours: (options.timeMaxHours as number | undefined) ?? null,
        });
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
    .command('client')
    .description("Register, list and revoke an account's OAuth applications");
  clients
    .command('create')
    .description('Register an application; prints one line of JSON with its key and secret (shown only once)')
    .requiredOption('--owner <login>', "the login of the account's owner")
    .requiredOption('--name <name>', 'the name users see on the approval page')
    .option('--protocol <protocol>', 'oauth1 (signed requests) or oauth2 (bearer tokens)', oauthProtocol, OAuthProtocol.OAUTH2)
    .option('--redirect-uri <url>', 'an allowed redirect URI or callback (repeatable)', collect, [] as string[])
    .option('--public', 'an OAuth 2.0 client without a secret (SPA, CLI): PKCE is required')
    .action(async (options: { owner: string; name: string; protocol: OAuthProtocol; redirectUri: string[]; public?: boolean }) => {
      await asOwner(options.owner, async (ctx, service) => {
        const { client, secret } = await service.register(ctx, {
          name: options.name,
          protocol: options.protocol,
          redirectUris: options.redirectUri,
          confidential: !options.public,
        });
        process.stdout.write(`${JSON.stringify({ id: client.uuid, name: client.name, protocol: client.protocol, key: client.clientKey, secret, redirect_uris: client.redirectUris })}\n`);
      });
    });
  clients
    .command('list')
    .description('List the applications of the owner\'s account, one JSON line each')
    .requiredOption('--owner <login>', "the login of the account's owner")
    .action(async (options: { owner: string }) => {
      await asOwner(options.owner, async (ctx, service) => {
        for (const client of await service.list(ctx)) {
          process.stdout.write(`${JSON.stringify({ id: client.uuid, name: client.name, protocol: client.protocol, key: client.clientKey, redirect_uris: client.redirectUris })}\n`);
        }
      });
    });
  clients
    .command('revoke')
    .description('Delete an application and every token it holds')
    .requiredOption('--owner <login>', "the login of the account's owner")
    .argument('<id>', 'the application id printed by create or list')
    .action(async (id: string, options: { owner: string }) => {
      await asOwner(options.owner, async (ctx, service) => {
        const client = await service.revoke(ctx, id);
        process.stdout.write(`revoked ${client.name} (${client.clientKey})\n`);
      });
    });

  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    return reportCliError(error);
  }
}

/** Runs `work` as the owner with this login, as if the owner had called the GraphQL API. */
async function asOwner(login: string, work: (ctx: RequestContext, service: OAuthClientService) => Promise<void>): Promise<void> {
  const config = loadConfig();
  const db = await openDatabase(config);
  try {
    const owner = await db.orm.em.fork().findOne(Staff, { login, type: StaffType.OWNER }, { filters: false });
    if (!owner) throw new AppError('NOT_FOUND', `No account owner has the login ${login}`);
    const viewer = { id: owner.id, uuid: owner.uuid, login: owner.login, type: owner.type, accountId: owner.account.id };
    await work(contextForViewer(db.orm, config, viewer), new OAuthClientService());
  } finally {
    await db.close();
  }
}

async function serve(): Promise<number> {
  const config = loadConfig();
  const server = await startServer(config);
  const where = server.db.kind === 'embedded' ? `embedded PostgreSQL in ${config.database.kind === 'embedded' ? config.database.dataDir : ''}` : 'PostgreSQL server';
  process.stdout.write(`timetrack listening on ${server.url} (GraphQL at ${server.url}/graphql, ${where})\n`);
  // Listeners stay registered through the shutdown: proper-lockfile's signal-exit re-raises a
  // signal that nobody else listens to, which would kill the process before the database closes.
  // A second signal during the drain changes nothing: the deadline already bounds it.
  let onSignal: (signal: NodeJS.Signals) => void = () => {};
  const { stopping } = await new Promise<{ stopping: Promise<StopReport> }>((resolve) => {
    let received = false;
    onSignal = (signal) => {
      if (received) {
        process.stdout.write(`${signal} received: already shutting down\n`);
        return;
      }
      received = true;
      // stop() closes the port before it returns: by the time this line is out, no connection
      // is accepted any more.
      const stop = server.stop();
      process.stdout.write(
        `${signal} received: shutting down; new connections refused, ${server.inFlight} request(s) in flight get up to ${config.shutdownTimeoutMs} ms\n`,
      );
      resolve({ stopping: stop });
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  try {
    const report = await stopping;
    if (report.abandoned > 0) {
      process.stderr.write(`${report.abandoned} request(s) still in flight after ${config.shutdownTimeoutMs} ms: their connections were closed\n`);
    }
    process.stdout.write(`drained in ${report.drainMs} ms\n`);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  process.stdout.write('stopped cleanly\n');
  return 0;
}

function reportCliError(error: unknown): number {
  const e = error as { code?: string; exitCode?: number; message?: string };
  if (typeof e.code === 'string' && e.code.startsWith('commander.')) {
    // commander has printed its message (or the help) already.
    return e.code === 'commander.helpDisplayed' || e.code === 'commander.version' ? 0 : (e.exitCode ?? 2);
  }
  if (error instanceof ConfigError || error instanceof DataDirInUseError) {
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
  if (value !== OAuthProtocol.OAUTH1 && value !== OAuthProtocol.OAUTH2) throw new InvalidArgumentError('must be oauth1 or oauth2');
  return value;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function wholeNumber(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number');
  return Number(value);
}

function positiveNumber(value: string): number {
  if (!/^\d+(\.\d+)?$/.test(value)) throw new InvalidArgumentError('must be a positive number');
  return Number(value);
}
