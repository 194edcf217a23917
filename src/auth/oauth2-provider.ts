import OAuth2Server, {
  type AuthorizationCode,
  type AuthorizationCodeModel,
  type Client,
  type RefreshToken,
  type RefreshTokenModel,
  type Token,
  type User,
} from '@node-oauth/oauth2-server';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { bearerChallenge, UnauthenticatedError } from '../core/errors';
import { hashesEqual, hashSecret, newSecret, type ClientAccounts } from '../modules/oauth';
import { VIEWER_COLUMNS, viewerFromRow, type Viewer, type ViewerRow } from '../core/viewer';
import type { CredentialGrant } from './credential-check';
import { accountOfToken, fileKeys } from './token-accounts';
import { announceCredentialChange } from '../modules/staff';

/**
 * Default lifetimes, in seconds. Implicit tokens have no refresh token, so they live longer. An
 * application registered with its own access-token lifetime has it in both flows instead.
 */
export const OAUTH2_LIFETIMES = {
  accessToken: 60 * 60,
  refreshToken: 30 * 24 * 60 * 60,
  implicitToken: 14 * 24 * 60 * 60,
  authorizationCode: 60,
} as const;

/**
 * Issuing a token also clears the account's grants whose every token has expired: the later of
 * the two expiries, as an application's own access-token lifetime may outlast the refresh token's.
 * Its one parameter is the account.
 */
const PURGE_EXPIRED_TOKENS = `expired as (delete from oauth2_tokens where account_id = ? and greatest(refresh_expires_at, access_expires_at) < now())`;

/**
 * A registered OAuth 2.0 client, as the flows need it. Whose users may authorise it
 * (`ClientAccounts`) is for the approval page to check once the user has signed in.
 */
export interface OAuth2Client extends Client, ClientAccounts {
  /** The public client key: `client_id`. */
  readonly id: string;
  readonly dbId: number;
  readonly name: string;
  /** Confidential clients authenticate with their secret; public ones (SPAs, CLIs) use PKCE. */
  readonly confidential: boolean;
  readonly redirectUris: string[];
  readonly grants: string[];
  /** Its own access-token lifetime, in seconds, which the library honours over its default. */
  readonly accessTokenLifetime: number | undefined;
}

/** How long an access token from the implicit flow lasts for `client`, in seconds. */
export function implicitTokenLifetime(client: OAuth2Client): number {
  return client.accessTokenLifetime ?? OAUTH2_LIFETIMES.implicitToken;
}

/**
 * A grant is honoured only while the credentials version it was given under is still its user's: a
 * password change raises the user's version, so a code or token written after the change's DELETE
 * (an approval or a refresh racing it) is void all the same.
 */
const CURRENT_CREDENTIALS = 'u.credentials_version = t.credentials_version';

/** The user a grant acts for, with the credentials version its tokens inherit. */
interface GrantUser extends User {
  readonly id: number;
  readonly accountId: number;
  /** The parent grant's (a code's, or the refreshed pair's), never the user's current one. */
  readonly credentialsVersion: number;
}

export interface CodeRequest {
  /** As the authorization request gave it; then the token request must repeat it (RFC 6749 §4.1.3). */
  readonly redirectUri: string | undefined;
  readonly codeChallenge: string | undefined;
  readonly codeChallengeMethod: string | undefined;
  readonly scope: string | undefined;
}

interface ClientRow {
  id: number;
  client_key: string;
  name: string;
  secret_hash: string | null;
  redirect_uris: string[];
  account_id: number;
  serves_every_account: boolean;
  access_token_lifetime_seconds: number | null;
}

/**
 * The OAuth 2.0 provider. The token endpoint (authorization code with PKCE, refresh with rotation,
 * client authentication, RFC 6749 error answers) is @node-oauth/oauth2-server, the maintained
 * successor of oauth2-server; this class is its storage model over PostgreSQL, plus what the
 * library leaves to the application: issuing codes and implicit tokens after the approval page,
 * revocation (RFC 7009) and bearer lookups. Codes and tokens are stored as SHA-256 hashes only.
 */
export class OAuth2Provider {
  readonly server: OAuth2Server;

