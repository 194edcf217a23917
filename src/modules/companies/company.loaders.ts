import type { RequestContext } from '../../core/request-context';
import { loadById } from '../paging';
import type { Staff } from '../staff';
import { CompanyMember } from './company-member.entity';
import { Company } from './company.entity';
import { isCompanyVisible } from './company.policy';

/** The users listed for CUSTOM visibility, in the order they were added; every company's in one query. */
export async function companyUsers(ctx: RequestContext, companyId: number): Promise<Staff[]> {
  const members = await ctx.loaders.children(
    'companyUsers',
    companyId,
    (ids) =>
      ctx.em.find(
        CompanyMember,
        { company: { $in: [...ids] } },
        { populate: ['user'], orderBy: { id: 'asc' } },
      ),
    (m) => m.company.id,
  );
  return members.map((m) => m.user.getEntity());
}

/** A company by row id (a project's), or null when the caller may not see it. */
export async function visibleCompany(
  ctx: RequestContext,
  companyId: number,
): Promise<Company | null> {
  const company = (await loadById(ctx, Company, companyId))!;
  return (await isCompanyVisible(ctx, company)) ? company : null;
}
