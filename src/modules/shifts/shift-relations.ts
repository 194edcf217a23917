import type { RequestContext } from '../../core/request-context';
import { primeById } from '../common';
import { Activity } from '../activities';
import { Project, primeVisibleProjects } from '../projects';
import { Staff } from '../staff';
import type { Shift } from './shift.entity';

/**
 * Reads the projects, users and activities a list of shifts renders, one batch each: which of the
 * projects the caller sees (`project`, `activity`), the rows behind the ids (`projectId`,
 * `activityId`), the users.
 */
export async function primeShiftRelations(
  ctx: RequestContext,
  shifts: readonly Shift[],
  selected: ReadonlySet<string>,
): Promise<void> {
  const projectIds = shifts.map((s) => s.project.id);
  const activityIds = shifts.flatMap((s) => (s.activity ? [s.activity.id] : []));
  await Promise.all([
    // Deciding which projects the caller sees reads their rows, which `projectId` needs too.
    selected.has('project') || selected.has('activity')
      ? primeVisibleProjects(ctx, projectIds)
      : selected.has('projectId')
        ? primeById(ctx, Project, projectIds)
        : undefined,
    selected.has('user')
      ? primeById(
          ctx,
          Staff,
          shifts.map((s) => s.user.id),
        )
      : undefined,
    selected.has('activity') || selected.has('activityId')
      ? primeById(ctx, Activity, activityIds)
      : undefined,
  ]);
}
