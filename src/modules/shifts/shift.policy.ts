import type { Knex } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/request-context';
import { isManagerOrOwner, isOwner, type Viewer } from '../../core/viewer';
import { PermissionDeniedError } from '../../core/errors';
import { TEST_FORM, WHERE_FORM, sqlForm, type RuleForm, type SqlCondition } from '../rule-forms';
import { isProjectUuidVisible, projectVisibilitySql, projectVisibilityWhere } from '../projects';

/**
 * Which shifts a caller sees: the owner every shift; a manager their own and every shift on the
 * projects visible to them; a staff member their own only, whatever the project's visibility
 * (a staff member sees only their own time). Lists, lookups (so another user's shift is 404 to a
 * staff member), reports and live events all apply it.
 */
function shiftVisibility<C>(
  viewer: Viewer,
  form: RuleForm<C>,
  terms: { own: C; onVisibleProject: () => Promise<C> },
): Promise<C> {
  if (isOwner(viewer)) return Promise.resolve(form.always());
  if (isManagerOrOwner(viewer)) return form.anyOf(terms.own, terms.onVisibleProject);
  return Promise.resolve(terms.own);
}

export function shiftVisibilityWhere(ctx: RequestContext): Promise<object> {
  return shiftVisibility(ctx.viewer, WHERE_FORM, {
    own: { user: ctx.viewer.id },
    onVisibleProject: async () => ({ project: await projectVisibilityWhere(ctx) }),
  });
}

/** The rule as an SQL condition on the shifts aliased `shifts` in a hand-written statement. */
export function shiftVisibilitySql(
  ctx: RequestContext,
  knex: Knex,
  shifts: string,
): Promise<SqlCondition> {
  return shiftVisibility(ctx.viewer, sqlForm(knex), {
    own: { condition: knex.raw(`${shifts}.user_id = ?`, [ctx.viewer.id]) },
    onVisibleProject: () => projectVisibilitySql(ctx, knex, `${shifts}.project_id`),
  });
}

/**
 * Whose time a caller sees, as the time rollups can give it (reports/report.service.ts): every
 * shift; or the shifts of the projects the caller sees (each project's every shift) and, besides,
 * their own. The rule above, read as which parts it is made of rather than as a condition.
 */
export interface ShiftScope {
  readonly every: boolean;
  readonly visibleProjects: boolean;
  readonly own: boolean;
}

const NO_SHIFT: ShiftScope = { every: false, visibleProjects: false, own: false };

const SCOPE_FORM: RuleForm<ShiftScope> = {
  always: () => ({ every: true, visibleProjects: true, own: true }),
  async anyOf(first, ...more) {
    let scope = first;
    for (const lazy of more) {
      const part = typeof lazy === 'function' ? await lazy() : lazy;
      if (part)
        scope = {
          every: scope.every || part.every,
          visibleProjects: scope.visibleProjects || part.visibleProjects,
          own: scope.own || part.own,
        };
    }
    return scope;
  },
};

export function shiftScope(viewer: Viewer): Promise<ShiftScope> {
  return shiftVisibility(viewer, SCOPE_FORM, {
    own: { ...NO_SHIFT, own: true },
    onVisibleProject: () => Promise.resolve({ ...NO_SHIFT, visibleProjects: true }),
  });
}

/**
 * The rule for a shift known by the uuids of its user and project (a shift event's snapshot).
 * The project's visibility is read, only when needed, on the context `reading` gives: a caller
 * that lives long (a subscription) renews it there, so a manager who loses a project stops
 * hearing of it.
 */
export function isShiftVisible(
  ctx: RequestContext,
  shift: { readonly userId: string; readonly projectId: string },
  reading: () => RequestContext = () => ctx,
): Promise<boolean> {
  return shiftVisibility(ctx.viewer, TEST_FORM, {
    own: shift.userId === ctx.viewer.uuid,
    onVisibleProject: () => isProjectUuidVisible(reading(), shift.projectId),
  });
}

/**
 * The rule for a deleted shift, as its tombstone keeps it (docs/sync.md): its user's integer id,
 * and its project as it was when the shift went (`projectVisible` answers the project's rule
 * over that snapshot, since the project may be gone too).
 */
export function isDeletedShiftVisible(
  viewer: Viewer,
  shift: { readonly userId: number },
  projectVisible: () => Promise<boolean>,
): Promise<boolean> {
  return shiftVisibility(viewer, TEST_FORM, {
    own: shift.userId === viewer.id,
    onVisibleProject: projectVisible,
  });
}

/**
 * Whose time a caller records (creates, moves, changes or deletes shifts of): the owner's and the
 * managers' anyone's, a staff member's their own only. Punching in and out is always the caller's
 * own (PunchService), so needs no rule.
 */
export function mayLogShiftsOf(viewer: Viewer, userId: number): boolean {
  return isManagerOrOwner(viewer) || userId === viewer.id;
}

/** Refuses a shift for `user` (created, or moved to them) `mayLogShiftsOf` denies. */
export function assertMayLogShiftsOf(
  viewer: Viewer,
  user: { readonly id: number },
  act: 'create' | 'update',
): void {
  if (!mayLogShiftsOf(viewer, user.id))
    throw new PermissionDeniedError(
      act,
      'Shift',
      `${act === 'create' ? 'Create' : 'Update'} denied: you may only log your own shifts`,
    );
}

/** Who changes or deletes a shift: whoever may log the time of its user. */
export function mayChangeShift(
  viewer: Viewer,
  shift: { readonly user: { readonly id: number } },
): boolean {
  return mayLogShiftsOf(viewer, shift.user.id);
}

export function assertMayChangeShift(
  viewer: Viewer,
  shift: { readonly user: { readonly id: number } },
  act: 'update' | 'delete',
): void {
  if (!mayChangeShift(viewer, shift)) throw new PermissionDeniedError(act, 'Shift');
}
