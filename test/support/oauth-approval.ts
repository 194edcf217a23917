import { StaffType } from '../../src/core/viewer';
import { contextForViewer } from '../../src/graphql/context';
import { OAuthClientService, type RegisterOAuthClientInput } from '../../src/modules/oauth';
import type { Credentials, TestApp } from './test-app';

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

/** An account's owner as `TestApp.newAccount` answers it. */
interface AccountOwner extends Credentials {
  ownerId: string;
  ownerLegacyId: number;
  accountId: number;
}

/**
 * Registers an application for the users of every account, as the operator's
 * `timetrack oauth client create --owner <owner> --every-account` does (GraphQL cannot), filed under
 * `owner`'s account. Answers its key and secret.
 */
export async function registerForEveryAccount(
  t: TestApp,
  owner: AccountOwner,
  input: RegisterOAuthClientInput,
): Promise<{ key: string; secret: string | null }> {
  const ctx = contextForViewer(t.db.orm, t.config, {
    id: owner.ownerLegacyId,
    uuid: owner.ownerId,
    login: owner.login,
    type: StaffType.OWNER,
    accountId: owner.accountId,
    staffSeeMoney: false,
  });
  const { client, secret } = await new OAuthClientService().registerForEveryAccount(ctx, input);
  return { key: client.clientKey, secret };
}
