import { SafeIntResolver } from 'graphql-scalars';
import { DateTimeISOResolver } from '../common/graphql/scalars';
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
import type { RequestContext } from '../../core/request-context';
import { Connection } from '../common/graphql/connection';
import { loadById } from '../common/entity-loaders';
import { then, type MaybePromise } from '../../core/loaders';
import { selectedFields } from '../common/graphql/selection';
import { LocatorArgs, optionalLocator, PageArgs } from '../common/graphql/list-args';
import { Account } from '../accounts/account.entity';
import { Activity } from '../activities/activity.entity';
import { Company } from '../companies/company.entity';
import { visibleCompany } from '../companies/company.loaders';
import { Shift } from '../shifts/shift.entity';
import { ShiftFilter, ShiftOrder } from '../shifts/shift.inputs';
import { projectShifts } from '../shifts/shift.loaders';
import { ShiftConnection } from '../shifts/shift.resolver';
import { Staff } from '../staff/staff.entity';
import { Project } from './project.entity';
import {
  CreateProjectInput,
  ProjectFilter,
  ProjectInput,
  ProjectOrder,
  PunchInInput,
} from './project.inputs';
import {
  primeProjectFields,
  projectActivities,
  projectTotals,
  projectUsers,
  viewerRunningShift,
} from './project.loaders';
import type { ProjectService } from './project.service';
import type { PunchService } from './punch.service';
import { listComplexity } from '../common/graphql/complexity';

export const ProjectConnection = Connection(Project, 'ProjectConnection');

@Resolver(() => Project)
export class ProjectResolver {
  constructor(
    private readonly service: ProjectService,
    private readonly punches: PunchService,
  ) {}

