import type { RequestContext } from '../../graphql/context';
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
export function projectTotals(ctx: RequestContext, projectId: number): Promise<ProjectTotals> {
  return ctx.loaders
    .get<number, ProjectTotals>('projectTotals', async (ids) => {
      const projects = `{${ids.join(',')}}`;
      const rows: { project_id: number; grand: string; mine: string }[] = await ctx.em.getConnection().execute(
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
    })
    .load(projectId);
}

/** The viewer's running shift, if any: one query per request, whatever the number of projects. */
export function viewerRunningShift(ctx: RequestContext): Promise<Shift | null> {
  return ctx.loaders
    .get<string, Shift | null>('viewerRunningShift', async (keys) => {
      const shift = await ctx.em.findOne(Shift, { user: ctx.viewer.id, stop: null });
      return keys.map(() => shift);
    })
    .load('viewer');
}

