import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainRuleError } from '../../core/errors';
import { Account } from '../accounts';
import { StaffType } from '../common';
import { lockRow } from '../writes';
import { Staff } from './staff.entity';

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
