import type { IncomingHttpHeaders } from 'node:http';
import type { Config } from '../core/config';
import { CrossSiteRequestError } from '../core/errors';

/**
 * Cross-site request forgery, refused by the browser's own word. A browser that holds a user's
 * Basic credentials for this service attaches them to any request to it, including a form that a
 * page of another web site posts here; the legacy interfaces accept form bodies and bodiless
 * POSTs, so such a form could create a manager or punch in. Browsers say where a request comes
 * from in two headers that no page can set or remove: `Sec-Fetch-Site` (current browsers) and
 * `Origin` (every browser, on every POST and WebSocket handshake). Programs (the legacy CLIs,
 * scripts, servers) send neither, and keep working unchanged.
 *
 * The algorithm is Go's `net/http.CrossOriginProtection` (Go 1.25), which no maintained Node
 * library offers: token-based CSRF libraries (csrf-csrf, csrf-sync) would need every legacy client
 * to fetch and send a token, which they cannot; `fetch-metadata` lets `same-site` through, has no
 * `Origin` fallback for browsers without `Sec-Fetch-Site`, and answers with a bare status.
 *
 * 1. Safe methods (GET, HEAD, OPTIONS) pass; they change nothing. A WebSocket handshake is a GET
 *    but opens a channel that acts as the user, so it is always checked. GraphQL queries sent as
 *    GET have a rule of their own (graphqlRequestRefusal, below).
 * 2. `Sec-Fetch-Site: same-origin` (a page of this service) or `none` (the user's own act, such as
 *    a bookmark) passes.
 * 3. `Sec-Fetch-Site: cross-site` or `same-site` passes only with an allowed `Origin` (the
 *    service's own `PUBLIC_URL`, or one of `ALLOWED_ORIGINS`). `same-site` (a sibling subdomain)
 *    is treated like any other site: this service cannot know who else serves pages under its
 *    registrable domain; list such a sibling in `ALLOWED_ORIGINS` when it should be trusted.
 * 4. Without `Sec-Fetch-Site` (older browsers, or plain http to a host other than localhost): no
 *    `Origin` passes (not a browser); an `Origin` whose host is the `Host` the request was addressed
 *    to passes (the browser's own same-origin rule, up to the scheme, which a service behind a
 *    TLS-terminating proxy cannot see), as does an allowed one. Anything else is refused, `Origin:
 *    null` included (sandboxed frames, data: URLs and cross-site redirects send it).
 */

/** What a request tells about the page that sent it. */
export interface RequestProvenance {
  readonly method: string;
  /** The `Host` header the request was addressed by. */
  readonly host: string | undefined;
  /** The `Origin` header, as sent. */
  readonly origin?: string | undefined;
  /** The `Sec-Fetch-Site` header, as sent. */
  readonly fetchSite?: string | undefined;
}

/** Which web origins, besides the service's own, may send state-changing requests. */
export interface OriginPolicy {
  /** `PUBLIC_URL`'s origin: the service's own pages as browsers reach them. */
  readonly publicOrigin: string | undefined;
  /** `ALLOWED_ORIGINS`, as `URL.origin` spells them. */
  readonly allowedOrigins: ReadonlySet<string>;
}

export function originPolicyOf(config: Config): OriginPolicy {
  return {
    publicOrigin: config.auth.publicUrl ? new URL(config.auth.publicUrl).origin : undefined,
    allowedOrigins: new Set(config.auth.allowedOrigins),
  };
}

/** The provenance headers of a Node request (a repeated header counts as its joined value). */
export function provenanceOf(method: string, headers: IncomingHttpHeaders): RequestProvenance {
  return {
    method,
    host: headers.host,
    origin: headers.origin,
    fetchSite: single(headers['sec-fetch-site']),
  };
}

/** A Node request to `/graphql`, as graphqlRequestRefusal reads it. */
export function graphqlRequestOf(method: string, headers: IncomingHttpHeaders): GraphQLHttpRequest {
  const nonEmpty = (name: string) => (single(headers[name])?.length ?? 0) > 0;
  return {
    ...provenanceOf(method, headers),
    contentType: headers['content-type'],
    authorization: headers.authorization,
    preflightHeader: nonEmpty('apollo-require-preflight') || nonEmpty('x-apollo-operation-name'),
  };
}

const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The refusal of a request that a browser sent from another web site, or undefined when it may
 * go on. `websocket`: a handshake, checked whatever its method.
 */
export function crossSiteRefusal(
  request: RequestProvenance,
  policy: OriginPolicy,
  kind: 'request' | 'websocket' = 'request',
): CrossSiteRequestError | undefined {
  if (kind === 'request' && SAFE_METHODS.has(request.method.toUpperCase())) return undefined;
  const fetchSite = request.fetchSite?.trim().toLowerCase() || undefined;
  if (fetchSite === 'same-origin' || fetchSite === 'none') return undefined;
  const origin = request.origin?.trim() || undefined;
  if (fetchSite === undefined) {
    if (origin === undefined) return undefined;
    if (addressedHost(origin, request.host)) return undefined;
  }
  if (origin !== undefined && isAllowed(origin, policy)) return undefined;
  const from = origin === undefined ? 'another web site' : `a page of ${printable(origin)}`;
  return new CrossSiteRequestError(
    `Cross-site request refused: ${from} may not send ${kind === 'websocket' ? 'WebSocket connections' : `${request.method.toUpperCase()} requests`} to this service with a browser's credentials. Send it from this service's own pages or from a program, or ask the operator to allow that origin (ALLOWED_ORIGINS).`,
  );
}

