import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { BadRequestError, UnauthenticatedError } from '../core/errors';
import type { RequestCredentials } from '../core/request-context';
import { hashesEqual, hashSecret, newKey, newSecret, type ClientAccounts } from '../modules/oauth';
import {
  baseStringUri,
  sign,
  SIGNATURE_METHODS,
  signatureBaseString,
  signaturesMatch,
  type OAuthParam,
  type SignatureMethod,
} from './oauth1-signature';
import type { SignInLimiter } from './sign-in-limiter';
import { accountOfToken, fileKeys } from './token-accounts';
import { VIEWER_COLUMNS, viewerFromRow, type Viewer, type ViewerRow } from '../core/viewer';

/**
 * A token (or approved request token) is honoured only while the credentials version it was given
 * under is still its user's: a password change raises the user's version, so a grant written after
 * the change's DELETE (an approval or an exchange racing it) is void all the same.
 */
const CURRENT_CREDENTIALS = 'u.credentials_version = t.credentials_version';

/** How long a request token waits for the user's approval and the exchange, in seconds. */
const REQUEST_TOKEN_SECONDS = 10 * 60;

/** The `oauth_callback` of desktop applications: the verifier is shown to the user instead. */
export const OUT_OF_BAND = 'oob';

/**
 * A request token waiting on the approval page, with whose users may approve it (its consumer's
 * `ClientAccounts`), for the page to check once the user has signed in.
 */
export interface PendingAuthorization extends ClientAccounts {
  readonly clientName: string;
}

/** Where the user goes after deciding, with the verifier when approved. */
export interface AuthorizationOutcome {
  readonly callback: string;
  readonly token: string;
  readonly verifier?: string;
}

interface VerifiedRequest {
  readonly clientId: number;
  /** The account the client is registered under, which files its request tokens. */
  readonly clientAccountId: number;
  readonly clientRedirectUris: string[];
  readonly tokenId: number | undefined;
  /** The account the token is filed under (its user's, or a request token's consumer's). */
  readonly tokenAccountId: number | undefined;
  readonly protocol: Readonly<Record<string, string>>;
}

interface ClientRow {
  id: number;
  account_id: number;
  secret: string;
  redirect_uris: string[];
}

interface TokenRow {
  id: number;
  client_id: number;
  token_secret: string;
  verifier_hash: string | null;
  user_id: number | null;
}

/**
 * The OAuth 1.0a provider (RFC 5849): temporary credentials, the approval, token credentials, and
 * the verification of signed resource requests. Signatures are HMAC-SHA1 or HMAC-SHA256, in the
 * query string or the Authorization header. Timestamps must lie within the configured window and
 * each nonce is accepted once per consumer and token, remembered in PostgreSQL so that all server
 * processes agree. Failed signatures count against the client address's sign-in limit.
 */
export class OAuth1Provider {
  constructor(
    private readonly orm: MikroORM,
    private readonly limiter: SignInLimiter,
    private readonly options: { timestampWindowSeconds: number; publicUrl: string | undefined },
  ) {}

  /** Step 1: a consumer asks for a request token, naming where the user comes back to. */
  async issueRequestToken(
    request: RequestCredentials,
    params: readonly OAuthParam[],
  ): Promise<{ token: string; secret: string }> {
    const verified = await this.verify(request, params, 'none');
    const callback = verified.protocol.oauth_callback;
    if (!callback)
      throw new BadRequestError(
        'oauth_callback is required: a URL, or "oob" for applications that cannot receive one',
      );
    if (callback !== OUT_OF_BAND) checkCallback(callback, verified.clientRedirectUris);
    const token = newKey();
    const secret = newSecret();
    const accountId = verified.clientAccountId;
    const keys = fileKeys([{ token, accountId, expires: { inSeconds: REQUEST_TOKEN_SECONDS } }]);
    await this.execute(
      `with ${keys.sql},
            expired as (delete from oauth1_tokens where account_id = ? and kind = 'request' and expires_at < now())
       insert into oauth1_tokens (client_id, account_id, kind, token_key, token_secret, callback, expires_at)
       values (?, ?, 'request', ?, ?, ?, now() + make_interval(secs => ?))`,
      [
        ...keys.params,
        accountId,
        verified.clientId,
        accountId,
        token,
        secret,
        callback,
        REQUEST_TOKEN_SECONDS,
      ],
    );
    return { token, secret };
  }

