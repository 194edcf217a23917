import type { RequestContext } from '../../core/request-context';
import type { ConnectionShape } from '../common/graphql/connection';
import { loadById, primeById } from '../common/entity-loaders';
import type { OrderSpec } from '../common/graphql/list-args';
import { then, type MaybePromise } from '../../core/loaders';
import { Account } from '../accounts/account.entity';
import { Activity } from '../activities/activity.entity';
import { childPage, compileFilter, type PageRequest } from '../common/list-query';
import { findRows } from '../common/unmanaged-rows';
import { Company } from '../companies/company.entity';
import type { Staff } from '../staff/staff.entity';
import { accountOwner } from '../staff/staff.loaders';
import { ProjectMember } from './project-member.entity';
import { Project } from './project.entity';
import { PROJECT_FILTER_FIELDS, type ProjectFilter } from './project.inputs';
import { projectVisibilityWhere } from './project.policy';
import { Shift } from '../shifts/shift.entity';

export interface ProjectTotals {
  /** Seconds by all users, running shifts counted up to the request's instant. */
  grandTotal: number;
  /** The same for the viewer only. */
  runningTotal: number;
}

/**
 * Totals of many projects in one query: the sums of stopped shifts that the database keeps per
 * project and user (table `project_user_totals`), plus the running shifts up to the request's
 * instant. Exact: both parts are numeric seconds, rounded once at the end.
 */
export function projectTotals(ctx: RequestContext, projectId: number): MaybePromise<ProjectTotals> {
  return ctx.loaders.load('projectTotals', projectId, totalsBatch(ctx));
}

/** Reads the totals of many projects in one batch, so the fields of a project list answer at once. */
export function primeProjectTotals(
  ctx: RequestContext,
  projectIds: Iterable<number>,
): Promise<void> {
  return ctx.loaders.prime('projectTotals', projectIds, totalsBatch(ctx));
}

function totalsBatch(ctx: RequestContext) {
  return async (ids: readonly number[]): Promise<ProjectTotals[]> => {
    const projects = `{${ids.join(',')}}`;
    const rows: { project_id: number; grand: string; mine: string }[] = await ctx.em
      .getConnection()
      .execute(
        `select project_id, coalesce(sum(seconds), 0)::bigint as grand, coalesce(sum(seconds) filter (where user_id = ?), 0)::bigint as mine
           from (select project_id, user_id, stopped_seconds as seconds from project_user_totals
                  where account_id = ? and project_id = any(?::int[])
                 union all
                 select project_id, user_id, greatest(0, extract(epoch from (?::timestamptz - start))) from shifts
                  where account_id = ? and stop is null and project_id = any(?::int[])) parts
          group by project_id`,
        [ctx.viewer.id, ctx.viewer.accountId, projects, ctx.now, ctx.viewer.accountId, projects],
        'all',
        ctx.em.getTransactionContext(),
      );
    const byProject = new Map(rows.map((r) => [Number(r.project_id), r]));
    return ids.map((id) => {
      const row = byProject.get(id);
      return { grandTotal: Number(row?.grand ?? 0), runningTotal: Number(row?.mine ?? 0) };
    });
  };
}

/** The viewer's running shift, if any: one query per request, whatever the number of projects. */
export function viewerRunningShift(ctx: RequestContext): MaybePromise<Shift | null> {
  return ctx.loaders.load<string, Shift | null>('viewerRunningShift', 'viewer', async (keys) => {
    const shift = await ctx.em.findOne(Shift, { user: ctx.viewer.id, stop: null });
    return keys.map(() => shift);
  });
}

/** The activities of a project, by name; the activities of every project of the request in one query. */
export function projectActivities(
  ctx: RequestContext,
  projectId: number,
): MaybePromise<Activity[]> {
  return ctx.loaders.children(
    'projectActivities',
    projectId,
    activitiesOf(ctx),
    (a) => a.project.id,
  );
}

/** The users listed for CUSTOM visibility, in the order they were added. */
export function projectUsers(ctx: RequestContext, projectId: number): MaybePromise<Staff[]> {
  return then(
    ctx.loaders.children('projectUsers', projectId, membersOf(ctx), (m) => m.project.id),
    (members) => members.map((m) => m.user.getEntity()),
  );
}

const activitiesOf = (ctx: RequestContext) => (ids: readonly number[]) =>
  findRows(
    ctx.em,
    Activity,
    {},
    { anyOf: { property: 'project', ids }, orderBy: [{ name: 'asc' }, { id: 'asc' }] },
  );

const membersOf = (ctx: RequestContext) => (ids: readonly number[]) =>
  ctx.em.find(
    ProjectMember,
    { project: { $in: [...ids] } },
    { populate: ['user'], orderBy: { id: 'asc' } },
  );

const TOTAL_FIELDS = ['grandTotal', 'runningTotal', 'timeLeft', 'overdue', 'nearlyOverdue'];
const RUNNING_FIELDS = ['running', 'currentShift', 'startedAt'];

/**
 * Reads, one batch each, what the selected fields of a project list need, so that every field of
 * every project then answers synchronously.
 */
export async function primeProjectFields(
  ctx: RequestContext,
  projects: readonly Project[],
  selected: ReadonlySet<string>,
): Promise<void> {
  const ids = projects.map((p) => p.id);
  const has = (...fields: string[]) => fields.some((field) => selected.has(field));
  await Promise.all([
    has(...TOTAL_FIELDS) ? primeProjectTotals(ctx, ids) : undefined,
    has('nearlyOverdue') ? loadById(ctx, Account, ctx.viewer.accountId) : undefined,
    has(...RUNNING_FIELDS) ? viewerRunningShift(ctx) : undefined,
    has('companyId', 'company')
      ? primeById(
          ctx,
          Company,
          projects.map((p) => p.company.id),
        )
      : undefined,
    has('account')
      ? primeById(
          ctx,
          Account,
          projects.map((p) => p.account.id),
        )
      : undefined,
    has('account') ? accountOwner(ctx, ctx.viewer.accountId) : undefined,
    has('activities')
      ? ctx.loaders.primeChildren('projectActivities', ids, activitiesOf(ctx), (a) => a.project.id)
      : undefined,
    has('users')
      ? ctx.loaders.primeChildren('projectUsers', ids, membersOf(ctx), (m) => m.project.id)
      : undefined,
  ]);
}

/**
 * One company's page of the projects the caller sees (`Company.projects`): the projects of every
 * company of the request in one query, with what their nodes select (`nodeFields`, read when the
 * batch runs) primed in one batch each.
 */
export async function companyProjects(
  ctx: RequestContext,
  companyId: number,
  page: PageRequest,
  filter: ProjectFilter | undefined,
  order: OrderSpec[] | undefined,
  nodeFields: () => ReadonlySet<string>,
): Promise<ConnectionShape<Project>> {
  const list = {
    entity: 'Project' as const,
    entityClass: Project,
    parent: 'company' as const,
    where: [
      compileFilter('Project', filter as never, PROJECT_FILTER_FIELDS),
      await projectVisibilityWhere(ctx),
    ],
    order,
    prime: (projects: Project[]) => primeProjectFields(ctx, projects, nodeFields()),
  };
  return childPage(
    ctx,
    list,
    `companyProjects:${JSON.stringify([filter, order])}`,
    companyId,
    page,
  );
}
