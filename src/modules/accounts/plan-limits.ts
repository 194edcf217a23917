import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainRuleError } from '../../core/errors';
import { lockRow } from '../common';
import { Account } from './account.entity';

/**
 * The plan's maximum of entered time: all shifts of the account together (running ones up to now)
 * may not exceed it. The account row is locked first, so concurrent writes cannot both fit into
 * the same remaining time. The time used is the sums the database keeps per project and user
 * (`project_user_totals`, exact numeric seconds) and the account's running shifts, not a sum over
 * every shift: a write costs the same on an account with a million shifts. The replaced shift
 * counts as much in both as it is stored now, so that is what is taken off.
 *
 * @param seconds the duration the change will store for its shift
 * @param replacing the id of the shift whose stored duration the change replaces (updates)
 * @param starting a new running shift: refused once the time is used up, even at zero length
 */
export async function assertTimeRoom(
  em: EntityManager,
  accountId: number,
  change: { seconds: number; replacing?: number | undefined; starting?: boolean },
  now: Date,
): Promise<void> {
  const account = await em.findOneOrFail(Account, accountId, { refresh: true });
  if (account.timeMaxSeconds === null) return;
  await lockRow(em, 'accounts', accountId);
  const [row] = await em.getConnection().execute<{ used: string }[]>(
    `select ((select coalesce(sum(stopped_seconds), 0) from project_user_totals where account_id = ?)
          + (select coalesce(sum(greatest(0, extract(epoch from (?::timestamptz - start)))), 0)
               from shifts where account_id = ? and stop is null)
          - (select coalesce(sum(greatest(0, extract(epoch from (coalesce(stop, ?::timestamptz) - start)))), 0)
               from shifts where account_id = ? and id = ?))::bigint
          as used`,
    [accountId, now, accountId, now, accountId, change.replacing ?? 0],
    'all',
    em.getTransactionContext(),
  );
  const total = Number(row?.used ?? 0) + change.seconds;
  if (total > account.timeMaxSeconds || (change.starting && total >= account.timeMaxSeconds)) {
    throw new DomainRuleError(
      'MAX_TIME',
      'Account',
      `The plan allows ${Math.floor(account.timeMaxSeconds / 3600)} hours of entered time, and it is used up; upgrade the plan to enter more`,
    );
  }
}
