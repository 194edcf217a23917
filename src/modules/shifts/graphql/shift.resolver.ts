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
import { FILTER_DESCRIPTIONS, LocatorArgs, optionalLocator, PageArgs } from '../../common';
import { findPage, loadById, ReadsAhead } from '../../paging';
import { Connection, pageRequest, ReadsColumns, ReferenceSql } from '../../paging/graphql';
import { then, type MaybePromise } from '../../../core/loaders';
import { Activity } from '../../activities';
import { Project, projectVisibilitySql, visibleProject } from '../../projects';
import { Staff } from '../../staff';
import { readActivities, readProjects, readUsers, readVisibleProjects } from '../shift-relations';
import { Shift } from '../shift.entity';
import {
  CreateShiftInput,
  DeleteShiftInput,
  ShiftFilter,
  ShiftOrder,
  UpdateShiftInput,
} from './shift.inputs';
import { CreateShiftPayload, DeleteShiftPayload, UpdateShiftPayload } from './shift.payloads';
import type { ShiftService } from '../shift.service';

export const ShiftConnection = Connection(Shift, 'ShiftConnection');

@Resolver(() => Shift)
export class ShiftResolver {
  constructor(private readonly service: ShiftService) {}

  @Query(() => Shift, {
    nullable: true,
    description: 'One shift; optionally required to belong to a project.',
  })
  shift(
    @Args() locator: LocatorArgs,
    @Arg('projectId', () => ID, {
      nullable: true,
      description: 'Only if the shift is on this project (uuid); else NOT_FOUND.',
    })
    projectId: string | undefined,
    @Arg('projectLegacyId', () => Int, {
      nullable: true,
      description: 'Only if the shift is on this project (integer id); else NOT_FOUND.',
    })
    projectLegacyId: number | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<Shift> {
    return this.service.get(ctx, locator, optionalLocator(projectId, projectLegacyId));
  }

  @Query(() => ShiftConnection, {
    description:
      'Shifts the caller can see (the owner: all; a manager: their own and all on projects they see; a staff member: their own), optionally of one project.',
  })
  async shifts(
    @Args() page: PageArgs,
    @Arg('filter', () => ShiftFilter, {
      nullable: true,
      description: FILTER_DESCRIPTIONS.filterArg,
    })
    filter: ShiftFilter | undefined,
    @Arg('order', () => [ShiftOrder], { nullable: true, description: FILTER_DESCRIPTIONS.orderArg })
    order: InstanceType<typeof ShiftOrder>[] | undefined,
    @Arg('projectId', () => ID, {
      nullable: true,
      description: 'Only shifts on this project (uuid); NOT_FOUND if the caller cannot see it.',
    })
    projectId: string | undefined,
    @Arg('projectLegacyId', () => Int, {
      nullable: true,
      description:
        'Only shifts on this project (integer id); NOT_FOUND if the caller cannot see it.',
    })
    projectLegacyId: number | undefined,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    const source = await this.service.listSource(
      ctx,
      filter,
      order,
      optionalLocator(projectId, projectLegacyId),
    );
    return findPage(ctx, source, pageRequest(page, info));
  }

  @Mutation(() => CreateShiftPayload, {
    description:
      "Without `stop` the shift runs, and stops the user's other running shift at its start.",
  })
  async createShift(
    @Arg('input', () => CreateShiftInput, { description: 'The new shift.' })
    input: CreateShiftInput,
    @Ctx() ctx: RequestContext,
  ): Promise<CreateShiftPayload> {
    const { shift, stoppedShifts } = await this.service.create(ctx, input);
    return { shift, stoppedShifts, project: await visibleProject(ctx, shift.project.id) };
  }

  @Mutation(() => UpdateShiftPayload, {
    description: 'Merges the given fields; omitted fields are kept.',
  })
  async updateShift(
    @Arg('input', () => UpdateShiftInput, { description: 'The shift and its changes.' })
    { shift: locator, inProject, patch }: UpdateShiftInput,
    @Ctx() ctx: RequestContext,
  ): Promise<UpdateShiftPayload> {
    const { shift, stoppedShifts, previousProjectId } = await this.service.update(
      ctx,
      locator,
      patch,
      inProject ?? undefined,
    );
    const moved = previousProjectId !== shift.project.id;
    return {
      shift,
      stoppedShifts,
      project: await visibleProject(ctx, shift.project.id),
      previousProject: moved ? await visibleProject(ctx, previousProjectId) : null,
    };
  }

  @Mutation(() => DeleteShiftPayload, {
    description: 'Deletes a shift (its user, or an owner or manager).',
  })
  async deleteShift(
    @Arg('input', () => DeleteShiftInput, { description: 'The shift to delete.' })
    { shift: locator, inProject }: DeleteShiftInput,
    @Ctx() ctx: RequestContext,
  ): Promise<DeleteShiftPayload> {
    const shift = await this.service.delete(ctx, locator, inProject ?? undefined);
    return {
      deletedShiftId: shift.uuid,
      shift,
      project: await visibleProject(ctx, shift.project.id),
    };
  }

  // Synchronous once the request has read the rows (a list reads them ahead: @ReadsAhead), so
  // a list of a thousand shifts makes no promise per shift. Foreign keys guarantee the project,
  // the user and the activity exist; the project and its activity answer as `project(id:)` and
  // `activity(id:)` would: null when the caller may not see the project (a staff member's own
  // shift on a PRIVATE project). Their ids answer always: an id reveals nothing.
  @ReadsAhead(Shift, readVisibleProjects)
  @ReadsColumns(Shift)
  @ReferenceSql(Shift, 'project', projectVisibilitySql)
  @FieldResolver(() => Project, {
    nullable: true,
    description:
      'The project, when the caller may see it; `projectId` names it whatever its visibility.',
  })
  project(@Root() shift: Shift, @Ctx() ctx: RequestContext): MaybePromise<Project | null> {
    return visibleProject(ctx, shift.project.id);
  }

  @ReadsAhead(Shift, readProjects)
  @ReadsColumns(Shift)
  @FieldResolver(() => ID, { description: "The uuid of the shift's project." })
  projectId(@Root() shift: Shift, @Ctx() ctx: RequestContext): MaybePromise<string> {
    return then(loadById(ctx, Project, shift.project.id), (project) => project!.uuid);
  }

  @ReadsAhead(Shift, readUsers)
  @ReadsColumns(Shift)
  @ReferenceSql(Shift, 'user')
  @FieldResolver(() => Staff, { description: 'The user who worked.' })
  user(@Root() shift: Shift, @Ctx() ctx: RequestContext): MaybePromise<Staff> {
    return loadById(ctx, Staff, shift.user.id) as MaybePromise<Staff>;
  }

  @ReadsAhead(Shift, readVisibleProjects, readActivities)
  @ReadsColumns(Shift)
  @ReferenceSql(Shift, 'activity', (ctx, knex, id) =>
    projectVisibilitySql(
      ctx,
      knex,
      `(select project_id from activities where account_id = ${ctx.viewer.accountId} and id = ${id})`,
    ),
  )
  @FieldResolver(() => Activity, {
    nullable: true,
    description: 'The activity, when the shift names one and the caller may see its project.',
  })
  activity(@Root() shift: Shift, @Ctx() ctx: RequestContext): MaybePromise<Activity | null> {
    const activity = shift.activity;
    if (!activity) return null;
    return then(visibleProject(ctx, shift.project.id), (project) =>
      project ? loadById(ctx, Activity, activity.id) : null,
    );
  }

  @ReadsAhead(Shift, readActivities)
  @ReadsColumns(Shift)
  @FieldResolver(() => ID, { nullable: true, description: "The uuid of the shift's activity." })
  activityId(@Root() shift: Shift, @Ctx() ctx: RequestContext): MaybePromise<string | null> {
    if (!shift.activity) return null;
    return then(loadById(ctx, Activity, shift.activity.id), (activity) => activity!.uuid);
  }
}
