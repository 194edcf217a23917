import type { Knex } from 'knex';
import { PermissionDeniedError } from '../../core/errors';
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
import { mayReadMoney } from '../accounts';
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

/**
 * A filter or order on a money field would find a hidden rate by bisection
 * (`hourlyRateCents > 4999`), so a caller who may not read the fields may not query by them
 * either: READ_DENIED (403 on the legacy interfaces), rather than an answer that depends on them.
 */
export function assertProjectQueryReadable(
  viewer: Viewer,
  filter: object | undefined | null,
  order: readonly { field: string }[] | undefined | null,
): void {
  if (mayReadMoney(viewer)) return;
  const named = [...filterFieldNames(filter), ...(order ?? []).map((o) => o.field)].filter(
    (field) => PROJECT_MONEY_FIELDS.has(field),
  );
  if (named.length > 0)
    throw new PermissionDeniedError(
      'read',
      'Project',
      `Read denied: only the owner and managers may filter or order projects by ${named[0]}`,
    );
}

/** Every field a filter names, through its `and`, `or` and `not`. */
function filterFieldNames(filter: object | undefined | null): string[] {
  if (!filter) return [];
  return Object.entries(filter).flatMap(([key, value]) => {
    if (value === undefined || value === null) return [];
    if (key === 'and' || key === 'or')
      return (value as object[]).flatMap((part) => filterFieldNames(part));
    if (key === 'not') return filterFieldNames(value as object);
    return [key];
  });
}
