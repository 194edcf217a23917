import { PermissionDeniedError } from '../../core/errors';
import { isOwner, type Viewer } from '../../core/viewer';

/** What the rule below reads of an application. */
export interface ClientAccounts {
  /** The account it is filed under: the one whose owner registered it. */
  readonly accountId: number;
  /** True for the operator's applications (`oauth client create --every-account`). */
  readonly servesEveryAccount: boolean;
}

/**
 * Whether a user of the account `accountId` may authorise the application. An account's own
 * application serves that account's users only: its owner chose its name and its redirect
 * addresses, which users of other accounts have no reason to trust. The operator's serve every
 * account's. The approval page applies this once the user has signed in, and answers as it does for
 * an application that does not exist; the database refuses any grant that breaks it (the trigger
 * `oauth_grant_within_client_accounts`), which is what the token endpoint relies on.
 */
export function servesAccount(client: ClientAccounts, accountId: number): boolean {
  return client.servesEveryAccount || client.accountId === accountId;
}

/**
 * Who registers, lists and revokes the account's applications: the owner alone, who answers for
 * the names and redirect addresses the account's users are asked to trust. What they refuse, in
 * the words each act's refusal has always used.
 */
export function mayManageOAuthClients(viewer: Viewer): boolean {
  return isOwner(viewer);
}

const REFUSALS = {
  create: 'Create denied: only the account owner registers applications',
  read: 'Read denied: only the account owner sees its applications',
  delete: 'Delete denied: only the account owner revokes applications',
} as const;

export function assertMayManageOAuthClients(viewer: Viewer, act: keyof typeof REFUSALS): void {
  if (!mayManageOAuthClients(viewer))
    throw new PermissionDeniedError(act, 'OAuthClient', REFUSALS[act]);
}
