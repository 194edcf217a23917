import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainRuleError } from '../../core/errors';
import { StaffType } from '../common/enums';
import { lockRow } from '../common/service-support';
import { Staff } from '../staff/staff.entity';
import { Account } from './account.entity';

/**
 * The staff maximum of the account's plan counts active users other than the owner. The account
 * row is locked first, so concurrent creates cannot both see room for one more. Returns the
 * account: the caller is activating a user, which on a paid plan asks the owner to confirm
 * (confirmation-email.ts).
 */
export async function assertStaffRoom(
  em: EntityManager,
  accountId: number,
  adding: number,
): Promise<Account> {
  await lockRow(em, 'accounts', accountId);
  const account = await em.findOneOrFail(Account, accountId, { refresh: true });
  if (account.staffMax === null) return account;
  if (account.staffMax === 0) {
    throw new DomainRuleError(
      'STAFF_NOT_ALLOWED',
      'Staff',
      'This account does not allow staff members',
    );
  }
  const active = await em.count(Staff, { active: true, type: { $ne: StaffType.OWNER } });
  if (active + adding > account.staffMax) {
    throw new DomainRuleError(
      'PAYMENT_REQUIRED',
      'Staff',
      `The plan allows ${account.staffMax} active staff members; upgrade the plan to add more`,
    );
  }
  return account;
}

/**
 * The plan's maximum of entered time: all shifts of the account together (running ones up to now)
 * may not exceed it. The account row is locked first, so concurrent writes cannot both fit into
 * the same remaining time.
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
    `select coalesce(sum(greatest(0, extract(epoch from (coalesce(stop, ?::timestamptz) - start)))), 0)::bigint as used
       from shifts where account_id = ? and id <> ?`,
    [now, accountId, change.replacing ?? 0],
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