  @Query(() => Project, {
    description: 'One project, by `id` or `legacyId`; optionally required to belong to a company.',
  })
  project(
    @Args() locator: LocatorArgs,
    @Arg('companyId', () => ID, { nullable: true }) companyId: string | undefined,
    @Arg('companyLegacyId', () => Int, { nullable: true }) companyLegacyId: number | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<Project> {
    return this.service.get(ctx, locator, optionalLocator(companyId, companyLegacyId));
  }

  @Query(() => ProjectConnection, {
    description: 'The projects the caller can see, optionally of one company.',
  })
  async projects(
    @Args() page: PageArgs,
    @Arg('filter', () => ProjectFilter, { nullable: true }) filter: ProjectFilter | undefined,
    @Arg('order', () => [ProjectOrder], { nullable: true })
    order: InstanceType<typeof ProjectOrder>[] | undefined,
    @Arg('companyId', () => ID, { nullable: true }) companyId: string | undefined,
    @Arg('companyLegacyId', () => Int, { nullable: true }) companyLegacyId: number | undefined,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    const connection = await this.service.list(
      ctx,
      filter,
      order,
      page,
      optionalLocator(companyId, companyLegacyId),
    );
    await primeProjectFields(ctx, connection.nodes, selectedFields(info, 'nodes'));
    return connection;
  }

  @Mutation(() => Project)
  createProject(
    @Arg('input', () => CreateProjectInput) input: CreateProjectInput,
    @Ctx() ctx: RequestContext,
  ): Promise<Project> {
    return this.service.create(ctx, input);
  }

  @Mutation(() => Project, { description: 'Merges the given fields; omitted fields are kept.' })
  updateProject(
    @Args() locator: LocatorArgs,
    @Arg('input', () => ProjectInput) input: ProjectInput,
    @Arg('companyId', () => ID, {
      nullable: true,
      description: 'Only if the project belongs to this company.',
    })
    companyId: string | undefined,
    @Arg('companyLegacyId', () => Int, { nullable: true }) companyLegacyId: number | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<Project> {
    return this.service.update(ctx, locator, input, optionalLocator(companyId, companyLegacyId));
  }

  @Mutation(() => Project, { description: 'Deletes the project with its activities and shifts.' })
  deleteProject(
    @Args() locator: LocatorArgs,
    @Arg('companyId', () => ID, {
      nullable: true,
      description: 'Only if the project belongs to this company.',
    })
    companyId: string | undefined,
    @Arg('companyLegacyId', () => Int, { nullable: true }) companyLegacyId: number | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<Project> {
    return this.service.delete(ctx, locator, optionalLocator(companyId, companyLegacyId));
  }

  @Mutation(() => Project, {
    description:
      "Starts a running shift for the caller, stopping the caller's other running shift.",
  })
  punchIn(
    @Args() locator: LocatorArgs,
    @Arg('input', () => PunchInInput, { nullable: true }) input: PunchInInput | undefined,
    @Arg('companyId', () => ID, {
      nullable: true,
      description: 'Only if the project belongs to this company.',
    })
    companyId: string | undefined,
    @Arg('companyLegacyId', () => Int, { nullable: true }) companyLegacyId: number | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<Project> {
    return this.punches.punchIn(ctx, locator, input, optionalLocator(companyId, companyLegacyId));
  }

  @Mutation(() => Project, { description: "Stops the caller's running shift on the project." })
  punchOut(
    @Args() locator: LocatorArgs,
    @Arg('notes', () => String, { nullable: true }) notes: string | undefined,
    @Arg('companyId', () => ID, {
      nullable: true,
      description: 'Only if the project belongs to this company.',
    })
    companyId: string | undefined,
    @Arg('companyLegacyId', () => Int, { nullable: true }) companyLegacyId: number | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<Project> {
    return this.punches.punchOut(ctx, locator, notes, optionalLocator(companyId, companyLegacyId));
  }

  // The fields below answer synchronously once the request has read what they need (a project
  // list primes it: primeProjectFields), so a list of hundreds of projects costs no promise per
  // field.
  @FieldResolver(() => ID, { description: "The uuid of the project's company." })
  companyId(@Root() project: Project, @Ctx() ctx: RequestContext): MaybePromise<string> {
    return then(loadById(ctx, Company, project.company.id), (company) => company!.uuid);
  }

  @FieldResolver(() => Int, { description: "The integer id of the project's company." })
  companyLegacyId(@Root() project: Project): number {
    return project.company.id;
  }

  @FieldResolver(() => Company, {
    nullable: true,
    description: 'The company, when the caller may see it.',
  })
  company(@Root() project: Project, @Ctx() ctx: RequestContext): Promise<Company | null> {
    return visibleCompany(ctx, project.company.id);
  }

  @FieldResolver(() => Account, { description: 'The account it belongs to.' })
  account(@Root() project: Project, @Ctx() ctx: RequestContext): MaybePromise<Account> {
    return loadById(ctx, Account, project.account.id) as MaybePromise<Account>;
  }

  @FieldResolver(() => [Staff], {
    description: 'The users listed for CUSTOM visibility.',
    complexity: listComplexity(20),
  })
  users(@Root() project: Project, @Ctx() ctx: RequestContext): MaybePromise<Staff[]> {
    return projectUsers(ctx, project.id);
  }

  @FieldResolver(() => [Activity], {
    description: 'Every activity of the project, by name.',
    complexity: listComplexity(20),
  })
  activities(@Root() project: Project, @Ctx() ctx: RequestContext): MaybePromise<Activity[]> {
    return projectActivities(ctx, project.id);
  }

  @FieldResolver(() => ShiftConnection, {
    description: 'Shifts on the project that the caller can see.',
  })
  shifts(
    @Root() project: Project,
    @Args() page: PageArgs,
    @Arg('filter', () => ShiftFilter, { nullable: true }) filter: ShiftFilter | undefined,
    @Arg('order', () => [ShiftOrder], { nullable: true })
    order: InstanceType<typeof ShiftOrder>[] | undefined,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return projectShifts(ctx, project.id, page, filter, order, () => selectedFields(info, 'nodes'));
  }

  @FieldResolver(() => SafeIntResolver, {
    description: 'Seconds punched by all users, running shifts up to now.',
  })
  grandTotal(@Root() project: Project, @Ctx() ctx: RequestContext): MaybePromise<number> {
    return then(projectTotals(ctx, project.id), (totals) => totals.grandTotal);
  }

  @FieldResolver(() => SafeIntResolver, {
    description: 'Seconds punched by the caller, running shifts up to now.',
  })
  runningTotal(@Root() project: Project, @Ctx() ctx: RequestContext): MaybePromise<number> {
    return then(projectTotals(ctx, project.id), (totals) => totals.runningTotal);
  }

  @FieldResolver(() => Boolean, { description: 'Whether the caller is punched in to the project.' })
  running(@Root() project: Project, @Ctx() ctx: RequestContext): MaybePromise<boolean> {
    return then(viewerRunningShift(ctx), (shift) => shift?.project.id === project.id);
  }

  @FieldResolver(() => Shift, {
    nullable: true,
    description: "The caller's running shift on the project.",
  })
  currentShift(@Root() project: Project, @Ctx() ctx: RequestContext): MaybePromise<Shift | null> {
    return then(viewerRunningShift(ctx), (shift) =>
      shift?.project.id === project.id ? shift : null,
    );
  }

  @FieldResolver(() => DateTimeISOResolver, {
    nullable: true,
    description: 'Start of the running shift.',
  })
  startedAt(@Root() project: Project, @Ctx() ctx: RequestContext): MaybePromise<Date | null> {
    return then(this.currentShift(project, ctx), (shift) => shift?.start ?? null);
  }

  @FieldResolver(() => SafeIntResolver, {
    nullable: true,
    description: 'timeLimit - grandTotal; null without a limit.',
  })
  timeLeft(@Root() project: Project, @Ctx() ctx: RequestContext): MaybePromise<number | null> {
    const limit = project.timeLimit;
    return limit === null ? null : then(this.grandTotal(project, ctx), (total) => limit - total);
  }

  @FieldResolver(() => Boolean, {
    nullable: true,
    description: 'grandTotal > timeLimit; null without a limit.',
  })
  overdue(@Root() project: Project, @Ctx() ctx: RequestContext): MaybePromise<boolean | null> {
    const limit = project.timeLimit;
    return limit === null ? null : then(this.grandTotal(project, ctx), (total) => total > limit);
  }

  @FieldResolver(() => Boolean, {
    nullable: true,
    description:
      "At least the account's nearly-overdue share (default 90%) of the limit used, not yet overdue.",
  })
  nearlyOverdue(
    @Root() project: Project,
    @Ctx() ctx: RequestContext,
  ): MaybePromise<boolean | null> {
    const limit = project.timeLimit;
    if (limit === null) return null;
    return then(this.grandTotal(project, ctx), (total) =>
      then(
        loadById(ctx, Account, ctx.viewer.accountId),
        (account) => total <= limit && total >= limit * (account?.nearlyOverdueRatio ?? 0.9),
      ),
    );
  }
}
