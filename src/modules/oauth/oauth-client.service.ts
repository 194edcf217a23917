import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { hashSecret, newKey, newSecret } from './oauth-secrets';
import { WEB_APP_CLIENT } from './web-app-client';
import { assertMayManageOAuthClients } from './oauth-client.policy';
import { NotFoundError, ValidationError } from '../../core/errors';
import type { RequestContext } from '../../core/request-context';
import { StaffType } from '../common';
import { isUuid } from '../ids';
import { fields, findByUuids, findLocated, inTransaction, validate } from '../writes';
import { Account } from '../accounts';
import { announceCredentialChange, Staff, type UserKey } from '../staff';
import {
  ACCOUNT_APPLICATIONS_FILTER,
  OAuthClient,
  OAuthProtocol,
  type OAuthAuthorization,
  type RegisteredOAuthClient,
} from './oauth-client.entity';

export interface RegisterOAuthClientInput {
  name: string;
  protocol: OAuthProtocol;
  redirectUris?: string[] | null;
  confidential?: boolean | null;
  /**
   * A key of the operator's choosing, for a client whose id is fixed in its code: for
   * `registerForEveryAccount` only; `register` refuses it.
   */
  clientId?: string | null;
  /** How long its access tokens last, in seconds; unset keeps the defaults (`OAUTH2_LIFETIMES`). */
  accessTokenLifetimeSeconds?: number | null;
}

/** An application as the operator's `oauth client list` shows it. */
export interface OperatorListedClient {
  readonly client: OAuthClient;
  /** The account it is filed under, and the login of that account's owner. */
  readonly accountUuid: string;
  readonly accountOwner: string;
}

/**
 * Why an account cannot choose its application's key: a key names the application to users of
 * every account before anyone signs in, so an account that took one (the official CLI's) would be
 * trusted in its place, and the operator could no longer register it.
 */
const CHOSEN_KEY_REFUSED =
  "is chosen by the service's operator only (timetrack oauth client create --every-account --client-id); leave it out and the application gets a generated key";

const redirectUri = z
  .string()
  .max(2000, 'must be at most 2000 characters')
  .refine((s) => URL.canParse(s) && !s.includes('#'), 'must be an absolute URL without a fragment');

const registerSchema = z.object({
  name: fields.requiredText(),
  protocol: z.enum(OAuthProtocol),
  redirectUris: z.array(redirectUri).max(10, 'must list at most 10 addresses').nullish(),
  confidential: z.boolean().nullish(),
  // The characters RFC 3986 leaves unreserved, so the key travels in any URL or header unescaped.
  clientId: z
    .string()
    .regex(/^[A-Za-z0-9._~-]{8,64}$/, 'must be 8 to 64 letters, digits or ._~-')
    .nullish(),
  // From a minute (less would expire on the way) to ten years (a token for an unattended tool);
  // the table's check constraint holds the same bounds.
  accessTokenLifetimeSeconds: z
    .number()
    .int('must be a whole number of seconds')
    .min(60, 'must be at least 60 seconds')
    .max(315_360_000, 'must be at most 315360000 seconds (10 years)')
    .nullish(),
});

/**
 * Applications and the authorisations users gave them. Only the account owner registers, lists and
 * revokes the account's applications, which serve the account's users only; every user lists and
 * revokes what they authorised. The operator's applications, which serve every account, are
 * registered, listed and revoked with the CLI only (the `...ForEveryAccount` and `operator...`
 * methods, which no GraphQL resolver calls).
 */
export class OAuthClientService {
  /** An account's application, for its users only, with a generated key (GraphQL, the CLI). */
  async register(
    ctx: RequestContext,
    input: RegisterOAuthClientInput,
  ): Promise<RegisteredOAuthClient> {
    assertMayManageOAuthClients(ctx.viewer, 'create');
    if (input.clientId != null)
      throw ValidationError.field('OAuthClient', 'clientId', CHOSEN_KEY_REFUSED);
    return this.create(ctx, input, false);
  }

  /**
   * The operator's application, for the users of every account, with the key they chose or a
   * generated one; filed under the account of `ctx`'s owner (the CLI's `--owner`), whose owner
   * nevertheless neither lists nor revokes it. Only the CLI calls this.
   */
  async registerForEveryAccount(
    ctx: RequestContext,
    input: RegisterOAuthClientInput,
  ): Promise<RegisteredOAuthClient> {
    assertMayManageOAuthClients(ctx.viewer, 'create');
    return this.create(ctx, input, true);
  }

