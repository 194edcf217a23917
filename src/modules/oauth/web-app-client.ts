/**
 * The service's own web app as an OAuth 2.0 client: the operator's, public (PKCE), serving every
 * account. Its key is fixed in the app's code (web/src/auth/oauth-session.ts) as well.
 */
export const WEB_APP_CLIENT = {
  key: 'timetrack-web',
  name: 'timetrack web app',
  redirectUri: '/',
} as const;
