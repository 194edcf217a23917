import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * `oauth_token_accounts`: every key a client presents (a 1.0a token key, the hash of a 2.0 access
 * or refresh token or of a code) with the account its grant is filed under (migration
 * 20261220000000-oauth-token-accounts). The providers read a key's account first and then the grant
 * in that account (on Citus, a router query to the worker that holds it), and file a grant's keys in
 * the statement that writes the grant. The grant tables are the truth: a key whose grant is gone
 * points to nothing, and is purged once it expires.
 */

/** Until when a key is kept: as long as what it opens. */
export type KeyExpiry = { readonly inSeconds: number } | { readonly at: Date } | 'never';

export interface FiledKey {
  readonly token: string;
  readonly accountId: number;
  readonly expires: KeyExpiry;
}

/** The account `token`'s grant is filed under, or undefined for a key no one was given. */
export async function accountOfToken(
  em: EntityManager,
  token: string,
): Promise<number | undefined> {
  const [row] = await em
    .getConnection()
    .execute<{ account_id: number }[]>(
      'select account_id from oauth_token_accounts where token = ?',
      [token],
      'all',
      em.getTransactionContext(),
    );
  return row?.account_id;
}

/**
 * Common table expressions that file `keys` and purge the expired ones, to lead the statement that
 * writes their grant (`with ${sql} insert into …`), so that both commit or neither; with their
 * parameters, which come first.
 */
export function fileKeys(keys: readonly FiledKey[]): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const rows = keys.map(({ token, accountId, expires }) => {
    params.push(token, accountId);
    if (expires === 'never') return '(?, ?, null)';
    if ('at' in expires) {
      params.push(expires.at);
      return '(?, ?, ?::timestamptz)';
    }
    params.push(expires.inSeconds);
    return '(?, ?, now() + make_interval(secs => ?))';
  });
  return {
    sql: `purged_keys as (delete from oauth_token_accounts where expires_at < now()),
          filed_keys as (insert into oauth_token_accounts (token, account_id, expires_at) values ${rows.join(', ')})`,
    params,
  };
}