  private async create(
    ctx: RequestContext,
    input: RegisterOAuthClientInput,
    servesEveryAccount: boolean,
  ): Promise<RegisteredOAuthClient> {
    const data = validate('OAuthClient', registerSchema, input);
    const confidential = data.confidential ?? true;
    if (data.protocol === OAuthProtocol.OAUTH1 && !confidential) {
      throw ValidationError.field(
        'OAuthClient',
        'confidential',
        'must be true for OAuth 1.0a, whose signatures need a secret',
      );
    }
    if (data.protocol === OAuthProtocol.OAUTH1 && data.accessTokenLifetimeSeconds != null) {
      throw ValidationError.field(
        'OAuthClient',
        'accessTokenLifetimeSeconds',
        'is for OAuth 2.0 clients: OAuth 1.0a tokens do not expire',
      );
    }
    // Keys are unique across the service (they name the client before anyone signs in); the unique
    // index settles a race between two registrations of one key.
    if (
      data.clientId &&
      (await ctx.em.count(OAuthClient, { clientKey: data.clientId }, { filters: false })) > 0
    ) {
      throw ValidationError.field('OAuthClient', 'clientId', 'is already taken');
    }
    const secret = confidential ? newSecret() : null;
    const client = Object.assign(new OAuthClient(), {
      account: ctx.em.getReference(Account, ctx.viewer.accountId, { wrapped: true }),
      createdBy: ctx.em.getReference(Staff, ctx.viewer.id, { wrapped: true }),
      name: data.name,
      protocol: data.protocol,
      clientKey: data.clientId ?? newKey(),
      secret: data.protocol === OAuthProtocol.OAUTH1 ? secret : null,
      secretHash: data.protocol === OAuthProtocol.OAUTH2 && secret ? hashSecret(secret) : null,
      redirectUris: data.redirectUris ?? [],
      accessTokenLifetimeSeconds: data.accessTokenLifetimeSeconds ?? null,
      servesEveryAccount,
    });
    await ctx.em.persist(client).flush();
    return { client, secret };
  }

  /**
   * The operator's view (`oauth client list`): every application of the service, or those filed
   * under one account, whichever accounts they serve, in registration order. `em` is unfiltered.
   */
  async operatorList(em: EntityManager, accountId?: number): Promise<OperatorListedClient[]> {
    const clients = await em.find(
      OAuthClient,
      accountId === undefined ? {} : { account: accountId },
      {
        filters: false,
        orderBy: { id: 'asc' },
      },
    );
    if (clients.length === 0) return [];
    const accountIds = [...new Set(clients.map((client) => client.account.id))];
    const accounts = await em.find(Account, { id: { $in: accountIds } }, { filters: false });
    const owners = await em.find(
      Staff,
      { account: { $in: accountIds }, type: StaffType.OWNER },
      { filters: false },
    );
    const uuidOf = new Map(accounts.map((account) => [account.id, account.uuid]));
    const ownerOf = new Map(owners.map((owner) => [owner.account.id, owner.login]));
    return clients.map((client) => ({
      client,
      accountUuid: uuidOf.get(client.account.id) ?? '',
      accountOwner: ownerOf.get(client.account.id) ?? '',
    }));
  }

  /**
   * The operator revokes an application filed under `ctx`'s account (the CLI's `--owner`), whichever
   * accounts it serves: an account's owner cannot revoke the operator's (`revoke` does not find them).
   */
  async operatorRevoke(ctx: RequestContext, id: string): Promise<OAuthClient> {
    return inTransaction(ctx, async (tx) => {
      const client = isUuid(id)
        ? await tx.em.findOne(
            OAuthClient,
            { uuid: id.toLowerCase() },
            { filters: { [ACCOUNT_APPLICATIONS_FILTER]: false } },
          )
        : null;
      if (!client) throw new NotFoundError('OAuthClient');
      return removeClient(tx.em, client);
    });
  }

  async list(ctx: RequestContext): Promise<OAuthClient[]> {
    assertMayManageOAuthClients(ctx.viewer, 'read');
    return ctx.em.find(OAuthClient, {}, { orderBy: { id: 'asc' } });
  }

  /** One application by its id (`node(id:)`), to the owner as the list is. */
  async get(ctx: RequestContext, id: string): Promise<OAuthClient> {
    assertMayManageOAuthClients(ctx.viewer, 'read');
    return findLocated(ctx.em, OAuthClient, 'OAuthClient', { id });
  }

  /** The applications among `ids` (lower-case uuids) that `get` would answer, in one statement: for `nodes`. */
  async getMany(ctx: RequestContext, ids: readonly string[]): Promise<Map<string, OAuthClient>> {
    assertMayManageOAuthClients(ctx.viewer, 'read');
    return findByUuids(ctx.em, OAuthClient, ids);
  }

  /** Deletes the application; every token it holds goes with it (foreign keys cascade). */
  async revoke(ctx: RequestContext, id: string): Promise<OAuthClient> {
    assertMayManageOAuthClients(ctx.viewer, 'delete');
    return inTransaction(ctx, async (tx) =>
      removeClient(tx.em, await findLocated(tx.em, OAuthClient, 'OAuthClient', { id })),
    );
  }

