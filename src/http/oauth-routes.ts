import {
  Request as OAuth2Request,
  Response as OAuth2Response,
  OAuthError,
} from '@node-oauth/oauth2-server';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { MikroORM } from '@mikro-orm/postgresql';
import { mapDatabaseError } from '../db/database-errors';
import {
  AppError,
  BASIC_CHALLENGE,
  BadRequestError,
  errorHeadersOf,
  HTTP_STATUS,
  type ErrorCode,
} from '../core/errors';
import { credentialsOf, loggerOf } from '../core/request-context';
import { parseBasicAuthorization, type BasicAuthenticator } from '../auth/basic-auth';
import { crossSiteRefusal, type OriginPolicy } from '../auth/cross-site-guard';
import { approvalPage, authorizedPage, messagePage, verifierPage } from './oauth-pages';
import { OUT_OF_BAND, type OAuth1Provider } from '../auth/oauth1-provider';
import {
  OAuthSyntaxError,
  parseFormEncoded,
  parseOAuthAuthorizationHeader,
  type OAuthParam,
} from '../auth/oauth1-signature';
import {
  implicitTokenLifetime,
  type OAuth2Client,
  type OAuth2Provider,
} from '../auth/oauth2-provider';
import { servesAccount } from '../modules/oauth';

export interface OAuthRouterDeps {
  readonly orm: MikroORM;
  readonly oauth1: OAuth1Provider;
  readonly oauth2: OAuth2Provider;
  readonly basic: BasicAuthenticator;
  readonly publicUrl: string | undefined;
  /** Whose pages may post the approval form: this service's own (and ALLOWED_ORIGINS). */
  readonly originPolicy: OriginPolicy;
  readonly bodyLimitBytes: number;
}

/** The OAuth 2.0 parameters of an authorization request, carried through the approval form. */
const OAUTH2_FIELDS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'state',
  'scope',
  'code_challenge',
  'code_challenge_method',
] as const;

/**
 * `/oauth/*`: the endpoints of both providers and the approval page they share.
 * - OAuth 1.0a: `request_token`, `authorize?oauth_token=…`, `access_token` (GET or POST).
 * - OAuth 2.0: `authorize?response_type=code|token…`, `token`, `revoke`, and `authorized`, the
 *   landing page of clients without a redirect URI of their own.
 * Sign-ins on the approval page go through the Basic authenticator, with its limits.
 */
export function createOAuthRouter(deps: OAuthRouterDeps): Router {
  const router = express.Router();
  // Raw form text: OAuth 1.0a signs the decoded pairs exactly as sent, repeats included.
  router.use(
    '/oauth',
    express.text({ type: 'application/x-www-form-urlencoded', limit: deps.bodyLimitBytes }),
  );

  const oauth1Endpoint =
    (issue: (req: Request, params: OAuthParam[]) => Promise<Record<string, string>>) =>
    async (req: Request, res: Response) => {
      try {
        const params = [...queryPairs(req), ...headerPairs(req), ...formPairs(req)];
        res
          .type('application/x-www-form-urlencoded')
          .send(new URLSearchParams(await issue(req, params)).toString());
      } catch (error) {
        sendOAuth1Error(req, res, error);
      }
    };
  router.all(
    '/oauth/request_token',
    oauth1Endpoint(async (req, params) => {
      const { token, secret } = await deps.oauth1.issueRequestToken(credentialsOf(req), params);
      return { oauth_token: token, oauth_token_secret: secret, oauth_callback_confirmed: 'true' };
    }),
  );
  router.all(
    '/oauth/access_token',
    oauth1Endpoint(async (req, params) => {
      const { token, secret } = await deps.oauth1.issueAccessToken(credentialsOf(req), params);
      return { oauth_token: token, oauth_token_secret: secret };
    }),
  );

  router.get('/oauth/authorize', (req, res) =>
    showOrDecide(deps, req, res, () => queryPairs(req), false),
  );
  // The approval form signs a user in and grants; only this service's own page may post it. (The
  // other endpoints carry no ambient authority: codes, secrets and signatures are in the request.)
  router.post('/oauth/authorize', (req, res) => {
    const refusal = crossSiteRefusal(credentialsOf(req), deps.originPolicy);
    if (refusal)
      return messagePage(res, HTTP_STATUS[refusal.code], 'Request refused', refusal.message);
    return showOrDecide(deps, req, res, () => formPairs(req), true);
  });

  router.post('/oauth/token', async (req, res) => {
    const response = new OAuth2Response();
    try {
      await deps.oauth2.server.token(oauth2Request(req), response);
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      if (error.code >= 500) loggerOf(req).error({ err: error }, 'oauth token endpoint failed');
    }
    res
      .status(response.status ?? 200)
      .set({ ...response.headers, 'Cache-Control': 'no-store' })
      .json(response.body);
  });

  // RFC 7009: the answer is 200 whether or not the token existed, so it reveals nothing.
  router.post('/oauth/revoke', async (req, res) => {
    const fields = Object.fromEntries(formPairs(req));
    const client = await authenticatedClient(deps.oauth2, req, fields);
    if (!client) {
      res
        .status(401)
        // RFC 6749 §2.3.1: clients authenticate with HTTP Basic, in the service's one realm.
        .set('WWW-Authenticate', BASIC_CHALLENGE)
        .json({ error: 'invalid_client', error_description: 'Unknown client or wrong secret' });
      return;
    }
    if (!fields.token) {
      res.status(400).json({ error: 'invalid_request', error_description: 'token is required' });
      return;
    }
    await deps.oauth2.revoke(fields.token, client.id);
    res.status(200).set('Cache-Control', 'no-store').json({});
  });

  router.get('/oauth/authorized', (_req, res) => authorizedPage(res));
  for (const path of ['/oauth/token', '/oauth/revoke']) {
    router.all(path, (_req, res) => {
      res
        .status(405)
        .set('Allow', 'POST')
        .json({ error: 'invalid_request', error_description: 'Use POST' });
    });
  }
  // Whatever escaped a handler: a refused body (body-parser's 4xx) or a malformed query keeps its
  // status, a database that cannot answer is 503, anything else a bare 500.
  router.use('/oauth', (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const parserStatus = (error as { status?: unknown }).status;
    if (typeof parserStatus === 'number' && parserStatus >= 400 && parserStatus < 500) {
      res
        .status(parserStatus)
        .type('text/plain')
        .send((error as Error).message);
      return;
    }
    const known = asAppError(error);
    if (known?.code === 'BAD_REQUEST' || known?.code === 'SERVICE_UNAVAILABLE') {
      const status = statusOf(res, known);
      res.status(status).type('text/plain').send(known.message);
      return;
    }
    loggerOf(req).error({ err: error }, 'oauth endpoint failed');
    res.status(500).type('text/plain').send('Internal server error');
  });
  return router;
}

