import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, FieldResolver, Info, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../../core/request-context';
import { FILTER_DESCRIPTIONS, PageArgs } from '../../common';
import { pageRequest } from '../../paging/graphql';
import { Company } from '../../companies';
import { companyProjects } from '../project.loaders';
import { ProjectFilter, ProjectOrder } from './project.inputs';
import { ProjectConnection } from './project.resolver';

/** What projects add to a company: its projects that the caller can see. */
@Resolver(() => Company)
export class CompanyProjectsResolver {
  @FieldResolver(() => ProjectConnection, {
    description: "The company's projects that the caller can see.",
  })
  projects(
    @Root() company: Company,
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
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return companyProjects(ctx, company.id, pageRequest(page, info), filter, order);
  }
}
