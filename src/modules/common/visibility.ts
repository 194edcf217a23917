import { isOwner } from '../../core/viewer';
import type { RequestContext } from '../../core/request-context';
import { CompanyMember } from '../companies/company-member.entity';
import type { Company } from '../companies/company.entity';
import { ProjectMember } from '../projects/project-member.entity';
import { Visibility } from './enums';

/**
 * Who sees a company or a project: the owner sees everything; everyone else sees PUBLIC ones,
 * the ones they created, and CUSTOM ones that list them. Rows the caller cannot see behave as if
 * they did not exist (404), exactly like rows of another account.
 *
 * Inside a transaction, pass the context it hands its callback (inTransaction's `tx`): the lists
 * are then read on the transaction's EntityManager.
 */
export async function companyVisibilityWhere(ctx: RequestContext): Promise<object> {
  if (isOwner(ctx.viewer)) return {};
  return visibleWhere(ctx, await memberOf(ctx, 'company'));
}

export async function projectVisibilityWhere(ctx: RequestContext): Promise<object> {
  if (isOwner(ctx.viewer)) return {};
  return visibleWhere(ctx, await memberOf(ctx, 'project'));
}

/** The same rule for a company already loaded (references from a visible project). */
export async function isCompanyVisible(ctx: RequestContext, company: Company): Promise<boolean> {
  if (
    isOwner(ctx.viewer) ||
    company.visibility === Visibility.PUBLIC ||
    company.createdBy?.id === ctx.viewer.id
  )
    return true;
  return (
    company.visibility === Visibility.CUSTOM &&
    (await memberOf(ctx, 'company')).includes(company.id)
  );
}

function visibleWhere(ctx: RequestContext, listedIds: number[]): object {
  return {
    $or: [
      { visibility: Visibility.PUBLIC },
      { createdBy: ctx.viewer.id },
      ...(listedIds.length > 0 ? [{ visibility: Visibility.CUSTOM, id: { $in: listedIds } }] : []),
    ],
  };
}

/**
 * The ids of the companies or projects whose CUSTOM list names the viewer: once per request for
 * reads; afresh inside a transaction, which may itself have changed the lists.
 */
async function memberOf(ctx: RequestContext, kind: 'company' | 'project'): Promise<number[]> {
  const { em } = ctx;
  const query = async () =>
    kind === 'company'
      ? (await em.find(CompanyMember, { user: ctx.viewer.id }, { fields: ['company'] })).map(
          (m) => m.company.id,
        )
      : (await em.find(ProjectMember, { user: ctx.viewer.id }, { fields: ['project'] })).map(
          (m) => m.project.id,
        );
  if (em.isInTransaction()) return query();
  return ctx.loaders.load<string, number[]>(`memberOf:${kind}`, 'viewer', async (keys) => {
    const ids = await query();
    return keys.map(() => ids);
  });
}
