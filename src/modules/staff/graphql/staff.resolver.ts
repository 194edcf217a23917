import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, Info, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../../core/request-context';
import { FILTER_DESCRIPTIONS, LocatorArgs, PageArgs } from '../../common';
import { findPage } from '../../paging';
import { Connection, pageRequest } from '../../paging/graphql';
import { Staff } from '../staff.entity';
import {
  CreateStaffInput,
  DeleteStaffInput,
  DisableStaffInput,
  EnableStaffInput,
  StaffFilter,
  StaffOrder,
  UpdateStaffInput,
  type StaffActionInput,
} from './staff.inputs';
import {
  CreateStaffPayload,
  DeleteStaffPayload,
  DisableStaffPayload,
  EnableStaffPayload,
  UpdateStaffPayload,
  type StaffPayload,
} from './staff.payloads';
import type { StaffService } from '../staff.service';

export const StaffConnection = Connection(Staff, 'StaffConnection');

@Resolver(() => Staff)
export class StaffResolver {
  constructor(private readonly service: StaffService) {}

  @Query(() => Staff, {
    nullable: true,
    description:
      'One user of the account, by `id` or `legacyId`; a staff member may read only themself (READ_DENIED otherwise).',
  })
  staffMember(@Args() locator: LocatorArgs, @Ctx() ctx: RequestContext): Promise<Staff> {
    return this.service.get(ctx, locator);
  }

  @Query(() => StaffConnection, {
    name: 'staff',
    description:
      'The users of the account, the caller included; a staff member gets only their own record.',
  })
  async staffList(
    @Args() page: PageArgs,
    @Arg('filter', () => StaffFilter, {
      nullable: true,
      description: FILTER_DESCRIPTIONS.filterArg,
    })
    filter: StaffFilter | undefined,
    @Arg('order', () => [StaffOrder], { nullable: true, description: FILTER_DESCRIPTIONS.orderArg })
    order: InstanceType<typeof StaffOrder>[] | undefined,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return findPage(
      ctx,
      await this.service.listSource(ctx, filter, order),
      pageRequest(page, info),
    );
  }

  @Mutation(() => CreateStaffPayload, {
    description: "Adds a user to the account (owners and managers; 402 over the plan's maximum).",
  })
  async createStaff(
    @Arg('input', () => CreateStaffInput, { description: 'The new user.' }) input: CreateStaffInput,
    @Ctx() ctx: RequestContext,
  ): Promise<StaffPayload> {
    return { staff: await this.service.create(ctx, input) };
  }

  @Mutation(() => UpdateStaffPayload, {
    description: 'Merges the given fields into the user; omitted fields are kept.',
  })
  async updateStaff(
    @Arg('input', () => UpdateStaffInput, { description: 'The user and the changes.' })
    { staff, patch }: UpdateStaffInput,
    @Ctx() ctx: RequestContext,
  ): Promise<StaffPayload> {
    return { staff: await this.service.update(ctx, staff, patch) };
  }

  @Mutation(() => DeleteStaffPayload, { description: 'Deletes a user (owners and managers).' })
  async deleteStaff(
    @Arg('input', () => DeleteStaffInput, { description: 'The user to delete.' })
    { staff }: StaffActionInput,
    @Ctx() ctx: RequestContext,
  ): Promise<DeleteStaffPayload> {
    const { staff: deleted, cascade } = await this.service.delete(ctx, staff);
    return {
      deletedStaffId: deleted.uuid,
      staff: deleted,
      deletedShiftIds: cascade.shifts.ids,
      deletedShiftCount: cascade.shifts.count,
      updatedProjectCount: cascade.touchedProjects.count,
      updatedCompanyCount: cascade.touchedCompanies.count,
      cascade,
    };
  }

  @Mutation(() => EnableStaffPayload, {
    description: "Lets a user sign in again (owners and managers; 402 over the plan's maximum).",
  })
  async enableStaff(
    @Arg('input', () => EnableStaffInput, { description: 'The user to enable.' })
    { staff }: StaffActionInput,
    @Ctx() ctx: RequestContext,
  ): Promise<StaffPayload> {
    return { staff: await this.service.setActive(ctx, staff, true) };
  }

  @Mutation(() => DisableStaffPayload, {
    description: 'Stops a user signing in; their data stays (owners and managers).',
  })
  async disableStaff(
    @Arg('input', () => DisableStaffInput, { description: 'The user to disable.' })
    { staff }: StaffActionInput,
    @Ctx() ctx: RequestContext,
  ): Promise<StaffPayload> {
    return { staff: await this.service.setActive(ctx, staff, false) };
  }
}
