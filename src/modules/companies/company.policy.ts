import type { Knex } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/request-context';
import { PermissionDeniedError } from '../../core/errors';
import { isManagerOrOwner, type Viewer } from '../../core/viewer';
import {
  isListedVisible,
  listedIdsOnce,
  listedVisibilityWhere,
  type ListedRow,
  whereAsSql,
  type SqlCondition,
} from '../rule-forms';
import { CompanyMember } from './company-member.entity';
import { Company } from './company.entity';

/**
 * Which companies a caller sees: the rule of rule-forms/listed-visibility.ts over the companies'
 * CUSTOM lists. Independent of the projects' rule: a PUBLIC project of a PRIVATE company is
 * visible while the company is not.
 */
export function companyVisibilityWhere(ctx: RequestContext): Promise<object> {
  return listedVisibilityWhere(ctx.viewer, () => listedCompanyIds(ctx));
}

/** The rule as an SQL condition on the company id in `column` of a hand-written statement. */
export async function companyVisibilitySql(
  ctx: RequestContext,
  knex: Knex,
  column: string,
): Promise<SqlCondition> {
  return whereAsSql(ctx, knex, Company, column, await companyVisibilityWhere(ctx));
}

/** The rule for a company already loaded (the company of a visible project). */
export function isCompanyVisible(ctx: RequestContext, company: ListedRow): Promise<boolean> {
  return isListedVisible(ctx.viewer, company, () => listedCompanyIds(ctx));
}

function listedCompanyIds(ctx: RequestContext): Promise<number[]> {
  return listedIdsOnce(ctx, 'memberOf:company', async (em) =>
    (await em.find(CompanyMember, { user: ctx.viewer.id }, { fields: ['company'] })).map(
      (m) => m.company.id,
    ),
  );
}

/**
 * Who creates, changes and deletes companies: the owner and the managers, each among the companies
 * they see (the rule above: a company they do not see is not found). Staff members only read them.
 */
export function mayWriteCompanies(viewer: Viewer): boolean {
  return isManagerOrOwner(viewer);
}

export function assertMayWriteCompany(viewer: Viewer, act: 'create' | 'update' | 'delete'): void {
  if (!mayWriteCompanies(viewer)) throw new PermissionDeniedError(act, 'Company');
}