  /** What the approval page shows; undefined for an unknown, used or expired request token. */
  async pendingAuthorization(token: string): Promise<PendingAuthorization | undefined> {
    const account = await accountOfToken(this.orm.em, token);
    if (account === undefined) return undefined;
    const [row] = await this.execute<{
      name: string;
      account_id: number;
      serves_every_account: boolean;
    }>(
      `select c.name, c.account_id, c.serves_every_account
         from oauth1_tokens t join oauth_clients c on c.id = t.client_id
        where t.account_id = ? and t.token_key = ? and t.kind = 'request' and t.user_id is null and t.expires_at > now()`,
      [account, token],
    );
    return (
      row && {
        clientName: row.name,
        accountId: row.account_id,
        servesEveryAccount: row.serves_every_account,
      }
    );
  }

  /**
   * Step 2: the signed-in user approved; the request token is bound to them with a verifier, and
   * to `credentialsVersion`, that of the password the approval page verified (a reset committed
   * since then voids the approval, though this update runs after the reset's DELETE). It is filed
   * anew under the user's account, with its key, in one statement: a row's account is never changed
   * in place (on Citus it is the distribution column).
   */
  async approve(
    token: string,
    viewer: Viewer,
    credentialsVersion: number,
  ): Promise<AuthorizationOutcome | undefined> {
    const verifier = newKey();
    const account = await accountOfToken(this.orm.em, token);
    if (account === undefined) return undefined;
    const [row] = await this.execute<{ callback: string }>(
      `with pending as (
         delete from oauth1_tokens
          where account_id = ? and token_key = ? and kind = 'request' and user_id is null and expires_at > now()
          returning client_id, token_key, token_secret, callback, expires_at),
            refiled as (update oauth_token_accounts set account_id = ? where token = (select token_key from pending))
       insert into oauth1_tokens (client_id, kind, token_key, token_secret, callback, expires_at, user_id, account_id, credentials_version, verifier_hash)
       select client_id, 'request', token_key, token_secret, callback, expires_at, ?, ?, ?, ? from pending
       returning callback`,
      [
        account,
        token,
        viewer.accountId,
        viewer.id,
        viewer.accountId,
        credentialsVersion,
        hashSecret(verifier),
      ],
    );
    return row && { callback: row.callback, token, verifier };
  }

  /** The user refused: the request token is gone. */
  async deny(token: string): Promise<AuthorizationOutcome | undefined> {
    const account = await accountOfToken(this.orm.em, token);
    if (account === undefined) return undefined;
    const [row] = await this.execute<{ callback: string }>(
      `delete from oauth1_tokens where account_id = ? and token_key = ? and kind = 'request' and user_id is null returning callback`,
      [account, token],
    );
    return row && { callback: row.callback, token };
  }