/**
 * The refusals that keep the catalogue's status here. OAuth answers any other mistake of a client
 * with 400 (RFC 5849 §3.2, RFC 6749 §5.2).
 */
const OAUTH_CODES: ReadonlySet<ErrorCode> = new Set([
  'BAD_REQUEST',
  'UNAUTHENTICATED',
  'TOO_MANY_REQUESTS',
  'SERVICE_UNAVAILABLE',
]);

/** The HTTP status of an error of the OAuth endpoints; a 429 also gets its Retry-After. */
function statusOf(res: Response, error: AppError): number {
  // No Basic challenge: a 401 here is OAuth's own answer, or the approval page, where it would make
  // the browser ask for a password over the form.
  res.set(errorHeadersOf(error, { challenge: false }));
  return OAUTH_CODES.has(error.code) ? HTTP_STATUS[error.code] : HTTP_STATUS.BAD_REQUEST;
}

/** A catalogue error, or the one a database failure maps to. */
function asAppError(error: unknown): AppError | undefined {
  return error instanceof AppError ? error : mapDatabaseError(error);
}

/**
 * The approval page: shown on GET; on POST, a denial or a sign-in followed by the grant. The flow's
 * parameters are checked again on POST, since the form carries them back from the browser.
 */
async function showOrDecide(
  deps: OAuthRouterDeps,
  req: Request,
  res: Response,
  read: () => OAuthParam[],
  deciding: boolean,
): Promise<void> {
  try {
    const fields = Object.fromEntries(read());
    if (fields.oauth_token)
      return await oauth1Approval(
        deps,
        req,
        res,
        fields.oauth_token,
        deciding ? fields : undefined,
      );
    if (fields.response_type || fields.client_id)
      return await oauth2Approval(deps, req, res, fields, deciding);
    messagePage(
      res,
      400,
      'Nothing to authorize',
      'This address needs an oauth_token (OAuth 1.0a) or a response_type and client_id (OAuth 2.0).',
    );
  } catch (error) {
    const known = asAppError(error);
    if (known?.code === 'SERVICE_UNAVAILABLE')
      return messagePage(res, HTTP_STATUS[known.code], 'Try again shortly', known.message);
    if (known?.code === 'BAD_REQUEST')
      return messagePage(res, HTTP_STATUS[known.code], 'Malformed request', known.message);
    throw error;
  }
}

