import { z } from 'zod';
import type { RequestContext } from '../../core/request-context';
import { assignDefined, fields, inTransaction, validate } from '../writes';
import { Account } from './account.entity';
import { assertMayChangeAccount } from './account.policy';

const schema = z.object({
  name: fields.requiredText().optional(),
  nearlyOverdueRatio: z
    .number()
    .gt(0, 'must be more than 0')
    .max(1, 'must be at most 1')
    .optional(),
  currency: fields.currency().optional(),
  staffSeeMoney: z.boolean().optional(),
});

export type AccountChanges = z.input<typeof schema>;

/** The owner's settings of the account. */
export async function updateAccount(ctx: RequestContext, input: AccountChanges): Promise<Account> {
  assertMayChangeAccount(ctx.viewer);
  const data = validate('Account', schema, input);
  return inTransaction(ctx, async (tx) => {
    const account = await tx.em.findOneOrFail(Account, tx.viewer.accountId);
    assignDefined(account, data);
    await tx.em.flush();
    return account;
  });
}
