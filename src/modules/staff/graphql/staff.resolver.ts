import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../../core/request-context';
import { Connection, LocatorArgs, PageArgs } from '../../common';
import { Staff } from '../staff.entity';
import { CreateStaffInput, StaffFilter, StaffOrder, UpdateStaffInput } from './staff.inputs';
import type { StaffService } from '../staff.service';

export const StaffConnection = Connection(Staff, 'StaffConnection');

@Resolver(() => Staff)
export class StaffResolver {
  constructor(private readonly service: StaffService) {}

  @Query(() => Staff, { description: 'One user of the account, by `id` or `legacyId`.' })
  staffMember(@Args() locator: LocatorArgs, @Ctx() ctx: RequestContext): Promise<Staff> {
    return this.service.get(ctx, locator);
  }

  @Query(() => StaffConnection, {
    name: 'staff',
    description: 'The users of the account, the caller included.',
  })
  staffList(
    @Args() page: PageArgs,
    @Arg('filter', () => StaffFilter, { nullable: true }) filter: StaffFilter | undefined,
    @Arg('order', () => [StaffOrder], { nullable: true })
    order: InstanceType<typeof StaffOrder>[] | undefined,
    @Ctx() ctx: RequestContext,
  ) {
    return this.service.list(ctx, filter, order, page);
  }

  @Mutation(() => Staff)
  createStaff(
    @Arg('input', () => CreateStaffInput) input: CreateStaffInput,
    @Ctx() ctx: RequestContext,
  ): Promise<Staff> {
    return this.service.create(ctx, input);
  }

  @Mutation(() => Staff, {
    description: 'Merges the given fields into the user; omitted fields are kept.',
  })
  updateStaff(
    @Args() locator: LocatorArgs,
    @Arg('input', () => UpdateStaffInput) input: UpdateStaffInput,
    @Ctx() ctx: RequestContext,
  ): Promise<Staff> {
    return this.service.update(ctx, locator, input);
  }

  @Mutation(() => Staff)
  deleteStaff(@Args() locator: LocatorArgs, @Ctx() ctx: RequestContext): Promise<Staff> {
    return this.service.delete(ctx, locator);
  }

  @Mutation(() => Staff)
  enableStaff(@Args() locator: LocatorArgs, @Ctx() ctx: RequestContext): Promise<Staff> {
    return this.service.setActive(ctx, locator, true);
  }

  @Mutation(() => Staff)
  disableStaff(@Args() locator: LocatorArgs, @Ctx() ctx: RequestContext): Promise<Staff> {
    return this.service.setActive(ctx, locator, false);
  }
}
