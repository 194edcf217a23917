import type { RequestContext } from '../../core/request-context';
import { primeById } from '../common';
import { Activity } from '../activities';
import { Project } from '../projects';
import { Staff } from '../staff';
import type { Shift } from './shift.entity';

/** Reads the projects, users and activities a list of shifts renders, one batch each. */
export async function primeShiftRelations(
  ctx: RequestContext,
  shifts: readonly Shift[],
  selected: ReadonlySet<string>,
): Promise<void> {
  await Promise.all([
    selected.has('project')
      ? primeById(
          ctx,
          Project,
          shifts.map((s) => s.project.id),
        )
      : undefined,
    selected.has('user')
      ? primeById(
          ctx,
          Staff,
          shifts.map((s) => s.user.id),
        )
      : undefined,
    selected.has('activity')
      ? primeById(
          ctx,
          Activity,
          shifts.flatMap((s) => (s.activity ? [s.activity.id] : [])),
        )
      : undefined,
  ]);
}
