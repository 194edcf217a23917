/**
 * The headers of a page of the service's own (GraphiQL, the web app) that names its assets by
 * content hash and loads nothing else: `contentSecurityPolicy` says what it may load.
 */
export function hashedPageHeaders(contentSecurityPolicy: string): Record<string, string> {
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': contentSecurityPolicy,
    // The page names its assets by hash: it must be revalidated, the assets need not be.
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
    // frame-ancestors for browsers that predate it, as the OAuth pages do.
    'X-Frame-Options': 'DENY',
    // Not `no-referrer`: under it the page's own POSTs carry `Origin: null`, which the cross-site
    // guard refuses where the browser sends no Sec-Fetch-Site (plain http to a host other than
    // localhost). Other sites still get no Referer (nor the code of an OAuth redirect back).
    'Referrer-Policy': 'same-origin',
  };
}
