import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainRuleError } from '../../core/errors';
import { lockRow } from '../writes';
import { Account } from './account.entity';

/**
 * The plan's maximum of entered time: all shifts of the account together (running ones up to now)
 * may not exceed it. The account row is locked first, so concurrent writes cannot both fit into
 * the same remaining time; `secondsUsed` then reads what the account's shifts hold (the shifts
 * module knows how: `accountSecondsUsed`), without the shift the change replaces.
 *
 * @param seconds the duration the change will store for its shift
 * @param starting a new running shift: refused once the time is used up, even at zero length
 */
export async function assertTimeRoom(
  em: EntityManager,
  accountId: number,
  change: { seconds: number; starting?: boolean },
  secondsUsed: () => Promise<number>,
): Promise<void> {
  const account = await em.findOneOrFail(Account, accountId, { refresh: true });
  if (account.timeMaxSeconds === null) return;
  await lockRow(em, 'accounts', accountId);
  const total = (await secondsUsed()) + change.seconds;
  if (total > account.timeMaxSeconds || (change.starting && total >= account.timeMaxSeconds)) {
    throw new DomainRuleError(
      'MAX_TIME',
      'Account',
      `The plan allows ${Math.floor(account.timeMaxSeconds / 3600)} hours of entered time, and it is used up; upgrade the plan to enter more`,
    );
  }
}
