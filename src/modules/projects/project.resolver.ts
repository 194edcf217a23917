import { DateTimeISOResolver } from 'graphql-scalars';
import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../graphql/context';
import { Connection } from '../../graphql/connection';
import { loadById } from '../../graphql/entity-loaders';
import { LocatorArgs, optionalLocator, PageArgs } from '../../graphql/list-args';
import { Account } from '../accounts/account.entity';
import { Activity } from '../activities/activity.entity';
import { Company } from '../companies/company.entity';
import { childPage, compileFilter, compileOrder } from '../common/list-query';
import { Shift } from '../shifts/shift.entity';
import { SHIFT_FILTER_FIELDS, ShiftFilter, ShiftOrder } from '../shifts/shift.inputs';
import { Staff } from '../staff/staff.entity';
import { ProjectMember } from './project-member.entity';
import { Project } from './project.entity';
import { CreateProjectInput, ProjectFilter, ProjectInput, ProjectOrder, PunchInInput } from './project.inputs';
import { projectTotals, viewerRunningShift } from './project.loaders';
import { isCompanyVisible } from '../common/visibility';
import type { ProjectService } from './project.service';
import type { PunchService } from './punch.service';
import { isManagerOrOwner } from '../../auth/viewer';

export const ProjectConnection = Connection(Project, 'ProjectConnection');
export const ShiftConnection = Connection(Shift, 'ShiftConnection');

@Resolver(() => Project)
export class ProjectResolver {
  constructor(
    private readonly service: ProjectService,
    private readonly punches: PunchService,
  ) {}