  constructor(private readonly orm: MikroORM) {
    this.server = new OAuth2Server({
      model: this.model(),
      accessTokenLifetime: OAUTH2_LIFETIMES.accessToken,
      refreshTokenLifetime: OAUTH2_LIFETIMES.refreshToken,
      alwaysIssueNewRefreshToken: true,
      // Public clients refresh without a secret; the model still demands one from confidential ones.
      requireClientAuthentication: { refresh_token: false },
    });
  }

  async findClient(key: string): Promise<OAuth2Client | undefined> {
    const row = await this.clientRow(key);
    return row && toClient(row);
  }

  /**
   * A client proving who it is: a confidential client by its secret; a public one (which has no
   * secret) by its key alone, and never with a secret, which would mean a mix-up.
   */
  async authenticateClient(
    key: string,
    secret: string | undefined,
  ): Promise<OAuth2Client | undefined> {
    const row = await this.clientRow(key);
    if (!row) return undefined;
    if (row.secret_hash === null) return secret ? undefined : toClient(row);
    return secret && hashesEqual(hashSecret(secret), row.secret_hash) ? toClient(row) : undefined;
  }

  /**
   * After the user approved: a one-time code, bound to the redirect URI and PKCE challenge, and to
   * `credentialsVersion`, that of the password the approval page verified.
   */
  async issueCode(
    client: OAuth2Client,
    viewer: Viewer,
    credentialsVersion: number,
    request: CodeRequest,
  ): Promise<string> {
    const code = newSecret();
    const keys = fileKeys([
      {
        token: hashSecret(code),
        accountId: viewer.accountId,
        expires: { inSeconds: OAUTH2_LIFETIMES.authorizationCode },
      },
    ]);
    await this.execute(
      `with ${keys.sql}, expired as (delete from oauth2_codes where account_id = ? and expires_at < now())
       insert into oauth2_codes (client_id, user_id, account_id, credentials_version, code_hash, redirect_uri, code_challenge, code_challenge_method, scope, expires_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, now() + make_interval(secs => ?))`,
      [
        ...keys.params,
        viewer.accountId,
        client.dbId,
        viewer.id,
        viewer.accountId,
        credentialsVersion,
        hashSecret(code),
        request.redirectUri ?? null,
        request.codeChallenge ?? null,
        request.codeChallengeMethod ?? null,
        request.scope ?? null,
        OAUTH2_LIFETIMES.authorizationCode,
      ],
    );
    return code;
  }

  /** The implicit flow: an access token straight to the redirect URI's fragment, no refresh token. */
  async issueImplicitToken(
    client: OAuth2Client,
    viewer: Viewer,
    credentialsVersion: number,
    scope: string | undefined,
  ): Promise<string> {
    const accessToken = newSecret();
    const keys = fileKeys([
      {
        token: hashSecret(accessToken),
        accountId: viewer.accountId,
        expires: { inSeconds: implicitTokenLifetime(client) },
      },
    ]);
    await this.execute(
      `with ${keys.sql}, ${PURGE_EXPIRED_TOKENS}
       insert into oauth2_tokens (client_id, user_id, account_id, credentials_version, access_token_hash, access_expires_at, scope)
       values (?, ?, ?, ?, ?, now() + make_interval(secs => ?), ?)`,
      [
        ...keys.params,
        viewer.accountId,
        client.dbId,
        viewer.id,
        viewer.accountId,
        credentialsVersion,
        hashSecret(accessToken),
        implicitTokenLifetime(client),
        scope ?? null,
      ],
    );
    return accessToken;
  }

  /**
   * RFC 7009: revokes the grant an access or refresh token belongs to (both tokens go). Unknown
   * tokens are not an error. When the client is known, only its own tokens can be revoked.
   */
  async revoke(token: string, clientKey: string | undefined): Promise<void> {
    const hash = hashSecret(token);
    const account = await accountOfToken(this.orm.em, hash);
    if (account === undefined) return;
    await this.deleteTokens(
      `delete from oauth2_tokens t using oauth_clients c
        where t.account_id = ? and c.id = t.client_id and (t.access_token_hash = ? or t.refresh_token_hash = ?)
          and (?::text is null or c.client_key = ?)
        returning t.user_id`,
      [account, hash, hash, clientKey ?? null, clientKey ?? null],
    );
  }