async function oauth1Approval(
  deps: OAuthRouterDeps,
  req: Request,
  res: Response,
  token: string,
  form: Record<string, string> | undefined,
): Promise<void> {
  const pending = await deps.oauth1.pendingAuthorization(token);
  if (!pending) return unknownRequestToken(res);
  const fields = { oauth_token: token };
  if (!form) return approvalPage(res, { clientName: pending.clientName, fields });
  if (form.decision !== 'approve') {
    const denied = await deps.oauth1.deny(token);
    if (!denied || denied.callback === OUT_OF_BAND)
      return messagePage(res, 200, 'Not authorized', `${pending.clientName} was not given access.`);
    return res.redirect(
      303,
      withParams(denied.callback, { oauth_token: token, denied: token }, '?'),
    );
  }
  const signedIn = await signIn(deps, req, res, form, pending.clientName, fields);
  if (!signedIn) return;
  const { viewer, credentialsVersion } = signedIn;
  // An account's consumer is approved by that account's users only. To anyone else its request
  // token is as unknown as a made-up one, page for page, so the answer tells nothing of the account.
  if (!servesAccount(pending, viewer.accountId)) return unknownRequestToken(res);
  const outcome = await deps.oauth1.approve(token, viewer, credentialsVersion);
  if (!outcome?.verifier)
    return messagePage(
      res,
      400,
      'Request expired',
      'This authorization request was used or expired meanwhile; start again.',
    );
  if (outcome.callback === OUT_OF_BAND)
    return verifierPage(res, pending.clientName, outcome.verifier);
  res.redirect(
    303,
    withParams(outcome.callback, { oauth_token: token, oauth_verifier: outcome.verifier }, '?'),
  );
}

async function oauth2Approval(
  deps: OAuthRouterDeps,
  req: Request,
  res: Response,
  all: Record<string, string>,
  deciding: boolean,
): Promise<void> {
  const fields = Object.fromEntries(
    OAUTH2_FIELDS.filter((name) => all[name] !== undefined).map((name) => [name, all[name]!]),
  );
  const client = fields.client_id ? await deps.oauth2.findClient(fields.client_id) : undefined;
  if (!client) return unknownClient(res);
  // Only addresses the operator or the application chose: the registered ones, else this service's
  // own landing page at PUBLIC_URL. Never one made of the request's Host header, which whoever
  // sends the request chooses (a forged Host would pick where the token goes).
  const allowed = client.redirectUris.length
    ? client.redirectUris
    : deps.publicUrl
      ? [`${deps.publicUrl}/oauth/authorized`]
      : [];
  if (!allowed.length)
    return messagePage(
      res,
      400,
      'No redirect address',
      'This application has no registered redirect URI, and this service has no PUBLIC_URL for its own landing page; the operator must set one of them.',
    );
  const redirectUri = fields.redirect_uri ?? allowed[0]!;
  // Never redirect to an address the application did not register: errors stay on this page.
  if (!allowed.includes(redirectUri))
    return messagePage(
      res,
      400,
      'Invalid redirect',
      'The redirect_uri is not registered for this application.',
    );

  const implicit = fields.response_type === 'token';
  // `state` comes back last. The implicit flow's fragment always ends with it, empty when the
  // client sent none: the original service did so, and its CLI accepts only an address that
  // ends `&state=…` (errors included).
  const state = fields.state ?? (implicit ? '' : undefined);
  const back = (params: Record<string, string>) =>
    res.redirect(
      303,
      withParams(
        redirectUri,
        { ...params, ...(state !== undefined ? { state } : {}) },
        implicit ? '#' : '?',
      ),
    );
  if (fields.response_type !== 'code' && !implicit)
    return back({
      error: 'unsupported_response_type',
      error_description: 'response_type must be code or token',
    });
  // The implicit grant puts a token in the browser's address; a confidential client, which can
  // keep a secret, uses the code flow (RFC 6749 §4.2.2.1; OAuth 2.0 Security BCP §2.1.2).
  if (implicit && client.confidential)
    return back({
      error: 'unauthorized_client',
      error_description:
        'The implicit grant (response_type=token) is for public clients; use response_type=code',
    });
  if (fields.response_type === 'code') {
    if (
      fields.code_challenge !== undefined &&
      (!/^[A-Za-z0-9\-._~]{43,128}$/.test(fields.code_challenge) ||
        (fields.code_challenge_method ?? 'plain') !== 'S256')
    ) {
      return back({
        error: 'invalid_request',
        error_description:
          'code_challenge must be 43-128 characters with code_challenge_method=S256',
      });
    }
    if (!client.confidential && fields.code_challenge === undefined) {
      return back({
        error: 'invalid_request',
        error_description:
          'Public clients must use PKCE: send code_challenge and code_challenge_method=S256',
      });
    }
  }

  if (!deciding) return approvalPage(res, { clientName: client.name, fields });
  if (all.decision !== 'approve')
    return back({ error: 'access_denied', error_description: 'The user denied access' });
  const signedIn = await signIn(deps, req, res, all, client.name, fields);
  if (!signedIn) return;
  const { viewer, credentialsVersion } = signedIn;
  // An account's application is authorised by that account's users only (its owner chose its name
  // and where the code goes). To anyone else it is as unknown as a made-up client_id, byte for
  // byte, so the answer tells nothing of the account.
  if (!servesAccount(client, viewer.accountId)) return unknownClient(res);
  if (implicit) {
    const token = await deps.oauth2.issueImplicitToken(
      client,
      viewer,
      credentialsVersion,
      fields.scope,
    );
    return back({
      access_token: token,
      token_type: 'Bearer',
      expires_in: String(implicitTokenLifetime(client)),
    });
  }
  const code = await deps.oauth2.issueCode(client, viewer, credentialsVersion, {
    redirectUri: fields.redirect_uri,
    codeChallenge: fields.code_challenge,
    codeChallengeMethod: fields.code_challenge_method,
    scope: fields.scope,
  });
  back({ code });
}