  @Query(() => Project, { description: 'One project, by `id` or `legacyId`; optionally required to belong to a company.' })
  project(
    @Args() locator: LocatorArgs,
    @Arg('companyId', () => ID, { nullable: true }) companyId: string | undefined,
    @Arg('companyLegacyId', () => Int, { nullable: true }) companyLegacyId: number | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<Project> {
    return this.service.get(ctx, locator, optionalLocator(companyId, companyLegacyId));
  }

  @Query(() => ProjectConnection, { description: 'The projects the caller can see, optionally of one company.' })
  projects(
    @Args() page: PageArgs,
    @Arg('filter', () => ProjectFilter, { nullable: true }) filter: ProjectFilter | undefined,
    @Arg('order', () => [ProjectOrder], { nullable: true }) order: InstanceType<typeof ProjectOrder>[] | undefined,
    @Arg('companyId', () => ID, { nullable: true }) companyId: string | undefined,
    @Arg('companyLegacyId', () => Int, { nullable: true }) companyLegacyId: number | undefined,
    @Ctx() ctx: RequestContext,
  ) {
    return this.service.list(ctx, filter, order, page, optionalLocator(companyId, companyLegacyId));
  }

  @Mutation(() => Project)
  createProject(@Arg('input', () => CreateProjectInput) input: CreateProjectInput, @Ctx() ctx: RequestContext): Promise<Project> {
    return this.service.create(ctx, input);
  }

  @Mutation(() => Project, { description: 'Merges the given fields; omitted fields are kept.' })
  updateProject(
    @Args() locator: LocatorArgs,
    @Arg('input', () => ProjectInput) input: ProjectInput,
    @Arg('companyId', () => ID, { nullable: true, description: 'Only if the project belongs to this company.' }) companyId: string | undefined,
    @Arg('companyLegacyId', () => Int, { nullable: true }) companyLegacyId: number | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<Project> {
    return this.service.update(ctx, locator, input, optionalLocator(companyId, companyLegacyId));
  }

  @Mutation(() => Project, { description: 'Deletes the project with its activities and shifts.' })
  deleteProject(
    @Args() locator: LocatorArgs,
    @Arg('companyId', () => ID, { nullable: true, description: 'Only if the project belongs to this company.' }) companyId: string | undefined,
    @Arg('companyLegacyId', () => Int, { nullable: true }) companyLegacyId: number | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<Project> {
    return this.service.delete(ctx, locator, optionalLocator(companyId, companyLegacyId));
  }

  @Mutation(() => Project, { description: "Starts a running shift for the caller, stopping the caller's other running shift." })
  punchIn(
    @Args() locator: LocatorArgs,
    @Arg('input', () => PunchInInput, { nullable: true }) input: PunchInInput | undefined,
    @Arg('companyId', () => ID, { nullable: true, description: 'Only if the project belongs to this company.' }) companyId: string | undefined,
    @Arg('companyLegacyId', () => Int, { nullable: true }) companyLegacyId: number | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<Project> {
    return this.punches.punchIn(ctx, locator, input, optionalLocator(companyId, companyLegacyId));
  }

  @Mutation(() => Project, { description: "Stops the caller's running shift on the project." })
  punchOut(
    @Args() locator: LocatorArgs,
    @Arg('notes', () => String, { nullable: true }) notes: string | undefined,
    @Arg('companyId', () => ID, { nullable: true, description: 'Only if the project belongs to this company.' }) companyId: string | undefined,
    @Arg('companyLegacyId', () => Int, { nullable: true }) companyLegacyId: number | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<Project> {
    return this.punches.punchOut(ctx, locator, notes, optionalLocator(companyId, companyLegacyId));
  }

  @FieldResolver(() => ID, { description: "The uuid of the project's company." })
  async companyId(@Root() project: Project, @Ctx() ctx: RequestContext): Promise<string> {
    return (await loadById(ctx, Company, project.company.id))!.uuid;
  }

  @FieldResolver(() => Int, { description: "The integer id of the project's company." })
  companyLegacyId(@Root() project: Project): number {
    return project.company.id;
  }

  @FieldResolver(() => Company, { nullable: true, description: 'The company, when the caller may see it.' })
  async company(@Root() project: Project, @Ctx() ctx: RequestContext): Promise<Company | null> {
    const company = (await loadById(ctx, Company, project.company.id))!;
    return (await isCompanyVisible(ctx, company)) ? company : null;
  }

  @FieldResolver(() => Account, { description: 'The account it belongs to.' })
  async account(@Root() project: Project, @Ctx() ctx: RequestContext): Promise<Account> {
    return (await loadById(ctx, Account, project.account.id))!;
  }

  @FieldResolver(() => [Staff], { description: 'The users listed for CUSTOM visibility.' })
  async users(@Root() project: Project, @Ctx() ctx: RequestContext): Promise<Staff[]> {
    const members = await ctx.loaders.children(
      'projectUsers',
      project.id,
      (ids) => ctx.em.find(ProjectMember, { project: { $in: [...ids] } }, { populate: ['user'], orderBy: { id: 'asc' } }),
      (m) => m.project.id,
    );
    return members.map((m) => m.user.getEntity());
  }

  @FieldResolver(() => [Activity], { description: 'Every activity of the project, by name.' })
  activities(@Root() project: Project, @Ctx() ctx: RequestContext): Promise<Activity[]> {
    return ctx.loaders.children(
      'projectActivities',
      project.id,
      (ids) => ctx.em.find(Activity, { project: { $in: [...ids] } }, { orderBy: [{ name: 'asc' }, { id: 'asc' }] }),
      (a) => a.project.id,
    );
  }

  @FieldResolver(() => ShiftConnection, { description: 'Shifts on the project that the caller can see.' })
  async shifts(
    @Root() project: Project,
    @Args() page: PageArgs,
    @Arg('filter', () => ShiftFilter, { nullable: true }) filter: ShiftFilter | undefined,
    @Arg('order', () => [ShiftOrder], { nullable: true }) order: InstanceType<typeof ShiftOrder>[] | undefined,
    @Ctx() ctx: RequestContext,
  ) {
    const where = compileFilter('Shift', filter as never, SHIFT_FILTER_FIELDS);
    const own = isManagerOrOwner(ctx.viewer) ? {} : { user: ctx.viewer.id };
    return childPage(
      ctx,
      'Shift',
      `projectShifts:${JSON.stringify([filter, order])}`,
      project.id,
      page,
      (ids) => ctx.em.find(Shift, { $and: [where, own, { project: { $in: [...ids] } }] } as never, { orderBy: compileOrder(order) as never }),
      (s) => s.project.id,
    );
  }

  @FieldResolver(() => Int, { description: 'Seconds punched by all users, running shifts up to now.' })
  async grandTotal(@Root() project: Project, @Ctx() ctx: RequestContext): Promise<number> {
    return (await projectTotals(ctx, project.id)).grandTotal;
  }

  @FieldResolver(() => Int, { description: 'Seconds punched by the caller, running shifts up to now.' })
  async runningTotal(@Root() project: Project, @Ctx() ctx: RequestContext): Promise<number> {
    return (await projectTotals(ctx, project.id)).runningTotal;
  }

  @FieldResolver(() => Boolean, { description: 'Whether the caller is punched in to the project.' })
  async running(@Root() project: Project, @Ctx() ctx: RequestContext): Promise<boolean> {
    return (await viewerRunningShift(ctx))?.project.id === project.id;
  }

  @FieldResolver(() => Shift, { nullable: true, description: "The caller's running shift on the project." })
  async currentShift(@Root() project: Project, @Ctx() ctx: RequestContext): Promise<Shift | null> {
    const shift = await viewerRunningShift(ctx);
    return shift?.project.id === project.id ? shift : null;
  }

  @FieldResolver(() => DateTimeISOResolver, { nullable: true, description: 'Start of the running shift.' })
  async startedAt(@Root() project: Project, @Ctx() ctx: RequestContext): Promise<Date | null> {
    return (await this.currentShift(project, ctx))?.start ?? null;
  }

  @FieldResolver(() => Int, { nullable: true, description: 'timeLimit - grandTotal; null without a limit.' })
  async timeLeft(@Root() project: Project, @Ctx() ctx: RequestContext): Promise<number | null> {
    if (project.timeLimit === null) return null;
    return project.timeLimit - (await this.grandTotal(project, ctx));
  }

  @FieldResolver(() => Boolean, { nullable: true, description: 'grandTotal > timeLimit; null without a limit.' })
  async overdue(@Root() project: Project, @Ctx() ctx: RequestContext): Promise<boolean | null> {
    if (project.timeLimit === null) return null;
    return (await this.grandTotal(project, ctx)) > project.timeLimit;
  }

  @FieldResolver(() => Boolean, {
    nullable: true,
    description: "At least the account's nearly-overdue share (default 90%) of the limit used, not yet overdue.",
  })
  async nearlyOverdue(@Root() project: Project, @Ctx() ctx: RequestContext): Promise<boolean | null> {
    if (project.timeLimit === null) return null;
    const total = await this.grandTotal(project, ctx);
    const account = await loadById(ctx, Account, ctx.viewer.accountId);
    return total <= project.timeLimit && total >= project.timeLimit * (account?.nearlyOverdueRatio ?? 0.9);
  }
}