  /** Like authenticate, with the grant a long-lived connection keeps to check again later. */
  async identify(
    em: EntityManager,
    accessToken: string,
  ): Promise<{ viewer: Viewer; grant: CredentialGrant }> {
    const viewer = await this.authenticate(em, accessToken);
    return { viewer, grant: { scheme: 'oauth2', tokenHash: hashSecret(accessToken) } };
  }

  /**
   * The user a bearer token acts for; 401 for an unknown, expired or revoked token, and for one
   * given with a password that has since been changed (as if the change had deleted it).
   */
  async authenticate(em: EntityManager, accessToken: string): Promise<Viewer> {
    const hash = hashSecret(accessToken);
    const account = await accountOfToken(em, hash);
    const rows =
      account === undefined
        ? []
        : await em.getConnection().execute<ViewerRow[]>(
            `select ${VIEWER_COLUMNS} from oauth2_tokens t join users u on u.account_id = t.account_id and u.id = t.user_id
              where t.account_id = ? and t.access_token_hash = ? and t.access_expires_at > now() and ${CURRENT_CREDENTIALS}`,
            [account, hash],
          );
    const row = rows[0];
    if (!row) throw invalidToken('Invalid, expired or revoked access token');
    if (!row.active) throw invalidToken('This user is disabled');
    return viewerFromRow(row);
  }

  private async clientRow(key: string): Promise<ClientRow | undefined> {
    const [row] = await this.execute<ClientRow>(
      `select id, client_key, name, secret_hash, redirect_uris, account_id, serves_every_account,
              access_token_lifetime_seconds
         from oauth_clients where client_key = ? and protocol = 'oauth2'`,
      [key],
    );
    return row;
  }

  private execute<T>(sql: string, params: unknown[]): Promise<T[]> {
    return this.orm.em.getConnection().execute<T[]>(sql, params);
  }

  /**
   * Runs `deletion` (a delete of tokens `returning user_id`) and announces the change of
   * credentials of their users, in one transaction, so that connections opened with them are
   * checked again; answers how many it deleted. The announcement is a statement of its own: on
   * Citus one that also reads a distributed table runs on its worker, where no one listens.
   */
  private deleteTokens(deletion: string, params: unknown[]): Promise<number> {
    return this.orm.em.fork().transactional(async (em) => {
      const gone = await em.execute<{ user_id: number }[]>(deletion, params);
      await announceCredentialChange(
        em,
        gone.map((row) => row.user_id),
      );
      return gone.length;
    });
  }

