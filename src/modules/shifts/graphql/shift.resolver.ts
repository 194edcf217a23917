import type { GraphQLResolveInfo } from 'graphql';
import {
  Arg,
  Args,
  Ctx,
  FieldResolver,
  ID,
  Info,
  Int,
  Mutation,
  Query,
  Resolver,
  Root,
} from 'type-graphql';
import type { RequestContext } from '../../../core/request-context';
import {
  Connection,
  loadById,
  selectedFields,
  LocatorArgs,
  optionalLocator,
  PageArgs,
} from '../../common';
import type { MaybePromise } from '../../../core/loaders';
import { Activity } from '../../activities';
import { Project } from '../../projects';
import { Staff } from '../../staff';
import { primeShiftRelations } from '../shift-relations';
import { Shift } from '../shift.entity';
import { CreateShiftInput, ShiftFilter, ShiftInput, ShiftOrder } from './shift.inputs';
import type { ShiftService } from '../shift.service';

export const ShiftConnection = Connection(Shift, 'ShiftConnection');

@Resolver(() => Shift)
export class ShiftResolver {
  constructor(private readonly service: ShiftService) {}

  @Query(() => Shift, { description: 'One shift; optionally required to belong to a project.' })
  shift(
    @Args() locator: LocatorArgs,
    @Arg('projectId', () => ID, { nullable: true }) projectId: string | undefined,
    @Arg('projectLegacyId', () => Int, { nullable: true }) projectLegacyId: number | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<Shift> {
    return this.service.get(ctx, locator, optionalLocator(projectId, projectLegacyId));
  }

  @Query(() => ShiftConnection, {
    description: 'Shifts the caller can see (staff members: their own), optionally of one project.',
  })
  async shifts(
    @Args() page: PageArgs,
    @Arg('filter', () => ShiftFilter, { nullable: true }) filter: ShiftFilter | undefined,
    @Arg('order', () => [ShiftOrder], { nullable: true })
    order: InstanceType<typeof ShiftOrder>[] | undefined,
    @Arg('projectId', () => ID, { nullable: true }) projectId: string | undefined,
    @Arg('projectLegacyId', () => Int, { nullable: true }) projectLegacyId: number | undefined,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    const countTotal = selectedFields(info).has('totalCount');
    const connection = await this.service.list(
      ctx,
      filter,
      order,
      { ...page, countTotal },
      optionalLocator(projectId, projectLegacyId),
    );
    await primeShiftRelations(ctx, connection.nodes, selectedFields(info, 'nodes'));
    return connection;
  }

  @Mutation(() => Shift, {
    description:
      "Without `stop` the shift runs, and stops the user's other running shift at its start.",
  })
  createShift(
    @Arg('input', () => CreateShiftInput) input: CreateShiftInput,
    @Ctx() ctx: RequestContext,
  ): Promise<Shift> {
    return this.service.create(ctx, input);
  }

  @Mutation(() => Shift, { description: 'Merges the given fields; omitted fields are kept.' })
  updateShift(
    @Args() locator: LocatorArgs,
    @Arg('input', () => ShiftInput) input: ShiftInput,
    @Arg('projectId', () => ID, {
      nullable: true,
      description: 'Only if it belongs to this project.',
    })
    projectId: string | undefined,
    @Arg('projectLegacyId', () => Int, { nullable: true }) projectLegacyId: number | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<Shift> {
    return this.service.update(ctx, locator, input, optionalLocator(projectId, projectLegacyId));
  }

  @Mutation(() => Shift)
  deleteShift(
    @Args() locator: LocatorArgs,
    @Arg('projectId', () => ID, {
      nullable: true,
      description: 'Only if it belongs to this project.',
    })
    projectId: string | undefined,
    @Arg('projectLegacyId', () => Int, { nullable: true }) projectLegacyId: number | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<Shift> {
    return this.service.delete(ctx, locator, optionalLocator(projectId, projectLegacyId));
  }

  // Synchronous once the request has read the row: a list of a thousand shifts then makes no
  // promise per shift. Foreign keys guarantee the project and the user exist.
  @FieldResolver(() => Project)
  project(@Root() shift: Shift, @Ctx() ctx: RequestContext): MaybePromise<Project> {
    return loadById(ctx, Project, shift.project.id) as MaybePromise<Project>;
  }

  @FieldResolver(() => Staff)
  user(@Root() shift: Shift, @Ctx() ctx: RequestContext): MaybePromise<Staff> {
    return loadById(ctx, Staff, shift.user.id) as MaybePromise<Staff>;
  }

  @FieldResolver(() => Activity, { nullable: true })
  activity(@Root() shift: Shift, @Ctx() ctx: RequestContext): MaybePromise<Activity | null> {
    return shift.activity ? loadById(ctx, Activity, shift.activity.id) : null;
  }
}