/** The answer for a client_id that names no OAuth 2.0 application the user may authorise. */
function unknownClient(res: Response): void {
  messagePage(
    res,
    400,
    'Unknown application',
    'The client_id names no registered OAuth 2.0 application.',
  );
}

/** The answer for an oauth_token that names no request the user may approve. */
function unknownRequestToken(res: Response): void {
  messagePage(
    res,
    400,
    'Request expired',
    'This authorization request is unknown, already used or expired; start again from the application.',
  );
}

/**
 * Signs the user in from the form; on failure shows the form again and answers undefined. With the
 * user comes the credentials version of the password just verified, for what is issued to carry:
 * a reset committed after this read voids it, though the issuing statement runs later.
 */
async function signIn(
  deps: OAuthRouterDeps,
  req: Request,
  res: Response,
  form: Record<string, string>,
  clientName: string,
  fields: Record<string, string>,
) {
  try {
    return await deps.basic.identify(
      deps.orm.em.fork(),
      { login: form.login ?? '', password: form.password ?? '' },
      credentialsOf(req).address,
    );
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    approvalPage(res, { clientName, fields, error: error.message, status: statusOf(res, error) });
    return undefined;
  }
}

/** The client of a revocation request, by Basic credentials (form-encoded, RFC 6749 §2.3.1) or form fields. */
async function authenticatedClient(
  oauth2: OAuth2Provider,
  req: Request,
  fields: Record<string, string>,
): Promise<OAuth2Client | undefined> {
  const basic = parseBasicAuthorization(req.headers.authorization);
  const [id, secret] = basic
    ? [basic.login, basic.password].map(formDecode)
    : [fields.client_id, fields.client_secret];
  return id ? oauth2.authenticateClient(id, secret) : undefined;
}

function formDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

function oauth2Request(req: Request): OAuth2Request {
  return new OAuth2Request({
    method: req.method,
    headers: req.headers as Record<string, string>,
    query: {},
    body: Object.fromEntries(formPairs(req)),
  });
}

function sendOAuth1Error(req: Request, res: Response, failure: unknown): void {
  const error = asAppError(failure);
  if (!error) {
    loggerOf(req).error({ err: failure }, 'oauth 1.0a endpoint failed');
    res.status(500).type('text/plain').send('Internal server error');
    return;
  }
  // The problem-reporting form of the OAuth extension of the same name.
  res
    .status(statusOf(res, error))
    .type('application/x-www-form-urlencoded')
    .send(
      new URLSearchParams({
        oauth_problem: error.code.toLowerCase(),
        oauth_problem_advice: error.message,
      }).toString(),
    );
}

function withParams(url: string, params: Record<string, string>, separator: '?' | '#'): string {
  const query = new URLSearchParams(params).toString();
  if (separator === '#') return `${url.split('#')[0]}#${query}`;
  return `${url}${url.includes('?') ? '&' : '?'}${query}`;
}

function pairs(parse: () => OAuthParam[] | undefined): OAuthParam[] {
  try {
    return parse() ?? [];
  } catch (error) {
    if (error instanceof OAuthSyntaxError) throw new BadRequestError(error.message);
    throw error;
  }
}

const queryPairs = (req: Request) =>
  pairs(() => parseFormEncoded(req.originalUrl.split('?')[1] ?? ''));
const headerPairs = (req: Request) =>
  pairs(() =>
    req.headers.authorization
      ? parseOAuthAuthorizationHeader(req.headers.authorization)
      : undefined,
  );
const formPairs = (req: Request) =>
  pairs(() => (typeof req.body === 'string' ? parseFormEncoded(req.body) : []));
