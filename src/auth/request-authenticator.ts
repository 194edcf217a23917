import type { EntityManager } from '@mikro-orm/postgresql';
import { bearerChallenge, UnauthenticatedError } from '../core/errors';
import type { RequestCredentials } from '../core/request-context';
import { parseBasicAuthorization, type BasicAuthenticator } from './basic-auth';
import type { OAuth1Provider } from './oauth1-provider';
import {
  OAuthSyntaxError,
  parseFormEncoded,
  parseOAuthAuthorizationHeader,
  type OAuthParam,
} from './oauth1-signature';
import type { OAuth2Provider } from './oauth2-provider';
import type { Viewer } from '../core/viewer';
import type { CredentialGrant } from './credential-check';

/**
 * Picks the scheme a request authenticates with and asks its verifier, the same way for /graphql,
 * the JSON and the XML interfaces:
 * - `Authorization: Basic` (login and password),
 * - `Authorization: Bearer` or an `access_token` query parameter (OAuth 2.0),
 * - `Authorization: OAuth` or `oauth_signature` in the query string (OAuth 1.0a, RFC 5849).
 */
export class RequestAuthenticator {
  constructor(
    private readonly basic: BasicAuthenticator,
    private readonly oauth1: OAuth1Provider,
    private readonly oauth2: OAuth2Provider,
  ) {}

  async authenticate(em: EntityManager, credentials: RequestCredentials): Promise<Viewer> {
    return (await this.identify(em, credentials)).viewer;
  }

  /**
   * Like authenticate, with the grant a long-lived connection (a WebSocket) keeps, so that its
   * credentials can be checked again later without signing in again (CredentialCheck).
   */
  async identify(em: EntityManager, credentials: RequestCredentials): Promise<Identified> {
    const header = credentials.authorization?.trim();
    if (header) {
      const bearer = /^Bearer\s+([A-Za-z0-9\-._~+/]+=*)$/i.exec(header);
      if (bearer) return this.bearer(em, bearer[1]!);
      if (/^Bearer\b/i.test(header)) {
        const message = 'Malformed Bearer token: send Authorization: Bearer <token>';
        throw new UnauthenticatedError(message, bearerChallenge('invalid_request', message));
      }
      const oauthHeader = readOAuthHeader(header);
      if (oauthHeader)
        return this.signed(em, credentials, [...queryParams(credentials.url), ...oauthHeader]);
      const basic = parseBasicAuthorization(header);
      if (basic) return this.basic.identify(em, basic, credentials.address);
      throw new UnauthenticatedError(
        'Unsupported Authorization header: use Basic, Bearer or OAuth',
      );
    }
    // Only URLs that carry credentials are parsed here; others are the routes' business.
    if (!/[?&](access_token|oauth_signature)=/.test(credentials.url))
      throw new UnauthenticatedError();
    const query = queryParams(credentials.url);
    const accessToken = query.find(([name]) => name === 'access_token');
    if (accessToken) return this.bearer(em, accessToken[1]);
    if (query.some(([name]) => name === 'oauth_signature'))
      return this.signed(em, credentials, query);
    throw new UnauthenticatedError();
  }

  private bearer(em: EntityManager, token: string): Promise<Identified> {
    return this.oauth2.identify(em, token);
  }

  private async signed(
    em: EntityManager,
    credentials: RequestCredentials,
    params: OAuthParam[],
  ): Promise<Identified> {
    const viewer = await this.oauth1.authenticate(em, credentials, params);
    // The signature verified, so oauth_token was present exactly once.
    const tokenKey = params.find(([name]) => name === 'oauth_token')![1];
    return { viewer, grant: { scheme: 'oauth1', tokenKey } };
  }
}

/** Who a request authenticated as, and with what. */
export interface Identified {
  readonly viewer: Viewer;
  readonly grant: CredentialGrant;
}

/** The decoded query parameters of a request URL; a malformed query authenticates nothing. */
function queryParams(url: string): OAuthParam[] {
  const mark = url.indexOf('?');
  return mark < 0
    ? []
    : refusingMalformed('query string', () => parseFormEncoded(url.slice(mark + 1)));
}

function readOAuthHeader(header: string): OAuthParam[] | undefined {
  return refusingMalformed('OAuth header', () => parseOAuthAuthorizationHeader(header));
}

/** Malformed credentials are a 401 naming the fault, never a 500. */
function refusingMalformed<T>(what: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof OAuthSyntaxError)
      throw new UnauthenticatedError(`Malformed ${what}: ${error.message}`);
    throw error;
  }
}