/** A request to `/graphql` over HTTP: its provenance and what makes it simple or not. */
export interface GraphQLHttpRequest extends RequestProvenance {
  /** The `Content-Type` header, as sent. */
  readonly contentType?: string | undefined;
  /** The `Authorization` header, as sent. */
  readonly authorization?: string | undefined;
  /** Whether it carries a non-empty `apollo-require-preflight` or `x-apollo-operation-name`. */
  readonly preflightHeader: boolean;
}

/** The content types a page may post to another site without a CORS preflight (Fetch standard). */
const SIMPLE_CONTENT_TYPES: ReadonlySet<string> = new Set([
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'text/plain',
]);

/**
 * The refusal of a GraphQL request over HTTP that another site's page may have sent with the
 * browser's own credentials, or undefined when it may go on. It replaces Apollo's
 * `csrfPrevention`, which refused every GET without a custom header, and with it the default
 * GET of urql 6 and of any GraphQL-over-HTTP client (`Accept: application/graphql-response+json`,
 * which a cross-site page may send too: `Accept` is a CORS-safelisted header).
 *
 * 1. A request a browser sends only after a CORS preflight (a `Content-Type` other than the three
 *    simple ones, or Apollo's `apollo-require-preflight` / `x-apollo-operation-name`) goes on:
 *    the service answers no preflight, so no other site's page gets one sent.
 * 2. Any other request but a GET (a form post, a `text/plain` post) is refused, as Apollo did.
 * 3. A GET runs only queries (Apollo answers 405 to a mutation or subscription), and without CORS
 *    headers another site cannot read its answer; what is left to refuse is another site's page
 *    making a user's browser run queries with the credentials the browser attaches on its own:
 *    the Basic login it remembers (the service sets no cookies). So a GET goes on when it carries
 *    no Basic credentials (a bearer token or an OAuth 1.0a signature, which a page must attach
 *    itself and which a page of another site does not have), or when the browser vouches for it:
 *    `crossSiteRefusal`'s rule, except that a GET with neither `Sec-Fetch-Site` nor `Origin` is
 *    not taken for a program's: an older browser sends neither on another site's simple GET.
 */
export function graphqlRequestRefusal(
  request: GraphQLHttpRequest,
  policy: OriginPolicy,
): CrossSiteRequestError | undefined {
  const essence = request.contentType?.split(';')[0]?.trim().toLowerCase();
  if ((essence !== undefined && !SIMPLE_CONTENT_TYPES.has(essence)) || request.preflightHeader)
    return undefined;
  const method = request.method.toUpperCase();
  if (method === 'GET' || method === 'HEAD') {
    if (!/^basic\b/i.test(request.authorization?.trim() ?? '')) return undefined;
    const marked = request.fetchSite?.trim() || request.origin?.trim();
    if (marked && !crossSiteRefusal({ ...request, method: 'POST' }, policy)) return undefined;
    return new CrossSiteRequestError(
      "Cross-site request refused: a GET query with Basic credentials must come from this service's own pages or show that no other site's page sent it. Send it with a bearer token, as a POST with Content-Type: application/json, or with the header apollo-require-preflight: true.",
    );
  }
  return new CrossSiteRequestError(
    `Cross-site request refused: a ${method} to /graphql must have Content-Type: application/json (or the header apollo-require-preflight: true); ${essence ? `${printable(essence)} is` : 'no Content-Type is'} what another site's form could send.`,
  );
}

/** The origin exactly as a browser serializes one (`https://host[:port]`), else undefined. */
function parsedOrigin(value: string): URL | undefined {
  if (!URL.canParse(value)) return undefined;
  const url = new URL(value);
  return /^https?:$/.test(url.protocol) && url.origin === value ? url : undefined;
}

function isAllowed(origin: string, policy: OriginPolicy): boolean {
  if (!parsedOrigin(origin)) return false;
  return origin === policy.publicOrigin || policy.allowedOrigins.has(origin);
}

/** Whether the origin's host and port are those of the Host header (its port implied by the scheme). */
function addressedHost(origin: string, host: string | undefined): boolean {
  const url = parsedOrigin(origin);
  if (!url || !host || !/^[A-Za-z0-9.\-:[\]]+$/.test(host)) return false;
  const addressed = `${url.protocol}//${host}`;
  return URL.canParse(addressed) && new URL(addressed).host === url.host;
}

/** An origin as a message may quote it: a browser's is short and printable; anything else is cut. */
function printable(origin: string): string {
  const cleaned = origin.replace(/[^\x20-\x7e]/g, '?');
  return cleaned.length > 100 ? `${cleaned.slice(0, 100)}…` : cleaned;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}