  /** The storage the library's token endpoint works on. */
  private model(): AuthorizationCodeModel & RefreshTokenModel {
    return {
      getClient: async (clientId, clientSecret) =>
        (await this.authenticateClient(clientId, clientSecret)) ?? false,
      saveToken: async (token, client, user) => {
        const grantUser = user as GrantUser;
        const accountId = grantUser.accountId;
        const keys = fileKeys([
          {
            token: hashSecret(token.accessToken),
            accountId,
            expires: { at: token.accessTokenExpiresAt! },
          },
          ...(token.refreshToken
            ? [
                {
                  token: hashSecret(token.refreshToken),
                  accountId,
                  expires: { at: token.refreshTokenExpiresAt! },
                },
              ]
            : []),
        ]);
        await this.execute(
          `with ${keys.sql}, ${PURGE_EXPIRED_TOKENS}
           insert into oauth2_tokens (client_id, user_id, account_id, credentials_version, access_token_hash, access_expires_at, refresh_token_hash, refresh_expires_at, scope)
           values (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [
            ...keys.params,
            accountId,
            (client as OAuth2Client).dbId,
            grantUser.id,
            grantUser.accountId,
            // The code's or the refreshed pair's: a reset committed since voids the new pair too.
            grantUser.credentialsVersion,
            hashSecret(token.accessToken),
            token.accessTokenExpiresAt,
            token.refreshToken ? hashSecret(token.refreshToken) : null,
            token.refreshTokenExpiresAt ?? null,
            token.scope?.join(' ') || null,
          ],
        );
        return { ...token, client, user } satisfies Token;
      },
      // The token endpoint never reads these: codes come from issueCode, bearers from authenticate.
      saveAuthorizationCode: async () => false,
      getAccessToken: async () => false,
      getAuthorizationCode: async (code) => {
        const hash = hashSecret(code);
        const account = await accountOfToken(this.orm.em, hash);
        if (account === undefined) return false;
        const [row] = await this.execute<
          GrantRow & {
            redirect_uri: string | null;
            code_challenge: string | null;
            code_challenge_method: string | null;
            expires_at: Date;
          }
        >(
          `select t.client_id, c.client_key, t.user_id, t.account_id, t.credentials_version, t.scope, t.redirect_uri, t.code_challenge, t.code_challenge_method, t.expires_at
             from oauth2_codes t join oauth_clients c on c.id = t.client_id join users u on u.account_id = t.account_id and u.id = t.user_id
            where t.account_id = ? and t.code_hash = ? and u.active and ${CURRENT_CREDENTIALS}`,
          [account, hash],
        );
        if (!row) return false;
        return {
          authorizationCode: code,
          expiresAt: new Date(row.expires_at),
          // Null when the authorization request named none: the library then checks nothing.
          redirectUri: row.redirect_uri as string,
          ...(row.code_challenge
            ? {
                codeChallenge: row.code_challenge,
                codeChallengeMethod: row.code_challenge_method ?? 'plain',
              }
            : {}),
          ...grantParts(row),
        } satisfies AuthorizationCode;
      },
      // Deleting is the claim: of two concurrent exchanges of one code, only one deletes it.
      revokeAuthorizationCode: async (code) => {
        const rows = await this.execute(
          `delete from oauth2_codes where account_id = ? and code_hash = ? returning id`,
          [(code.user as GrantUser).accountId, hashSecret(code.authorizationCode)],
        );
        return rows.length === 1;
      },
      getRefreshToken: async (refreshToken) => {
        const hash = hashSecret(refreshToken);
        const account = await accountOfToken(this.orm.em, hash);
        if (account === undefined) return false;
        const [row] = await this.execute<GrantRow & { refresh_expires_at: Date }>(
          `select t.client_id, c.client_key, t.user_id, t.account_id, t.credentials_version, t.scope, t.refresh_expires_at
             from oauth2_tokens t join oauth_clients c on c.id = t.client_id join users u on u.account_id = t.account_id and u.id = t.user_id
            where t.account_id = ? and t.refresh_token_hash = ? and u.active and ${CURRENT_CREDENTIALS}`,
          [account, hash],
        );
        if (!row) return false;
        return {
          refreshToken,
          refreshTokenExpiresAt: new Date(row.refresh_expires_at),
          ...grantParts(row),
        } satisfies RefreshToken;
      },
      // Rotation: the old pair goes as the new one is issued; a refresh token works once.
      revokeToken: async (token) => {
        const deleted = await this.deleteTokens(
          `delete from oauth2_tokens where account_id = ? and refresh_token_hash = ? returning user_id`,
          [(token.user as GrantUser).accountId, hashSecret(token.refreshToken)],
        );
        return deleted === 1;
      },
    };
  }
}

function invalidToken(message: string): UnauthenticatedError {
  return new UnauthenticatedError(message, bearerChallenge('invalid_token', message));
}

interface GrantRow {
  client_id: number;
  client_key: string;
  user_id: number;
  account_id: number;
  credentials_version: number;
  scope: string | null;
}

/** The client and user of a stored grant as the library compares them (by client key). */
function grantParts(row: GrantRow): { client: Client; user: GrantUser; scope?: string[] } {
  return {
    client: { id: row.client_key, dbId: row.client_id, grants: [] },
    user: {
      id: row.user_id,
      accountId: row.account_id,
      credentialsVersion: row.credentials_version,
    },
    ...(row.scope ? { scope: row.scope.split(' ') } : {}),
  };
}

function toClient(row: ClientRow): OAuth2Client {
  return {
    id: row.client_key,
    dbId: row.id,
    name: row.name,
    confidential: row.secret_hash !== null,
    redirectUris: row.redirect_uris,
    accountId: row.account_id,
    servesEveryAccount: row.serves_every_account,
    accessTokenLifetime: row.access_token_lifetime_seconds ?? undefined,
    grants: ['authorization_code', 'refresh_token'],
  };
}
