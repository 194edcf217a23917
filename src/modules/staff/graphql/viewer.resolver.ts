import {
  Arg,
  Ctx,
  Field,
  FieldResolver,
  Mutation,
  ObjectType,
  Query,
  Resolver,
  Root,
} from 'type-graphql';
import type { RequestContext } from '../../../core/request-context';
import { loadById } from '../../paging';
import { RowsSql } from '../../paging/graphql';
import { StaffType } from '../../common';
import type { MaybePromise } from '../../../core/loaders';
import { Account, updateAccount } from '../../accounts';
import { AccountInput } from '../../accounts/graphql';
import { Staff } from '../staff.entity';
import { accountOwner } from '../staff.loaders';

@ObjectType({ description: 'What updating the account changed.' })
export class UpdateAccountPayload {
  @Field(() => Account, { description: 'The account as it is now.' })
  account!: Account;
}

@ObjectType('Viewer', { description: 'The authenticated caller and their account.' })
export class ViewerNode {
  @Field(() => Staff, { description: 'The signed-in user.' }) staff!: Staff;
  @Field(() => Account, { description: "The signed-in user's account." }) account!: Account;
}

@Resolver(() => ViewerNode)
export class ViewerResolver {
  @Query(() => ViewerNode, {
    description: 'The caller (whose credentials signed the request) and their account.',
  })
  async viewer(@Ctx() ctx: RequestContext): Promise<ViewerNode> {
    const [staff, account] = await Promise.all([
      loadById(ctx, Staff, ctx.viewer.id),
      loadById(ctx, Account, ctx.viewer.accountId),
    ]);
    return { staff: staff!, account: account! };
  }

  @Mutation(() => UpdateAccountPayload, {
    description: "Changes the account's settings (owner only).",
  })
  async updateAccount(
    @Arg('input', () => AccountInput, {
      description: 'The settings to change; omitted ones keep their value.',
    })
    input: AccountInput,
    @Ctx() ctx: RequestContext,
  ): Promise<UpdateAccountPayload> {
    return { account: await updateAccount(ctx, input) };
  }
}

@Resolver(() => Account)
export class AccountResolver {
  @RowsSql(
    Account,
    () => Staff,
    (a, u) =>
      `${u.column('account')} = ${a.column('id')} and ${u.column('type')} = '${StaffType.OWNER}'`,
  )
  @FieldResolver(() => Staff, {
    description: 'The account owner, who sees and may do everything in the account.',
  })
  owner(@Root() account: Account, @Ctx() ctx: RequestContext): MaybePromise<Staff> {
    return accountOwner(ctx, account.id) as MaybePromise<Staff>;
  }
}
