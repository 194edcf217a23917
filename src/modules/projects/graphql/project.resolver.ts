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
import { then, type MaybePromise } from '../../../core/loaders';
import { Account } from '../../accounts';
import { FILTER_DESCRIPTIONS, LocatorArgs, optionalLocator, PageArgs } from '../../common';
import { findPage, loadById, primeById, ReadsAhead } from '../../paging';
import {
  Connection,
  listComplexity,
  pageRequest,
  ReadsColumns,
  ReferenceSql,
  RowsSql,
} from '../../paging/graphql';
import { Company, companyVisibilitySql, visibleCompany } from '../../companies';
import { Staff } from '../../staff';
import { Project } from '../project.entity';
import { projectUsers, readCompanies, readProjectUsers } from '../project.loaders';
import type { ProjectService } from '../project.service';
import {
  CreateProjectInput,
  DeleteProjectInput,
  ProjectFilter,
  ProjectOrder,
  UpdateProjectInput,
} from './project.inputs';
import {
  CreateProjectPayload,
  DeleteProjectPayload,
  UpdateProjectPayload,
} from './project.payloads';

export const ProjectConnection = Connection(Project, 'ProjectConnection');

/** Reads ahead the account of a list of projects (the one of the tenant). */
const readAccounts = (ctx: RequestContext, projects: readonly Project[]) =>
  primeById(
    ctx,
    Account,
    projects.map((p) => p.account.id),
  );

/**
 * Projects and the fields a project has of its own. The shifts module adds the time fields and the
 * punches (ProjectTimeResolver), the activities module the activities; each field declares what a
 * list of projects reads ahead for it (`@ReadsAhead`), whichever module adds it.
 */
@Resolver(() => Project)
export class ProjectResolver {
  constructor(private readonly service: ProjectService) {}

  @Query(() => Project, {
    nullable: true,
    description: 'One project, by `id` or `legacyId`; optionally required to belong to a company.',
  })
  project(
    @Args() locator: LocatorArgs,
    @Arg('companyId', () => ID, {
      nullable: true,
      description: 'Only if the project belongs to this company (uuid); else NOT_FOUND.',
    })
    companyId: string | undefined,
    @Arg('companyLegacyId', () => Int, {
      nullable: true,
      description: 'Only if the project belongs to this company (integer id); else NOT_FOUND.',
    })
    companyLegacyId: number | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<Project> {
    return this.service.get(ctx, locator, optionalLocator(companyId, companyLegacyId));
  }

  @Query(() => ProjectConnection, {
    description: 'The projects the caller can see, optionally of one company.',
  })
  async projects(
    @Args() page: PageArgs,
    @Arg('filter', () => ProjectFilter, {
      nullable: true,
      description: FILTER_DESCRIPTIONS.filterArg,
    })
    filter: ProjectFilter | undefined,
    @Arg('order', () => [ProjectOrder], {
      nullable: true,
      description: FILTER_DESCRIPTIONS.orderArg,
    })
    order: InstanceType<typeof ProjectOrder>[] | undefined,
    @Arg('companyId', () => ID, {
      nullable: true,
      description: 'Only projects of this company (uuid); NOT_FOUND if the caller cannot see it.',
    })
    companyId: string | undefined,
    @Arg('companyLegacyId', () => Int, {
      nullable: true,
      description:
        'Only projects of this company (integer id); NOT_FOUND if the caller cannot see it.',
    })
    companyLegacyId: number | undefined,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    const source = await this.service.listSource(
      ctx,
      filter,
      order,
      optionalLocator(companyId, companyLegacyId),
    );
    return findPage(ctx, source, pageRequest(page, info));
  }

  @Mutation(() => CreateProjectPayload, { description: 'Creates a project of a company.' })
  async createProject(
    @Arg('input', () => CreateProjectInput, { description: 'The new project.' })
    input: CreateProjectInput,
    @Ctx() ctx: RequestContext,
  ): Promise<CreateProjectPayload> {
    return { project: await this.service.create(ctx, input) };
  }

  @Mutation(() => UpdateProjectPayload, {
    description: 'Merges the given fields; omitted fields are kept.',
  })
  async updateProject(
    @Arg('input', () => UpdateProjectInput, { description: 'The project and its changes.' })
    { project, inCompany, patch }: UpdateProjectInput,
    @Ctx() ctx: RequestContext,
  ): Promise<UpdateProjectPayload> {
    return { project: await this.service.update(ctx, project, patch, inCompany ?? undefined) };
  }

  @Mutation(() => DeleteProjectPayload, {
    description: 'Deletes the project with its activities and shifts.',
  })
  async deleteProject(
    @Arg('input', () => DeleteProjectInput, { description: 'The project to delete.' })
    { project, inCompany }: DeleteProjectInput,
    @Ctx() ctx: RequestContext,
  ): Promise<DeleteProjectPayload> {
    const { project: deleted, cascade } = await this.service.delete(
      ctx,
      project,
      inCompany ?? undefined,
    );
    return {
      deletedProjectId: deleted.uuid,
      project: deleted,
      deletedActivityIds: cascade.activities.ids,
      deletedActivityCount: cascade.activities.count,
      deletedShiftIds: cascade.shifts.ids,
      deletedShiftCount: cascade.shifts.count,
    };
  }

  // The fields below answer synchronously once the request has read what they need (a project
  // list reads it ahead: @ReadsAhead), so a list of hundreds of projects costs no promise per
  // field.
  @ReadsAhead(Project, readCompanies)
  @ReadsColumns(Project)
  @FieldResolver(() => ID, { description: "The uuid of the project's company." })
  companyId(@Root() project: Project, @Ctx() ctx: RequestContext): MaybePromise<string> {
    return then(loadById(ctx, Company, project.company.id), (company) => company!.uuid);
  }

  @ReadsColumns(Project)
  @FieldResolver(() => Int, { description: "The integer id of the project's company." })
  companyLegacyId(@Root() project: Project): number {
    return project.company.id;
  }

  @ReadsAhead(Project, readCompanies)
  @ReadsColumns(Project)
  @ReferenceSql(Project, 'company', companyVisibilitySql)
  @FieldResolver(() => Company, {
    nullable: true,
    description: 'The company, when the caller may see it.',
  })
  company(@Root() project: Project, @Ctx() ctx: RequestContext): Promise<Company | null> {
    return visibleCompany(ctx, project.company.id);
  }

  @ReadsAhead(Project, readAccounts)
  @ReadsColumns(Project)
  @ReferenceSql(Project, 'account')
  @FieldResolver(() => Account, { description: 'The account it belongs to.' })
  account(@Root() project: Project, @Ctx() ctx: RequestContext): MaybePromise<Account> {
    return loadById(ctx, Account, project.account.id) as MaybePromise<Account>;
  }

  @ReadsAhead(Project, readProjectUsers)
  @ReadsColumns(Project)
  @RowsSql(
    Project,
    () => Staff,
    (p, u) =>
      `${u.column('id')} in (select user_id from project_members where account_id = ${p.request.accountId} and project_id = ${p.column('id')})`,
    (p, u) =>
      `(select min(id) from project_members where account_id = ${p.request.accountId} and project_id = ${p.column('id')} and user_id = ${u.column('id')})`,
  )
  @FieldResolver(() => [Staff], {
    description: 'The users listed for CUSTOM visibility.',
    complexity: listComplexity(20),
  })
  users(@Root() project: Project, @Ctx() ctx: RequestContext): MaybePromise<Staff[]> {
    return projectUsers(ctx, project.id);
  }
}
