import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../../core/request-context';
import { inOrderOf } from '../../writes';
import { cascadeDescriptions } from '../../writes/graphql';
import { DeleteStaffPayload } from '../../staff/graphql';
import { Company } from '../company.entity';
import type { CompanyService } from '../company.service';

/** What companies add to deleting a user: the companies the deletion changed, as they are now. */
@Resolver(() => DeleteStaffPayload)
export class StaffCascadeCompaniesResolver {
  constructor(private readonly companies: CompanyService) {}

  @FieldResolver(() => [Company], {
    description: cascadeDescriptions.objects(
      'companies (their CUSTOM list or creator named the user)',
    ),
  })
  async updatedCompanies(
    @Root() payload: DeleteStaffPayload,
    @Ctx() ctx: RequestContext,
  ): Promise<Company[]> {
    const ids = payload.cascade.touchedCompanies.ids;
    return inOrderOf(ids, await this.companies.getMany(ctx, ids));
  }
}
