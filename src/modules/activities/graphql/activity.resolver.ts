import {
  Arg,
  Args,
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
import {
  Connection,
  FILTER_DESCRIPTIONS,
  loadById,
  LocatorArgs,
  optionalLocator,
  PageArgs,
} from '../../common';
import type { MaybePromise } from '../../../core/loaders';
import { Project } from '../../projects';
import { Activity } from '../activity.entity';
import {
  ActivityFilter,
  ActivityInput,
  ActivityOrder,
  CreateActivityInput,
} from './activity.inputs';
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
  activities(
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
  ) {
    return this.service.list(ctx, filter, order, page, optionalLocator(projectId, projectLegacyId));
  }

  @Mutation(() => Activity, {
    description: 'Adds an activity to a project (owners and managers).',
  })
  createActivity(
    @Arg('input', () => CreateActivityInput, { description: 'The new activity.' })
    input: CreateActivityInput,
    @Ctx() ctx: RequestContext,
  ): Promise<Activity> {
    return this.service.create(ctx, input);
  }

  @Mutation(() => Activity, { description: 'Renames an activity (owners and managers).' })
  updateActivity(
    @Args() locator: LocatorArgs,
    @Arg('input', () => ActivityInput, {
      description: 'The fields to change; omitted ones keep their value.',
    })
    input: ActivityInput,
    @Arg('projectId', () => ID, {
      nullable: true,
      description: 'Only if it belongs to this project.',
    })
    projectId: string | undefined,
    @Arg('projectLegacyId', () => Int, {
      nullable: true,
      description: 'Only if it belongs to this project (integer id).',
    })
    projectLegacyId: number | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<Activity> {
    return this.service.update(ctx, locator, input, optionalLocator(projectId, projectLegacyId));
  }

  @Mutation(() => Activity, {
    description: 'Deletes the activity; its shifts keep their time and lose the activity.',
  })
  deleteActivity(
    @Args() locator: LocatorArgs,
    @Arg('projectId', () => ID, {
      nullable: true,
      description: 'Only if it belongs to this project.',
    })
    projectId: string | undefined,
    @Arg('projectLegacyId', () => Int, {
      nullable: true,
      description: 'Only if it belongs to this project (integer id).',
    })
    projectLegacyId: number | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<Activity> {
    return this.service.delete(ctx, locator, optionalLocator(projectId, projectLegacyId));
  }

  @FieldResolver(() => Project, {
    description: 'The project the activity belongs to (always visible where the activity is).',
  })
  project(@Root() activity: Activity, @Ctx() ctx: RequestContext): MaybePromise<Project> {
    return loadById(ctx, Project, activity.project.id) as MaybePromise<Project>;
  }
}