  /** The applications holding tokens for the caller, whichever account registered them. */
  async authorizations(ctx: RequestContext): Promise<OAuthAuthorization[]> {
    const rows = await ctx.em
      .getConnection()
      .execute<
        { client_key: string; name: string; protocol: OAuthProtocol; authorized_at: Date }[]
      >(
        `select c.client_key, c.name, c.protocol, max(t.created_at) as authorized_at
         from (select client_id, created_at from oauth1_tokens where account_id = ? and user_id = ? and kind = 'access'
               union all select client_id, created_at from oauth2_tokens where account_id = ? and user_id = ?) t
         join oauth_clients c on c.id = t.client_id
        group by c.id order by max(t.created_at) desc`,
        [ctx.viewer.accountId, ctx.viewer.id, ctx.viewer.accountId, ctx.viewer.id],
      );
    return rows.map((r) => ({
      clientKey: r.client_key,
      clientName: r.name,
      protocol: r.protocol,
      authorizedAt: new Date(r.authorized_at),
    }));
  }

  /**
   * A user's password was set: every authorisation they gave any application ends, in the
   * transaction of the change (`em`). OAuth 2.0 access and refresh tokens and unexchanged codes,
   * OAuth 1.0a access tokens and request tokens they approved: all were given with the old
   * password, and a reset is often meant to shut out whoever knew it (issue 20, finding 11).
   * StaffService calls it (as its PasswordChangeListener).
   *
   * The DELETE sees only the grants that exist when it runs; one issued concurrently (an approval
   * that verified the old password, a refresh or exchange between reading and writing) would
   * survive it. So the user's credentials version is raised too: every grant carries the version it
   * was given under, and no lookup honours one older than its user's. The DELETE is cleanup.
   */
  async passwordChanged(em: EntityManager, user: UserKey): Promise<void> {
    const params = [user.accountId, user.id];
    await em.execute(
      `with one as (delete from oauth1_tokens where account_id = ? and user_id = ?),
            two as (delete from oauth2_tokens where account_id = ? and user_id = ?),
            three as (delete from oauth2_codes where account_id = ? and user_id = ?)
       update users set credentials_version = credentials_version + 1 where account_id = ? and id = ?`,
      [...params, ...params, ...params, ...params],
    );
  }

  /**
   * An account was opened: the first one registers the service's web app as the operator's
   * public OAuth 2.0 client (PKCE), serving every account, filed under it (migration
   * 20261211000000-web-app-client registered it with the first account of a database that had
   * one). Only the first: an operator who revoked it (`timetrack oauth client revoke`) keeps it
   * revoked. The account opening calls it (as its AccountOpeningListener), in its transaction.
   *
   * An older account is known by its owner's login: `logins` is on every node of a Citus cluster,
   * where `accounts` would be asked on every worker, and a transaction that did that may no longer
   * write a table on every node (`oauth_clients`).
   */
  async accountOpened(em: EntityManager, accountId: number): Promise<void> {
    const [older] = await em.execute<{ exists: boolean }[]>(
      'select exists (select 1 from logins where account_id < ?) as exists',
      [accountId],
    );
    if (older!.exists) return;
    const { key, name, redirectUri } = WEB_APP_CLIENT;
    await em.execute(
      `insert into oauth_clients (uuid, account_id, name, protocol, client_key, redirect_uris, serves_every_account)
       values (gen_random_uuid(), ?, ?, 'oauth2', ?, ?, true)
       on conflict (client_key) do nothing`,
      [accountId, name, key, `{${redirectUri}}`],
    );
  }

  /** Withdraws the caller's consent: every token the application holds for them, in one transaction. */
  async revokeAuthorization(ctx: RequestContext, clientKey: string): Promise<boolean> {
    const deleted = await inTransaction(ctx, async (tx) => {
      const params = [tx.viewer.accountId, tx.viewer.id, clientKey];
      const where = `account_id = ? and user_id = ? and client_id = (select id from oauth_clients where client_key = ?)`;
      const one = await tx.em.execute(
        `delete from oauth1_tokens where ${where} returning id`,
        params,
      );
      const two = await tx.em.execute(
        `delete from oauth2_tokens where ${where} returning id`,
        params,
      );
      await tx.em.execute(`delete from oauth2_codes where ${where}`, params);
      if (one.length + two.length > 0) await announceCredentialChange(tx.em, [tx.viewer.id]);
      return one.length + two.length;
    });
    if (deleted === 0)
      throw new NotFoundError('OAuthClient', 'You have not authorised this application');
    return true;
  }
}

/**
 * Deletes an application with its grants (foreign keys cascade), in `em`'s transaction, and
 * announces the change of credentials to every user who held an access token of it.
 */
async function removeClient(em: EntityManager, client: OAuthClient): Promise<OAuthClient> {
  // An application serving every account has grants on every worker of a Citus cluster. Read over
  // one connection per worker, the grants may then be deleted by the application's cascade, which
  // Citus refuses after a parallel read (on PostgreSQL a setting of no effect). Removing one is an
  // operator's act, rare: the parallelism is not missed.
  await em.execute(`set local citus.multi_shard_modify_mode = 'sequential'`);
  const holders = await em.execute<{ user_id: number }[]>(
    `select user_id from oauth1_tokens where client_id = ? and kind = 'access'
     union select user_id from oauth2_tokens where client_id = ?`,
    [client.id, client.id],
  );
  await em.remove(client).flush();
  await announceCredentialChange(
    em,
    holders.map((row) => row.user_id),
  );
  return client;
}
