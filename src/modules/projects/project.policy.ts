import type { Knex } from 'knex';
import type { RequestContext } from '../../core/request-context';
import { listedIdsOnce, listedVisibilityWhere, whereAsSql, type SqlCondition } from '../common';
import { ProjectMember } from './project-member.entity';
import { Project } from './project.entity';

/**
 * Which projects a caller sees: the rule of common/listed-visibility.ts over the projects' CUSTOM
 * lists, whatever the company's visibility. Activities are visible exactly where their project
 * is; shifts build on it (shifts/shift.policy.ts).
 */
export function projectVisibilityWhere(ctx: RequestContext): Promise<object> {
  return listedVisibilityWhere(ctx.viewer, () =>
    listedIdsOnce(ctx, 'memberOf:project', async (em) =>
      (await em.find(ProjectMember, { user: ctx.viewer.id }, { fields: ['project'] })).map(
        (m) => m.project.id,
      ),
    ),
  );
}

/** The rule as an SQL condition on the project id in `column` of a hand-written statement. */
export async function projectVisibilitySql(
  ctx: RequestContext,
  knex: Knex,
  column: string,
): Promise<SqlCondition> {
  return whereAsSql(ctx, knex, Project, column, await projectVisibilityWhere(ctx));
}

/** The rule for a project known by its uuid only (a shift event's), read with the context's handle. */
export async function isProjectUuidVisible(ctx: RequestContext, uuid: string): Promise<boolean> {
  return (await ctx.em.count(Project, { $and: [{ uuid }, await projectVisibilityWhere(ctx)] })) > 0;
}
