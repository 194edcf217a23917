import { createHmac, timingSafeEqual } from 'node:crypto';

/** One request parameter, as a decoded name/value pair (names may repeat). */
export type OAuthParam = readonly [name: string, value: string];

/** The shared-secret methods of RFC 5849 §3.4.2, plus the common SHA-256 variant. */
export type SignatureMethod = 'HMAC-SHA1' | 'HMAC-SHA256';

/** Every accepted `oauth_signature_method`, to validate the client's choice against. */
export const SIGNATURE_METHODS: readonly SignatureMethod[] = ['HMAC-SHA1', 'HMAC-SHA256'];

/** Thrown for syntactically malformed OAuth input (bad percent-encoding, bad header syntax). */
export class OAuthSyntaxError extends Error {
  override name = 'OAuthSyntaxError';
}

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** RFC 5849 §3.6: %XX every UTF-8 byte but the unreserved ones (lone surrogates become U+FFFD). */
export function percentEncode(value: string): string {
  let encoded = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const char = String.fromCharCode(byte);
    encoded += UNRESERVED.test(char)
      ? char
      : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return encoded;
}

/** Undoes %XX escapes as UTF-8 (RFC 3986 §2.1); '+' is left alone, malformed input is an error. */
export function percentDecode(value: string): string {
  try {
    // decodeURIComponent rejects stray '%', bad hex and invalid UTF-8 (overlong, surrogates).
    return decodeURIComponent(value);
  } catch {
    throw new OAuthSyntaxError(`Malformed percent-encoding: ${JSON.stringify(value)}`);
  }
}

/** RFC 5849 §3.4.1.3.1: query strings and form bodies per HTML 4.01 §17.13.4, '+' a space. */
export function parseFormEncoded(text: string): OAuthParam[] {
  const decode = (part: string) => percentDecode(part.replace(/\+/g, ' '));
  return text
    .split('&')
    .filter((piece) => piece !== '')
    .map((piece) => {
      const eq = piece.indexOf('=');
      return eq < 0
        ? [decode(piece), '']
        : [decode(piece.slice(0, eq)), decode(piece.slice(eq + 1))];
    });
}

/** One `name="value"` item of the header, then a ',' that is not trailing, or the end. */
const HEADER_PARAM = /\s*([^\s=,"]+)\s*=\s*"([^"]*)"\s*(?:,(?!\s*$)|$)/y;

/** RFC 5849 §3.5.1: the `Authorization: OAuth ...` parameters, decoded, `realm` left out. */
export function parseOAuthAuthorizationHeader(header: string): OAuthParam[] | undefined {
  const scheme = /^\s*OAuth(?=\s|$)/i.exec(header);
  if (!scheme) return undefined;
  const rest = header.slice(scheme[0].length);
  const params: OAuthParam[] = [];
  if (rest.trim() === '') return params;
  HEADER_PARAM.lastIndex = 0;
  while (HEADER_PARAM.lastIndex < rest.length) {
    const match = HEADER_PARAM.exec(rest);
    if (!match) throw new OAuthSyntaxError('Malformed OAuth Authorization header');
    const name = percentDecode(match[1]!);
    if (name.toLowerCase() !== 'realm') params.push([name, percentDecode(match[2]!)]);
  }
  return params;
}

const DEFAULT_PORTS = { http: 80, https: 443 } as const;

/** RFC 5849 §3.4.1.2: lowercase scheme and host, default port dropped, no query or fragment. */
export function baseStringUri(protocol: 'http' | 'https', host: string, path: string): string {
  const scheme = protocol.toLowerCase() as 'http' | 'https';
  // The port is the digits after the last ':' outside an IPv6 literal's brackets.
  const [, hostname, port] = /^(.*?)(?::(\d*))?$/.exec(host.toLowerCase())!;
  const keepPort = port !== undefined && port !== '' && Number(port) !== DEFAULT_PORTS[scheme];
  const bare = path.replace(/[?#][\s\S]*$/, '');
  return `${scheme}://${hostname}${keepPort ? `:${port}` : ''}${bare === '' ? '/' : bare}`;
}

const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** RFC 5849 §3.4.1.1: METHOD&URI&normalized parameters (§3.4.1.3.2), each part percent-encoded. */
export function signatureBaseString(
  method: string,
  baseUri: string,
  params: readonly OAuthParam[],
): string {
  const normalized = params
    .filter(([name]) => name !== 'oauth_signature')
    .map(([name, value]) => [percentEncode(name), percentEncode(value)] as const)
    // Encoded text is ASCII, so UTF-16 order equals the byte order the RFC asks for.
    .sort(([n1, v1], [n2, v2]) => byteOrder(n1, n2) || byteOrder(v1, v2))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  // Custom methods must be encoded too (§3.4.1.1 step 1); standard ones are unchanged by it.
  return [
    percentEncode(method.toUpperCase()),
    percentEncode(baseUri),
    percentEncode(normalized),
  ].join('&');
}

/** RFC 5849 §3.4.2: base64 HMAC keyed with the encoded client and token secrets joined by '&'. */
export function sign(
  method: SignatureMethod,
  baseString: string,
  consumerSecret: string,
  tokenSecret: string,
): string {
  const key = `${percentEncode(consumerSecret)}&${percentEncode(tokenSecret)}`;
  const hash = method === 'HMAC-SHA1' ? 'sha1' : 'sha256';
  return createHmac(hash, key).update(baseString, 'utf8').digest('base64');
}

/** RFC 5849 §3.2 signature check, in constant time so timing reveals nothing of the secret. */
export function signaturesMatch(computed: string, given: string): boolean {
  const expected = Buffer.from(computed, 'base64');
  const actual = Buffer.from(given, 'base64');
  // Buffer's decoder skips junk and ignores trailing bits, so insist on canonical base64.
  if (actual.toString('base64') !== given) return false;
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
