import { z } from 'zod';
import { isOwner } from '../../core/viewer';
import { PermissionDeniedError } from '../../core/errors';
import type { RequestContext } from '../../core/request-context';
import { assignDefined, fields, inTransaction, validate } from '../common';
import { Account } from './account.entity';

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
  if (!isOwner(ctx.viewer))
    throw new PermissionDeniedError(
      'update',
      'Account',
      'Update denied: only the owner may change the account',
    );
  const data = validate('Account', schema, input);
  return inTransaction(ctx, async (tx) => {
    const account = await tx.em.findOneOrFail(Account, tx.viewer.accountId);
    assignDefined(account, data);
    await tx.em.flush();
    return account;
  });
}