  /** Step 3: the approved request token and its verifier become token credentials, once. */
  async issueAccessToken(
    request: RequestCredentials,
    params: readonly OAuthParam[],
  ): Promise<{ token: string; secret: string }> {
    const verified = await this.verify(request, params, 'request');
    const verifier = verified.protocol.oauth_verifier;
    if (!verifier) throw new BadRequestError('oauth_verifier is required');
    const token = newKey();
    const secret = newSecret();
    await this.orm.em.fork().transactional(async (em) => {
      // Deleting is the claim: of two exchanges of one request token, only one finds it.
      const [claimed] = await em.execute<
        (TokenRow & { account_id: number; credentials_version: number })[]
      >(
        `delete from oauth1_tokens where account_id = ? and id = ? and kind = 'request' and expires_at > now() returning *`,
        [verified.tokenAccountId, verified.tokenId],
      );
      if (!claimed?.user_id || !claimed.verifier_hash)
        throw new UnauthenticatedError('The request token has not been approved');
      if (!hashesEqual(hashSecret(verifier), claimed.verifier_hash))
        throw new UnauthenticatedError('Invalid oauth_verifier');
      // The approval's version, not the user's: a reset that deleted the user's tokens while this
      // transaction held the request token still voids the access token (its version is raised).
      const keys = fileKeys([{ token, accountId: claimed.account_id, expires: 'never' }]);
      await em.execute(
        `with ${keys.sql}
         insert into oauth1_tokens (client_id, kind, token_key, token_secret, user_id, account_id, credentials_version) values (?, 'access', ?, ?, ?, ?, ?)`,
        [
          ...keys.params,
          verified.clientId,
          token,
          secret,
          claimed.user_id,
          claimed.account_id,
          claimed.credentials_version,
        ],
      );
    });
    return { token, secret };
  }

  /** A signed resource request: the user its access token acts for. */
  async authenticate(
    em: EntityManager,
    request: RequestCredentials,
    params: readonly OAuthParam[],
  ): Promise<Viewer> {
    const verified = await this.verify(request, params, 'access');
    const rows = await em
      .getConnection()
      .execute<ViewerRow[]>(
        `select ${VIEWER_COLUMNS} from oauth1_tokens t join users u on u.account_id = t.account_id and u.id = t.user_id where t.account_id = ? and t.id = ? and ${CURRENT_CREDENTIALS}`,
        [verified.tokenAccountId, verified.tokenId],
      );
    const row = rows[0];
    if (!row) throw new UnauthenticatedError('Invalid or revoked OAuth token');
    if (!row.active) throw new UnauthenticatedError('This user is disabled');
    return viewerFromRow(row);
  }

