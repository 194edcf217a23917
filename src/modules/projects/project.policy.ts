import type { Knex } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/request-context';
import type { Viewer } from '../../core/viewer';
import {
  isListedVisible,
  listedIdsOnce,
  listedVisibilityWhere,
  type ListedRow,
  whereAsSql,
  type SqlCondition,
} from '../common';
import { assertMoneyQueryReadable } from '../accounts';
import { ProjectMember } from './project-member.entity';
import { Project } from './project.entity';

/**
 * Which projects a caller sees: the rule of common/listed-visibility.ts over the projects' CUSTOM
 * lists, whatever the company's visibility. Activities are visible exactly where their project
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

/** The money fields of a project, as named by the filter, the order enum and the type. */
const PROJECT_MONEY_FIELDS: ReadonlySet<string> = new Set([
  'hourlyRate',
  'hourlyRateCents',
  'invoiceAmountCents',
]);

/** The money rule (accounts/money-visibility.ts) for a query of projects. */
export function assertProjectQueryReadable(
  viewer: Viewer,
  filter: object | undefined | null,
  order: readonly { field: string }[] | undefined | null,
): void {
  assertMoneyQueryReadable(viewer, 'Project', PROJECT_MONEY_FIELDS, filter, order);
}
