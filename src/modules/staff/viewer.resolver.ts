import { Arg, Ctx, Field, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../graphql/context';
import { loadById } from '../../graphql/entity-loaders';
import { Account } from '../accounts/account.entity';
import { AccountInput, updateAccount } from '../accounts/account-settings';
import { Staff } from './staff.entity';

@ObjectType({ description: 'The authenticated caller and their account.' })
export class Viewer {
  @Field(() => Staff) staff!: Staff;
  @Field(() => Account) account!: Account;
}

@Resolver(() => Viewer)
export class ViewerResolver {
  @Query(() => Viewer)
  async viewer(@Ctx() ctx: RequestContext): Promise<Viewer> {
    const [staff, account] = await Promise.all([loadById(ctx, Staff, ctx.viewer.id), loadById(ctx, Account, ctx.viewer.accountId)]);
    return { staff: staff!, account: account! };
  }

  @Mutation(() => Account, { description: "Changes the account's settings (owner only)." })
  updateAccount(@Arg('input', () => AccountInput) input: AccountInput, @Ctx() ctx: RequestContext): Promise<Account> {
    return updateAccount(ctx, input);
  }
}
