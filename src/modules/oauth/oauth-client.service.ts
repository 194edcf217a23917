import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { hashSecret, newKey, newSecret } from './oauth-secrets';
import { isOwner } from '../../core/viewer';
import { NotFoundError, PermissionDeniedError, ValidationError } from '../../core/errors';
import type { RequestContext } from '../../core/request-context';
import { fields, findLocated, inTransaction, validate } from '../common';
import { Account } from '../accounts';
import { Staff } from '../staff';
import {
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
  /** A key of the operator's choosing, for a client whose id is fixed in its code. */
  clientId?: string | null;
}

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
});

/**
 * Applications and the authorisations users gave them. Only the account owner registers, lists and
 * revokes the account's applications; every user lists and revokes what they authorised.
 */
export class OAuthClientService {
  async register(
    ctx: RequestContext,
    input: RegisterOAuthClientInput,
  ): Promise<RegisteredOAuthClient> {
    if (!isOwner(ctx.viewer))
      throw new PermissionDeniedError(
        'create',
        'OAuthClient',
        'Create denied: only the account owner registers applications',
      );
    const data = validate('OAuthClient', registerSchema, input);
    const confidential = data.confidential ?? true;
    if (data.protocol === OAuthProtocol.OAUTH1 && !confidential) {
      throw ValidationError.field(
        'OAuthClient',
        'confidential',
        'must be true for OAuth 1.0a, whose signatures need a secret',
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
    });
    await ctx.em.persist(client).flush();
    return { client, secret };
  }

  async list(ctx: RequestContext): Promise<OAuthClient[]> {
    this.assertOwnerReads(ctx);
    return ctx.em.find(OAuthClient, {}, { orderBy: { id: 'asc' } });
  }

  /** One application by its id (`node(id:)`), to the owner as the list is. */
  async get(ctx: RequestContext, id: string): Promise<OAuthClient> {
    this.assertOwnerReads(ctx);
    return findLocated(ctx.em, OAuthClient, 'OAuthClient', { id });
  }

  private assertOwnerReads(ctx: RequestContext): void {
    if (!isOwner(ctx.viewer))
      throw new PermissionDeniedError(
        'read',
        'OAuthClient',
        'Read denied: only the account owner sees its applications',
      );
  }

  /** Deletes the application; every token it holds goes with it (foreign keys cascade). */
  async revoke(ctx: RequestContext, id: string): Promise<OAuthClient> {
    if (!isOwner(ctx.viewer))
      throw new PermissionDeniedError(
        'delete',
        'OAuthClient',
        'Delete denied: only the account owner revokes applications',
      );
    const client = await findLocated(ctx.em, OAuthClient, 'OAuthClient', { id });
    await ctx.em.remove(client).flush();
    return client;
  }

  /** The applications holding tokens for the caller, whichever account registered them. */
  async authorizations(ctx: RequestContext): Promise<OAuthAuthorization[]> {
    const rows = await ctx.em
      .getConnection()
      .execute<
        { client_key: string; name: string; protocol: OAuthProtocol; authorized_at: Date }[]
      >(
        `select c.client_key, c.name, c.protocol, max(t.created_at) as authorized_at
         from (select client_id, created_at from oauth1_tokens where user_id = ? and kind = 'access'
               union all select client_id, created_at from oauth2_tokens where user_id = ?) t
         join oauth_clients c on c.id = t.client_id
        group by c.id order by max(t.created_at) desc`,
        [ctx.viewer.id, ctx.viewer.id],
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
   */
  async passwordChanged(em: EntityManager, userId: number): Promise<void> {
    await em.execute(
      `with one as (delete from oauth1_tokens where user_id = ?),
            two as (delete from oauth2_tokens where user_id = ?)
       delete from oauth2_codes where user_id = ?`,
      [userId, userId, userId],
    );
  }

  /** Withdraws the caller's consent: every token the application holds for them, in one transaction. */
  async revokeAuthorization(ctx: RequestContext, clientKey: string): Promise<boolean> {
    const deleted = await inTransaction(ctx, async (tx) => {
      const params = [tx.viewer.id, clientKey];
      const where = `user_id = ? and client_id = (select id from oauth_clients where client_key = ?)`;
      const one = await tx.em.execute(
        `delete from oauth1_tokens where ${where} returning id`,
        params,
      );
      const two = await tx.em.execute(
        `delete from oauth2_tokens where ${where} returning id`,
        params,
      );
      await tx.em.execute(`delete from oauth2_codes where ${where}`, params);
      return one.length + two.length;
    });
    if (deleted === 0)
      throw new NotFoundError('OAuthClient', 'You have not authorised this application');
    return true;
  }
}
