/**
 * Signing in as the service's own first-party OAuth 2.0 client: the authorization code flow with
 * PKCE (RFC 7636) through the service's approval page, like any other public client. Tokens live in
 * memory and in this tab's session storage (so a reload keeps the session, a new tab signs in
 * again), the access token is refreshed a minute before it expires, and signing out revokes it.
 */

/** Registered by the service's migration (src/modules/oauth/web-app-client.ts). */
export const CLIENT_ID = 'timetrack-web';

const STORE = 'timetrack.session';
const PENDING = 'timetrack.pending-sign-in';
const REFRESH_AHEAD_MS = 60_000;
const RETRY_MS = 15_000;
/** setTimeout's longest wait; a longer one fires at once. */
const LONGEST_WAIT_MS = 2 ** 31 - 1;

interface Tokens {
  accessToken: string;
  refreshToken: string;
  /** Epoch ms. */
  expiresAt: number;
  /** How long the access token lasts, in ms. */
  lifetime: number;
}

interface TokenAnswer {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

export class SignInError extends Error {
  /** The service refused the grant (4xx), as opposed to being unreachable or failing. */
  constructor(
    message: string,
    readonly refused = true,
  ) {
    super(message);
  }
}

let tokens: Tokens | undefined = readStored();
let refreshTimer: ReturnType<typeof setTimeout> | undefined;
let refreshing: Promise<string | undefined> | undefined;
/** Counts sessions: an answer of /oauth/token for one that has ended is dropped (and revoked). */
let session = 0;
const listeners = new Set<() => void>();

/** The `Authorization` value of the session, for HTTP headers and graphql-ws alike. */
export function authorization(): string {
  return `Bearer ${tokens?.accessToken ?? ''}`;
}

export function isSignedIn(): boolean {
  return tokens !== undefined;
}

/** Called when the session starts or ends (signed out, refresh refused). */
export function onSessionChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Sends the browser to the approval page with a fresh PKCE pair and state. */
export async function beginSignIn(): Promise<void> {
  if (!crypto.subtle) throw new SignInError('insecure');
  const verifier = randomToken(48);
  const state = randomToken(24);
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  sessionStorage.setItem(PENDING, JSON.stringify({ verifier, state, back: location.hash }));
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: CLIENT_ID,
    state,
    code_challenge: base64Url(new Uint8Array(digest)),
    code_challenge_method: 'S256',
  });
  location.assign(`/oauth/authorize?${query}`);
}

/**
 * On load: the approval page sent the browser back with `?code=&state=` (or `?error=`). Exchanges
 * the code once, then removes it from the address. Resolves false when this load is no such return.
 */
export async function completeSignIn(): Promise<boolean> {
  const params = new URLSearchParams(location.search);
  if (!params.has('code') && !params.has('error')) return false;
  const pending = JSON.parse(sessionStorage.getItem(PENDING) ?? 'null') as {
    verifier: string;
    state: string;
    back: string;
  } | null;
  sessionStorage.removeItem(PENDING);
  history.replaceState(null, '', `/${pending?.back ?? ''}`);
  if (!pending || params.get('state') !== pending.state) throw new SignInError('state');
  const error = params.get('error');
  if (error) throw new SignInError(params.get('error_description') ?? error);
  await tokenRequest({
    grant_type: 'authorization_code',
    code: params.get('code')!,
    code_verifier: pending.verifier,
  });
  return true;
}

/**
 * A new access token (the refresh token rotates); undefined when the session has ended. A refused
 * refresh token ends the session; a failure of the network or the service is tried again later.
 */
export function refresh(): Promise<string | undefined> {
  if (!tokens) return Promise.resolve(undefined);
  refreshing ??= tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refreshToken })
    .then(() => tokens?.accessToken)
    .catch((error: unknown) => {
      if (error instanceof SignInError && error.refused) end();
      else schedule(RETRY_MS);
      return undefined;
    })
    .finally(() => (refreshing = undefined));
  return refreshing;
}

/** Revokes the tokens (either ends both) and forgets them, even when the service is unreachable. */
export async function signOut(): Promise<void> {
  const held = tokens;
  end();
  if (held) await revoke(held.refreshToken);
}

/** Starts the refresh timer of a session restored from session storage. */
export function resume(): void {
  if (tokens) schedule();
}

async function tokenRequest(fields: Record<string, string>): Promise<void> {
  const asked = session;
  const res = await postForm('/oauth/token', fields).catch(() => undefined);
  if (!res) throw new SignInError('the service could not be reached', false);
  const body = (await res.json().catch(() => ({}))) as Partial<TokenAnswer> & {
    error_description?: string;
    error?: string;
  };
  if (!res.ok || !body.access_token || !body.refresh_token)
    throw new SignInError(
      body.error_description ?? body.error ?? `HTTP ${res.status}`,
      res.status >= 400 && res.status < 500 && res.status !== 429,
    );
  // Signed out while this was under way: the new pair is not kept, and not left valid either.
  if (asked !== session) return void revoke(body.refresh_token);
  const lifetime = (body.expires_in ?? 3600) * 1000;
  tokens = {
    accessToken: body.access_token,
    refreshToken: body.refresh_token,
    expiresAt: Date.now() + lifetime,
    lifetime,
  };
  sessionStorage.setItem(STORE, JSON.stringify(tokens));
  schedule();
  notify();
}

/** A minute before expiry, or half the lifetime of a token shorter than two minutes. */
function schedule(wait?: number): void {
  clearTimeout(refreshTimer);
  if (!tokens) return;
  const ahead = Math.min(REFRESH_AHEAD_MS, tokens.lifetime / 2);
  const due = wait ?? Math.max(0, tokens.expiresAt - Date.now() - ahead);
  refreshTimer = setTimeout(() => void refresh(), Math.min(due, LONGEST_WAIT_MS));
}

function revoke(token: string): Promise<unknown> {
  return postForm('/oauth/revoke', { token }).catch(() => undefined);
}

/** A form of this client to an OAuth endpoint (a public client names itself by its id). */
function postForm(path: string, fields: Record<string, string>): Promise<Response> {
  return fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...fields, client_id: CLIENT_ID }),
  });
}

function end(): void {
  clearTimeout(refreshTimer);
  session++;
  tokens = undefined;
  sessionStorage.removeItem(STORE);
  notify();
}

function notify(): void {
  for (const listener of listeners) listener();
}

function readStored(): Tokens | undefined {
  try {
    const stored = JSON.parse(sessionStorage.getItem(STORE) ?? 'null') as Tokens | null;
    return stored?.accessToken && stored.refreshToken && stored.lifetime ? stored : undefined;
  } catch {
    return undefined;
  }
}

function randomToken(bytes: number): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

function base64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}
