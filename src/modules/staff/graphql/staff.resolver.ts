import type { GraphQLResolveInfo } from 'graphql';
import {
  Arg,
  Args,
  Ctx,
  Info,
  FieldResolver,
  Int,
  Mutation,
  Query,
  Resolver,
  Root,
} from 'type-graphql';
import type { RequestContext } from '../../../core/request-context';
import { FILTER_DESCRIPTIONS, Connection, LocatorArgs, PageArgs, pageRequest } from '../../common';
import { mayReadCosts, mayReadMoney } from '../../accounts';
import { Staff } from '../staff.entity';
import { personalField } from '../staff.policy';
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
  staffList(
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
    return this.service.list(ctx, filter, order, pageRequest(page, info));
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

  // Personal fields, wherever a record is reached: null unless the caller may read the record
  // (staff.policy.ts). A staff member reaches colleagues and the owner through member lists and
  // the account; the root fields give them only their own record.
  @FieldResolver(() => String, {
    nullable: true,
    description:
      'The login; unique across the whole service. Null for a caller who may not read the user (a staff member reading a colleague or the owner), like `emailAddress` and `hourlyRateCents`.',
  })
  login(@Root() staff: Staff, @Ctx() ctx: RequestContext): string | null {
    return personalField(ctx.viewer, staff, 'login');
  }

  @FieldResolver(() => String, {
    nullable: true,
    description:
      'The e-mail address. Null for a caller who may not read the user (a staff member reading a colleague or the owner).',
  })
  emailAddress(@Root() staff: Staff, @Ctx() ctx: RequestContext): string | null {
    return personalField(ctx.viewer, staff, 'emailAddress');
  }

  @FieldResolver(() => Int, {
    nullable: true,
    description:
      "The user's hourly rate in cents, used for shifts on projects without a rate; null when not set, for a caller who may not read the user, or for a staff member while the account keeps money from staff (`Account.staffSeeMoney`).",
  })
  hourlyRateCents(@Root() staff: Staff, @Ctx() ctx: RequestContext): number | null {
    return mayReadMoney(ctx.viewer) ? personalField(ctx.viewer, staff, 'hourlyRateCents') : null;
  }

  @FieldResolver(() => Int, {
    nullable: true,
    description:
      "What an hour of the user's work costs the account, in cents: a report's `costCents`. Null when not set, or for a caller who may not read money (a staff member, themself included).",
  })
  costRateCents(@Root() staff: Staff, @Ctx() ctx: RequestContext): number | null {
    return mayReadCosts(ctx.viewer) ? staff.costRateCents : null;
  }
}
