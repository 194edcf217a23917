import { isOwner } from '../../auth/viewer';
import type { RequestContext } from '../../graphql/context';
import { CompanyMember } from '../companies/company-member.entity';
import { ProjectMember } from '../projects/project-member.entity';
import { Visibility } from './enums';

/**
 * Who sees a company or a project: the owner sees everything; everyone else sees PUBLIC ones,
 * the ones they created, and CUSTOM ones that list them. Rows the caller cannot see behave as if
 * they did not exist (404), exactly like rows of another account.
 */
export async function companyVisibilityWhere(ctx: RequestContext): Promise<object> {
  if (isOwner(ctx.viewer)) return {};
  const listed = await memberOf(ctx, 'company');
  return visibleWhere(ctx, listed);
}

export async function projectVisibilityWhere(ctx: RequestContext): Promise<object> {
  if (isOwner(ctx.viewer)) return {};
  const listed = await memberOf(ctx, 'project');
  return visibleWhere(ctx, listed);
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

/** The ids of the companies or projects whose CUSTOM list names the viewer; once per request. */
function memberOf(ctx: RequestContext, kind: 'company' | 'project'): Promise<number[]> {
  return ctx.loaders
    .get<string, number[]>(`memberOf:${kind}`, async (keys) => {
      const rows =
        kind === 'company'
          ? (await ctx.em.find(CompanyMember, { user: ctx.viewer.id }, { fields: ['company'] })).map((m) => m.company.id)
          : (await ctx.em.find(ProjectMember, { user: ctx.viewer.id }, { fields: ['project'] })).map((m) => m.project.id);
      return keys.map(() => rows);
    })
    .load('viewer');
}
