import { Command, InvalidArgumentError } from 'commander';
import {
  OAuthProtocol,
  OAuthClientService,
  type OAuthClient,
  type OperatorListedClient,
} from '../modules/oauth';
import { asOwner, collect, duration, examples, withDatabase } from './command-support';

/** `timetrack oauth client create|list|revoke`: the OAuth applications, as their operator. */
export function addOAuthClientCommands(program: Command): void {
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
  addClientCreate(clients);
  addClientList(clients);
  addClientRevoke(clients);
}

/** `oauth client create`: an account's own application, or with --every-account the operator's. */
function addClientCreate(clients: Command): void {
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
    .action(createClient);
}

/** The options of `oauth client create`, as commander parses them. */
interface ClientCreateOptions {
  owner: string;
  name: string;
  protocol: OAuthProtocol;
  redirectUri: string[];
  public?: boolean;
  everyAccount?: boolean;
  clientId?: string;
  tokenLifetime?: number;
}

/** Registers the application and prints it, its secret included (shown this once). */
async function createClient(options: ClientCreateOptions): Promise<void> {
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
}

/** `oauth client list`: the service's applications, or one account's. */
function addClientList(clients: Command): void {
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
}

/** `oauth client revoke`: an application and its tokens. */
function addClientRevoke(clients: Command): void {
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
}

/** Which users an application serves, as `oauth client create` and `list` print it. */
function servedAccounts(client: OAuthClient): 'every account' | 'its account' {
  return client.servesEveryAccount ? 'every account' : 'its account';
}

function oauthProtocol(value: string): OAuthProtocol {
  if (value !== OAuthProtocol.OAUTH1 && value !== OAuthProtocol.OAUTH2)
    throw new InvalidArgumentError('must be oauth1 or oauth2');
  return value;
}
