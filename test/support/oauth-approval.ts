import type { Credentials } from './test-app';

const unescapeHtml = (s: string) =>
  s.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));

/** The approval page's hidden fields, as a browser would submit them. */
export function hiddenFields(html: string): [string, string][] {
  return [...html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map((m) => [
    unescapeHtml(m[1]!),
    unescapeHtml(m[2]!),
  ]);
}

/**
 * Drives the approval page over HTTP as a person would: opens the authorize URL, fills in login and
 * password, presses Allow (or Deny). Answers the form's response, redirects not followed.
 */
export async function submitApproval(
  authorizeUrl: string,
  who: Credentials,
  decision: 'approve' | 'deny' = 'approve',
): Promise<Response> {
  const page = await fetch(authorizeUrl);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`approval page answered ${page.status}: ${html}`);
  const action = new URL('/oauth/authorize', authorizeUrl);
  const form = new URLSearchParams([
    ...hiddenFields(html),
    ['login', who.login],
    ['password', who.password],
    ['decision', decision],
  ]);
  return fetch(action, { method: 'POST', body: form, redirect: 'manual' });
}

/** A fetch answer's JSON body, untyped as tests read it. */
export async function readJson(res: Response): Promise<any> {
  return res.json();
}
