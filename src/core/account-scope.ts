import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Which account the request being served acts for, for code far from the request that must share
 * a resource fairly between accounts: the database pool takes connections per account
 * (src/db/connection-lanes.ts). The HTTP layer opens a scope around every request; the context
 * factory names the account once the credentials are verified. Outside a request, or before
 * authentication, there is no account and nothing is shared out.
 */
interface Scope {
  accountId: number | undefined;
}

const scope = new AsyncLocalStorage<Scope>();

/** Runs `work` (and everything it starts) in a scope of its own, with no account yet. */
export function withAccountScope<T>(work: () => T): T {
  return scope.run({ accountId: undefined }, work);
}

/** Names the account of the current scope; does nothing outside one. */
export function enterAccount(accountId: number): void {
  const current = scope.getStore();
  if (current) current.accountId = accountId;
}

/** The account of the current scope, if a request has named one. */
export function currentAccountId(): number | undefined {
  return scope.getStore()?.accountId;
}