  /**
   * RFC 5849 §3.2: protocol parameters present once each, a supported method, a fresh timestamp,
   * a known consumer (and token), a matching signature, and a nonce never seen before.
   */
  private async verify(
    request: RequestCredentials,
    params: readonly OAuthParam[],
    token: 'none' | 'request' | 'access',
  ): Promise<VerifiedRequest> {
    const protocol = protocolParams(params);
    const required = [
      'oauth_consumer_key',
      'oauth_signature_method',
      'oauth_signature',
      'oauth_timestamp',
      'oauth_nonce',
    ];
    if (token !== 'none') required.push('oauth_token');
    const missing = required.filter((name) => !protocol[name]);
    if (missing.length)
      throw new UnauthenticatedError(`Missing OAuth parameters: ${missing.join(', ')}`);
    if (protocol.oauth_version !== undefined && protocol.oauth_version !== '1.0')
      throw new UnauthenticatedError('oauth_version must be 1.0');
    const method = protocol.oauth_signature_method as SignatureMethod;
    if (!SIGNATURE_METHODS.includes(method))
      throw new UnauthenticatedError(
        `Unsupported oauth_signature_method; use ${SIGNATURE_METHODS.join(' or ')}`,
      );
    const timestamp = Number(protocol.oauth_timestamp);
    if (
      !/^\d{1,12}$/.test(protocol.oauth_timestamp!) ||
      Math.abs(Date.now() / 1000 - timestamp) > this.options.timestampWindowSeconds
    ) {
      throw new UnauthenticatedError('Stale or invalid oauth_timestamp: check the clock');
    }

    const attempt = { address: request.address };
    await this.limiter.assertAllowed(attempt);
    const [client] = await this.execute<ClientRow>(
      `select id, account_id, secret, redirect_uris from oauth_clients where client_key = ? and protocol = 'oauth1'`,
      [protocol.oauth_consumer_key],
    );
    // A token given with a password since changed is unknown, as if the change had deleted it. (A
    // request token not yet approved has no user; the exchange refuses it.)
    const tokenAccountId =
      client && token !== 'none'
        ? await accountOfToken(this.orm.em, protocol.oauth_token!)
        : undefined;
    const [tokenRow] =
      tokenAccountId !== undefined
        ? await this.execute<TokenRow>(
            `select t.id, t.client_id, t.token_secret, t.verifier_hash, t.user_id
               from oauth1_tokens t left join users u on u.account_id = t.account_id and u.id = t.user_id
              where t.account_id = ? and t.token_key = ? and t.kind = ? and t.client_id = ? and (t.expires_at is null or t.expires_at > now())
                and (t.user_id is null or ${CURRENT_CREDENTIALS})`,
            [tokenAccountId, protocol.oauth_token, token, client!.id],
          )
        : [];
    const found = client && (token === 'none' || tokenRow);
    const expected = found
      ? sign(method, this.baseString(request, params), client.secret, tokenRow?.token_secret ?? '')
      : undefined;
    if (!expected || !signaturesMatch(expected, protocol.oauth_signature!)) {
      await this.limiter.recordFailure(attempt);
      throw new UnauthenticatedError(
        found ? 'Invalid OAuth signature' : 'Unknown OAuth consumer or token',
      );
    }
    const fresh = await this.execute(
      `with expired as (delete from oauth1_nonces where seen_at < now() - make_interval(secs => ?))
       insert into oauth1_nonces (client_key, token_key, nonce, timestamp) values (?, ?, ?, ?)
       on conflict do nothing returning 1`,
      [
        2 * this.options.timestampWindowSeconds,
        protocol.oauth_consumer_key,
        protocol.oauth_token ?? '',
        protocol.oauth_nonce,
        timestamp,
      ],
    );
    if (fresh.length === 0) throw new UnauthenticatedError('oauth_nonce already used');
    return {
      clientId: client.id,
      clientAccountId: client.account_id,
      clientRedirectUris: client.redirect_uris,
      tokenId: tokenRow?.id,
      tokenAccountId,
      protocol,
    };
  }

  /** The URI the client signed: the public origin when one is configured, else the request's. */
  private baseString(request: RequestCredentials, params: readonly OAuthParam[]): string {
    const path = request.url.split('?')[0]!;
    const origin = this.options.publicUrl ? new URL(this.options.publicUrl) : undefined;
    const uri = origin
      ? baseStringUri(origin.protocol === 'https:' ? 'https' : 'http', origin.host, path)
      : baseStringUri(request.protocol, request.host ?? '', path);
    return signatureBaseString(request.method, uri, params);
  }

  private execute<T>(sql: string, params: unknown[]): Promise<T[]> {
    return this.orm.em.getConnection().execute<T[]>(sql, params);
  }
}

/** The `oauth_*` parameters by name; each may appear once (RFC 5849 §3.2). */
function protocolParams(params: readonly OAuthParam[]): Record<string, string> {
  const protocol: Record<string, string> = {};
  for (const [name, value] of params) {
    if (!name.startsWith('oauth_')) continue;
    if (Object.hasOwn(protocol, name))
      throw new UnauthenticatedError(`Duplicate OAuth parameter ${name}`);
    protocol[name] = value;
  }
  return protocol;
}

/** A callback must be an absolute URL, and one of the client's registered ones if it has any. */
function checkCallback(callback: string, registered: readonly string[]): void {
  if (!URL.canParse(callback) || callback.length > 2000)
    throw new BadRequestError('oauth_callback must be an absolute URL or "oob"');
  if (registered.length && !registered.includes(callback)) {
    throw new BadRequestError(
      'oauth_callback is not one of the callback URLs registered for this consumer',
    );
  }
}
