import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, Info, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../../core/request-context';
import { FILTER_DESCRIPTIONS, LocatorArgs, PageArgs } from '../../common';
import { findPage, loadById } from '../../paging';
import {
  Connection,
  listComplexity,
  pageRequest,
  ReferenceSql,
  RowsSql,
} from '../../paging/graphql';
import { Account } from '../../accounts';
import { Staff } from '../../staff';
import { companyUsers } from '../company.loaders';
import { Company } from '../company.entity';
import {
  CompanyFilter,
  CompanyOrder,
  CreateCompanyInput,
  DeleteCompanyInput,
  UpdateCompanyInput,
} from './company.inputs';
import {
  CreateCompanyPayload,
  DeleteCompanyPayload,
  UpdateCompanyPayload,
} from './company.payloads';
import type { CompanyService } from '../company.service';

export const CompanyConnection = Connection(Company, 'CompanyConnection');

@Resolver(() => Company)
export class CompanyResolver {
  constructor(private readonly service: CompanyService) {}

  @Query(() => Company, {
    nullable: true,
    description: 'One company the caller can see, by `id` or `legacyId`.',
  })
  company(@Args() locator: LocatorArgs, @Ctx() ctx: RequestContext): Promise<Company> {
    return this.service.get(ctx, locator);
  }

  @Query(() => CompanyConnection, {
    description:
      'The companies the caller can see: the owner every one; others PUBLIC ones, those they created and CUSTOM ones listing them.',
  })
  async companies(
    @Args() page: PageArgs,
    @Arg('filter', () => CompanyFilter, {
      nullable: true,
      description: FILTER_DESCRIPTIONS.filterArg,
    })
    filter: CompanyFilter | undefined,
    @Arg('order', () => [CompanyOrder], {
      nullable: true,
      description: FILTER_DESCRIPTIONS.orderArg,
    })
    order: InstanceType<typeof CompanyOrder>[] | undefined,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return findPage(
      ctx,
      await this.service.listSource(ctx, filter, order),
      pageRequest(page, info),
    );
  }

  @Mutation(() => CreateCompanyPayload, { description: 'Creates a company.' })
  async createCompany(
    @Arg('input', () => CreateCompanyInput, { description: 'The new company.' })
    input: CreateCompanyInput,
    @Ctx() ctx: RequestContext,
  ): Promise<CreateCompanyPayload> {
    return { company: await this.service.create(ctx, input) };
  }

  @Mutation(() => UpdateCompanyPayload, {
    description: 'Merges the given fields; omitted fields are kept.',
  })
  async updateCompany(
    @Arg('input', () => UpdateCompanyInput, { description: 'The company and its changes.' })
    { company, patch }: UpdateCompanyInput,
    @Ctx() ctx: RequestContext,
  ): Promise<UpdateCompanyPayload> {
    return { company: await this.service.update(ctx, company, patch) };
  }

  @Mutation(() => DeleteCompanyPayload, {
    description: 'Deletes the company with its projects, activities and shifts.',
  })
  async deleteCompany(
    @Arg('input', () => DeleteCompanyInput, { description: 'The company to delete.' })
    { company }: DeleteCompanyInput,
    @Ctx() ctx: RequestContext,
  ): Promise<DeleteCompanyPayload> {
    const { company: deleted, cascade } = await this.service.delete(ctx, company);
    return {
      deletedCompanyId: deleted.uuid,
      company: deleted,
      deletedProjectIds: cascade.projects.ids,
      deletedProjectCount: cascade.projects.count,
      deletedActivityIds: cascade.activities.ids,
      deletedActivityCount: cascade.activities.count,
      deletedShiftIds: cascade.shifts.ids,
      deletedShiftCount: cascade.shifts.count,
    };
  }

  @ReferenceSql(Company, 'account')
  @FieldResolver(() => Account, { description: 'The account it belongs to.' })
  async account(@Root() company: Company, @Ctx() ctx: RequestContext): Promise<Account> {
    return (await loadById(ctx, Account, company.account.id))!;
  }

  @RowsSql(
    Company,
    () => Staff,
    (c, u) =>
      `${u.column('id')} in (select user_id from company_members where account_id = ${c.request.accountId} and company_id = ${c.column('id')})`,
    (c, u) =>
      `(select min(id) from company_members where account_id = ${c.request.accountId} and company_id = ${c.column('id')} and user_id = ${u.column('id')})`,
  )
  @FieldResolver(() => [Staff], {
    description: 'The users listed for CUSTOM visibility.',
    complexity: listComplexity(20),
  })
  users(@Root() company: Company, @Ctx() ctx: RequestContext): Promise<Staff[]> {
    return companyUsers(ctx, company.id);
  }
}
