import type { GraphQLResolveInfo } from 'graphql';
import {
  Arg,
  Args,
  Info,
  Ctx,
  FieldResolver,
  ID,
  Int,
  Mutation,
  Query,
  Resolver,
  Root,
} from 'type-graphql';
import type { RequestContext } from '../../../core/request-context';
import { FILTER_DESCRIPTIONS, LocatorArgs, optionalLocator, PageArgs } from '../../common';
import { findPage, loadById } from '../../paging';
import { Connection, pageRequest, ReferenceSql } from '../../paging/graphql';
import type { MaybePromise } from '../../../core/loaders';
import { Project } from '../../projects';
import { Activity } from '../activity.entity';
import {
  ActivityFilter,
  ActivityOrder,
  CreateActivityInput,
  DeleteActivityInput,
  UpdateActivityInput,
} from './activity.inputs';
import {
  CreateActivityPayload,
  DeleteActivityPayload,
  UpdateActivityPayload,
} from './activity.payloads';
import type { ActivityService } from '../activity.service';

export const ActivityConnection = Connection(Activity, 'ActivityConnection');

@Resolver(() => Activity)
export class ActivityResolver {
  constructor(private readonly service: ActivityService) {}

  @Query(() => Activity, {
    nullable: true,
    description: 'One activity; optionally required to belong to a project.',
  })
  activity(
    @Args() locator: LocatorArgs,
    @Arg('projectId', () => ID, {
      nullable: true,
      description: 'Only if the activity belongs to this project (uuid); else NOT_FOUND.',
    })
    projectId: string | undefined,
    @Arg('projectLegacyId', () => Int, {
      nullable: true,
      description: 'Only if the activity belongs to this project (integer id); else NOT_FOUND.',
    })
    projectLegacyId: number | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<Activity> {
    return this.service.get(ctx, locator, optionalLocator(projectId, projectLegacyId));
  }

  @Query(() => ActivityConnection, {
    description: 'Activities of the projects the caller can see, optionally of one project.',
  })
  async activities(
    @Args() page: PageArgs,
    @Arg('filter', () => ActivityFilter, {
      nullable: true,
      description: FILTER_DESCRIPTIONS.filterArg,
    })
    filter: ActivityFilter | undefined,
    @Arg('order', () => [ActivityOrder], {
      nullable: true,
      description: FILTER_DESCRIPTIONS.orderArg,
    })
    order: InstanceType<typeof ActivityOrder>[] | undefined,
    @Arg('projectId', () => ID, {
      nullable: true,
      description: 'Only activities of this project (uuid); NOT_FOUND if the caller cannot see it.',
    })
    projectId: string | undefined,
    @Arg('projectLegacyId', () => Int, {
      nullable: true,
      description:
        'Only activities of this project (integer id); NOT_FOUND if the caller cannot see it.',
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

  @Mutation(() => CreateActivityPayload, {
    description: 'Adds an activity to a project (owners and managers).',
  })
  async createActivity(
    @Arg('input', () => CreateActivityInput, { description: 'The new activity.' })
    input: CreateActivityInput,
    @Ctx() ctx: RequestContext,
  ): Promise<CreateActivityPayload> {
    return { activity: await this.service.create(ctx, input) };
  }

  @Mutation(() => UpdateActivityPayload, {
    description: 'Renames an activity (owners and managers).',
  })
  async updateActivity(
    @Arg('input', () => UpdateActivityInput, { description: 'The activity and its changes.' })
    { activity, inProject, patch }: UpdateActivityInput,
    @Ctx() ctx: RequestContext,
  ): Promise<UpdateActivityPayload> {
    return { activity: await this.service.update(ctx, activity, patch, inProject ?? undefined) };
  }

  @Mutation(() => DeleteActivityPayload, {
    description: 'Deletes the activity; its shifts keep their time and lose the activity.',
  })
  async deleteActivity(
    @Arg('input', () => DeleteActivityInput, { description: 'The activity to delete.' })
    { activity, inProject }: DeleteActivityInput,
    @Ctx() ctx: RequestContext,
  ): Promise<DeleteActivityPayload> {
    const { activity: deleted, shifts } = await this.service.delete(
      ctx,
      activity,
      inProject ?? undefined,
    );
    return {
      deletedActivityId: deleted.uuid,
      activity: deleted,
      updatedShiftCount: shifts.count,
      shifts,
    };
  }

  @ReferenceSql(Activity, 'project')
  @FieldResolver(() => Project, {
    description: 'The project the activity belongs to (always visible where the activity is).',
  })
  project(@Root() activity: Activity, @Ctx() ctx: RequestContext): MaybePromise<Project> {
    return loadById(ctx, Project, activity.project.id) as MaybePromise<Project>;
  }
}
