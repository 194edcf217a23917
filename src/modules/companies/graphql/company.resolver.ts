import { Arg, Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../../core/request-context';
import {
  FILTER_DESCRIPTIONS,
  loadById,
  Connection,
  LocatorArgs,
  PageArgs,
  listComplexity,
} from '../../common';
import { Account } from '../../accounts';
import { Staff } from '../../staff';
import { companyUsers } from '../company.loaders';
import { Company } from '../company.entity';
import { CompanyFilter, CompanyInput, CompanyOrder, CreateCompanyInput } from './company.inputs';
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
  companies(
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
  ) {
    return this.service.list(ctx, filter, order, page);
  }

  @Mutation(() => Company, { description: 'Creates a company.' })
  createCompany(
    @Arg('input', () => CreateCompanyInput, { description: 'The new company.' })
    input: CreateCompanyInput,
    @Ctx() ctx: RequestContext,
  ): Promise<Company> {
    return this.service.create(ctx, input);
  }

  @Mutation(() => Company, { description: 'Merges the given fields; omitted fields are kept.' })
  updateCompany(
    @Args() locator: LocatorArgs,
    @Arg('input', () => CompanyInput, {
      description: 'The fields to change; omitted ones keep their value.',
    })
    input: CompanyInput,
    @Ctx() ctx: RequestContext,
  ): Promise<Company> {
    return this.service.update(ctx, locator, input);
  }

  @Mutation(() => Company, {
    description: 'Deletes the company with its projects, activities and shifts.',
  })
  deleteCompany(@Args() locator: LocatorArgs, @Ctx() ctx: RequestContext): Promise<Company> {
    return this.service.delete(ctx, locator);
  }

  @FieldResolver(() => Account, { description: 'The account it belongs to.' })
  async account(@Root() company: Company, @Ctx() ctx: RequestContext): Promise<Account> {
    return (await loadById(ctx, Account, company.account.id))!;
  }

  @FieldResolver(() => [Staff], {
    description: 'The users listed for CUSTOM visibility.',
    complexity: listComplexity(20),
  })
  users(@Root() company: Company, @Ctx() ctx: RequestContext): Promise<Staff[]> {
    return companyUsers(ctx, company.id);
  }
}
