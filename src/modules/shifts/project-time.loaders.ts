import type { RequestContext } from '../../core/request-context';
import type { MaybePromise } from '../../core/loaders';
import type { Project } from '../projects';
import { Shift } from './shift.entity';

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
           from (${timeParts('account_id = ? and project_id = any(?::int[])', '?')}) parts
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

/**
 * The seconds worked on each project by each user, as SQL rows (`project_id`, `user_id`,
 * `seconds`) of the projects `condition` picks (it reads the columns of both tables, and its
 * parameters come twice): the kept sums of stopped shifts and the running shifts up to `now`.
 */
function timeParts(condition: string, now: string): string {
  return `select project_id, user_id, stopped_seconds as seconds from project_user_totals where ${condition}
          union all
          select project_id, user_id, greatest(0, extract(epoch from (${now}::timestamptz - start))) from shifts where stop is null and ${condition}`;
}

/**
 * A project's totals as an SQL select list over its id (`project`) in its account: `grand`, every user's
 * seconds, and `mine`, those of `userId`, up to `now` (an SQL expression). What `grandTotal` and
 * `runningTotal` read in reads compiled to SQL: the sums the batch above reads, for one project.
 */
export function projectTotalsSql(
  accountId: number,
  project: string,
  now: string,
  userId: number,
): string {
  return `select coalesce(sum(seconds), 0)::bigint as grand, coalesce(sum(seconds) filter (where user_id = ${Number(userId)}), 0)::bigint as mine
            from (${timeParts(`account_id = ${Number(accountId)} and project_id = ${project}`, now)}) parts`;
}

/** The viewer's running shift, if any: one query per request, whatever the number of projects. */
export function viewerRunningShift(ctx: RequestContext): MaybePromise<Shift | null> {
  return ctx.loaders.load<string, Shift | null>('viewerRunningShift', 'viewer', async (keys) => {
    const shift = await ctx.em.findOne(Shift, { user: ctx.viewer.id, stop: null });
    return keys.map(() => shift);
  });
}

/** Reads ahead the totals of a list of projects (what their total fields answer from). */
export function readProjectTotals(
  ctx: RequestContext,
  projects: readonly Project[],
): Promise<void> {
  return primeProjectTotals(
    ctx,
    projects.map((p) => p.id),
  );
}
