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
import { ProjectMember } from './project-member.entity';
import { Project } from './project.entity';

/**
 * Which projects a caller sees: the rule of rule-forms/listed-visibility.ts over the projects'
 * CUSTOM lists, whatever the company's visibility. Activities are visible exactly where their project
 * is; shifts build on it (shifts/shift.policy.ts).
 */
export function projectVisibilityWhere(ctx: RequestContext): Promise<object> {
  return listedVisibilityWhere(ctx.viewer, () => listedProjectIds(ctx));
}

/** The rule for a project already loaded (a shift's project: projects/project.loaders.ts). */
export function isProjectVisible(ctx: RequestContext, project: ListedRow): Promise<boolean> {
  return isListedVisible(ctx.viewer, project, () => listedProjectIds(ctx));
}

function listedProjectIds(ctx: RequestContext): Promise<number[]> {
  return listedIdsOnce(ctx, 'memberOf:project', async (em) =>
    (await em.find(ProjectMember, { user: ctx.viewer.id }, { fields: ['project'] })).map(
      (m) => m.project.id,
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

/**
 * Who creates, changes and deletes projects: the owner and the managers, each among the projects
 * (and in the companies) they see. Staff members only read them.
 */
export function mayWriteProjects(viewer: Viewer): boolean {
  return isManagerOrOwner(viewer);
}

export function assertMayWriteProject(viewer: Viewer, act: 'create' | 'update' | 'delete'): void {
  if (!mayWriteProjects(viewer)) throw new PermissionDeniedError(act, 'Project');
}
