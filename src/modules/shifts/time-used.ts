import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Seconds of every shift of the account, running ones up to `now`, without the stored time of
 * shift `excluding` (the one a change replaces). Read as the project totals are
 * (project-time.loaders.ts): the sums the database keeps per project and user
 * (`project_user_totals`, exact numeric seconds) and the running shifts, not a sum over every
 * shift, so the plan's time check costs the same on an account with a million shifts. The
 * excluded shift counts in those parts as it is stored now, so that is what is taken off.
 */
export async function accountSecondsUsed(
  em: EntityManager,
  accountId: number,
  now: Date,
  excluding?: number,
): Promise<number> {
  const [row] = await em.getConnection().execute<{ used: string }[]>(
    `select ((select coalesce(sum(stopped_seconds), 0) from project_user_totals where account_id = ?)
          + (select coalesce(sum(greatest(0, extract(epoch from (?::timestamptz - start)))), 0)
               from shifts where account_id = ? and stop is null)
          - (select coalesce(sum(greatest(0, extract(epoch from (coalesce(stop, ?::timestamptz) - start)))), 0)
               from shifts where account_id = ? and id = ?))::bigint
          as used`,
    [accountId, now, accountId, now, accountId, excluding ?? 0],
    'all',
    em.getTransactionContext(),
  );
  return Number(row?.used ?? 0);
}
