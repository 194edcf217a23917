import type { RequestContext } from '../../core/request-context';
import { primeById } from '../paging';
import { Activity } from '../activities';
import { Project, primeVisibleProjects } from '../projects';
import { Staff } from '../staff';
import type { Shift } from './shift.entity';

/**
 * What the relation fields of a list of shifts read ahead, one batch each (declared at the
 * fields with `@ReadsAhead`).
 */

/** Which of the shifts' projects the caller sees; it reads the projects' rows on the way. */
export const readVisibleProjects = (ctx: RequestContext, shifts: readonly Shift[]) =>
  primeVisibleProjects(
    ctx,
    shifts.map((s) => s.project.id),
  );

/** The rows of the shifts' projects (their uuids). */
export const readProjects = (ctx: RequestContext, shifts: readonly Shift[]) =>
  primeById(
    ctx,
    Project,
    shifts.map((s) => s.project.id),
  );

export const readUsers = (ctx: RequestContext, shifts: readonly Shift[]) =>
  primeById(
    ctx,
    Staff,
    shifts.map((s) => s.user.id),
  );

export const readActivities = (ctx: RequestContext, shifts: readonly Shift[]) =>
  primeById(
    ctx,
    Activity,
    shifts.flatMap((s) => (s.activity ? [s.activity.id] : [])),
  );
