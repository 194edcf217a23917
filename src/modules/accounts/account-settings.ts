import { Field, Float, InputType } from 'type-graphql';
import { z } from 'zod';
import { isOwner } from '../../core/viewer';
import { PermissionDeniedError } from '../../core/errors';
import type { RequestContext } from '../../core/request-context';
import { assignDefined, fields, inTransaction, validate } from '../common/service-support';
import { Account } from './account.entity';

@InputType({
  description: 'Omitted fields keep their value. Plan limits are set by the operator, not here.',
})
export class AccountInput {
  @Field(() => String, { nullable: true }) name?: string;
  @Field(() => Float, {
    nullable: true,
    description: 'Share of a time limit after which a project is nearly overdue (0 < r ≤ 1).',
  })
  nearlyOverdueRatio?: number;
}

const schema = z.object({
  name: fields.requiredText().optional(),
  nearlyOverdueRatio: z
    .number()
    .gt(0, 'must be more than 0')
    .max(1, 'must be at most 1')
    .optional(),
});

/** The owner's settings of the account. */
export async function updateAccount(ctx: RequestContext, input: AccountInput): Promise<Account> {
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
