import { ref, type EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { BLANK, REQUIRED, ValidationError, type FieldError } from '../../core/errors';
import type { RequestContext } from '../../core/request-context';
import type { OrderSpec } from '../../core/list-shapes';
import { isRowId, isUuid } from '../ids';
import { declaredInputs } from '../common';
import { declaredWhere, type ListSource } from '../paging';
import {
  findByUuids,
  idempotentTransaction,
  assertUuidFree,
  assignDefined,
  fields,
  findLocated,
  inTransaction,
  lockRow,
  validate,
  type Locator,
} from '../writes';
import { parseLocalTime } from './local-time';
import { assertTimeRoom } from '../accounts';
import { accountSecondsUsed } from './time-used';
import { Activity } from '../activities';
import type { Project, ProjectService } from '../projects';
import { Staff } from '../staff';
import type { ShiftEvents } from './shift-events';
import { Shift } from './shift.entity';
import { shiftVisibilityWhere } from './shift.policy';
import { assertMayChangeShift, assertMayLogShiftsOf } from './shift.policy';
import type { NewShift, ShiftChanges } from './shift.changes';

// A 422 lists its field errors in this order.
const shiftFields = {
  ...declaredInputs(Shift, ['start', 'stop']),
  localStartAsString: fields.text().nullable(),
  localStopAsString: fields.text().nullable(),
  ...declaredInputs(Shift, ['timeZone', 'notes', 'billable', 'tagList', 'externalHref']),
  activityId: z.string().nullable(),
  activityLegacyId: z.number().nullable(),
  projectId: z.string().nullable(),
  projectLegacyId: z.number().nullable(),
  userId: z.string().nullable(),
  userLegacyId: z.number().nullable(),
};
const updateSchema = z.object(shiftFields).partial();
const createSchema = updateSchema.extend({ id: fields.uuid().nullish() });
/** What an input says once validated (an update's is the same without `id`). */
type ShiftData = z.output<typeof createSchema>;

/**
 * Shifts: staff members see and change their own; owners and managers see and change everyone's.
 * At most one shift per user runs at a time: a new running shift stops the old one at its start.
 */
export class ShiftService {
  constructor(
    private readonly projects: ProjectService,
    private readonly events: ShiftEvents,
  ) {}

  async get(ctx: RequestContext, locator: Locator, projectLocator?: Locator): Promise<Shift> {
    const project = projectLocator ? await this.projects.get(ctx, projectLocator) : undefined;
    return findLocated(ctx.em, Shift, 'Shift', locator, {
      extraWhere: {
        ...(await shiftVisibilityWhere(ctx)),
        ...(project ? { project: project.id } : {}),
      },
    });
  }

  /** The shifts among `ids` (lower-case uuids) that `get` would answer, in one statement: for `nodes`. */
  async getMany(ctx: RequestContext, ids: readonly string[]): Promise<Map<string, Shift>> {
    return findByUuids(ctx.em, Shift, ids, await shiftVisibilityWhere(ctx));
  }

  /** The shifts the caller may list by the filter and order (and project), before paging. */
  async listSource(
    ctx: RequestContext,
    filter: object | undefined,
    order: OrderSpec[] | undefined,
    projectLocator?: Locator,
  ): Promise<ListSource<Shift>> {
    const project = projectLocator ? await this.projects.get(ctx, projectLocator) : undefined;
    const where = {
      $and: [
        declaredWhere(ctx.viewer, 'Shift', Shift, filter, order),
        await shiftVisibilityWhere(ctx),
        project ? { project: project.id } : {},
      ],
    };
    return {
      entityClass: Shift,
      entity: 'Shift',
      where,
      order,
      rows: { unmanaged: true, selectedColumns: true },
    };
  }

  async create(
    ctx: RequestContext,
    input: NewShift,
    projectLocator?: Locator,
  ): Promise<ShiftChange> {
    const data = validate('Shift', createSchema, input);
    const act = {
      name: 'createShift',
      request: { input, projectLocator },
      entityClass: Shift,
      entity: 'Shift',
    } as const;
    let stopped: Shift[] | undefined;
    const shift = await idempotentTransaction(ctx, act, async (tx) => {
      stopped = undefined; // a retried attempt starts again
      const project = projectLocator
        ? await this.projects.get(tx, projectLocator)
        : await this.projects.get(
            tx,
            { id: data.projectId ?? null, legacyId: data.projectLegacyId ?? null },
            undefined,
            'Shift',
          );
      const user = await this.resolveUser(tx, data, 'create');
      if (data.id) await assertUuidFree(tx.em, 'Shift', data.id);
      const shift = tx.em.create(
        Shift,
        {
          account: tx.viewer.accountId,
          project,
          user,
          timeZone: data.timeZone ?? user.timeZone,
          billable: data.billable ?? project.billableByDefault,
          notes: data.notes ?? null,
          tagList: data.tagList ?? [],
          externalHref: data.externalHref ?? null,
          ...(data.id ? { uuid: data.id } : {}),
        },
        // `start` is set just below, by applyTimes (a typing option only).
        { partial: true },
      );
      await this.applyTimes(tx, shift, data, true);
      const activity = await this.resolveActivity(tx.em, project, data);
      shift.activity = activity ? ref(activity) : null;
      stopped = await this.settle(tx, shift, user.id);
      await this.events.record(tx.em, 'SHIFT_CREATED', tx.viewer.accountId, shift.id);
      return shift;
    });
    // A replay did not run the work: what the first create stopped ends where its shift starts
    // (only a running shift stops another).
    stopped ??= shift.stop === null ? await shiftsStoppedBy(ctx.em, shift) : [];
    return { shift, stoppedShifts: stopped };
  }

  async update(
    ctx: RequestContext,
    locator: Locator,
    input: ShiftChanges,
    projectLocator?: Locator,
  ): Promise<ShiftChange & { readonly previousProjectId: number }> {
    const data = validate('Shift', updateSchema, input);
    return inTransaction(ctx, async (tx) => {
      const shift = await this.get(tx, locator, projectLocator);
      const previousProjectId = shift.project.id;
      assertMayChangeShift(tx.viewer, shift, 'update');
      if (data.projectId != null || data.projectLegacyId != null) {
        shift.project = ref(
          await this.projects.get(
            tx,
            { id: data.projectId ?? null, legacyId: data.projectLegacyId ?? null },
            undefined,
            'Shift',
          ),
        );
      }
      if (data.userId != null || data.userLegacyId != null)
        shift.user = ref(await this.resolveUser(tx, data, 'update'));
      const { timeZone, billable, notes, tagList, externalHref } = data;
      assignDefined(shift, { timeZone, billable, notes, tagList, externalHref });
      await this.applyTimes(tx, shift, data, false);
      if (
        data.activityId !== undefined ||
        data.activityLegacyId !== undefined ||
        data.projectId != null ||
        data.projectLegacyId != null
      ) {
        const project = await shift.project.loadOrFail();
        const activity = await this.resolveActivity(
          tx.em,
          project,
          data,
          shift.activity?.id ?? null,
        );
        shift.activity = activity ? ref(activity) : null;
      }
      const stoppedShifts = await this.settle(tx, shift, shift.user.id);
      await this.events.record(tx.em, 'SHIFT_UPDATED', tx.viewer.accountId, shift.id);
      return { shift, stoppedShifts, previousProjectId };
    });
  }

  async delete(ctx: RequestContext, locator: Locator, projectLocator?: Locator): Promise<Shift> {
    return inTransaction(ctx, async (tx) => {
      const shift = await this.get(tx, locator, projectLocator);
      assertMayChangeShift(tx.viewer, shift, 'delete');
      await this.events.record(tx.em, 'SHIFT_DELETED', tx.viewer.accountId, shift.id);
      await tx.em.nativeDelete(Shift, { id: shift.id });
      return shift;
    });
  }

  private async resolveUser(
    ctx: RequestContext,
    data: ShiftData,
    act: 'create' | 'update',
  ): Promise<Staff> {
    const named = data.userId != null || data.userLegacyId != null;
    const where = named ? idWhere(data.userId, data.userLegacyId) : { id: ctx.viewer.id };
    const user = where ? await ctx.em.findOne(Staff, where) : null;
    if (!user) throw ValidationError.field('Shift', 'userId', 'is not in your staff list');
    assertMayLogShiftsOf(ctx.viewer, user, act);
    return user;
  }

  private async resolveActivity(
    em: EntityManager,
    project: Project,
    data: ShiftData,
    current: number | null = null,
  ): Promise<Activity | null> {
    if (data.activityId === undefined && data.activityLegacyId === undefined) {
      if (current === null) return null;
      const kept = await em.findOne(Activity, { id: current, project: project.id });
      if (!kept)
        throw ValidationError.field('Shift', 'activityId', 'does not belong to the project');
      return kept;
    }
    if (data.activityId == null && data.activityLegacyId == null) return null;
    const where = idWhere(data.activityId, data.activityLegacyId);
    const activity = where ? await em.findOne(Activity, { ...where, project: project.id }) : null;
    if (!activity)
      throw ValidationError.field('Shift', 'activityId', 'is not an activity of the project');
    return activity;
  }

  /** Applies start/stop and their human-text forms, and checks their order. */
  private async applyTimes(
    ctx: RequestContext,
    shift: Shift,
    data: ShiftData,
    creating: boolean,
  ): Promise<void> {
    const errors: FieldError[] = [];
    const zone = shift.timeZone;
    let start = data.start ?? (creating ? undefined : shift.start);
    let stop = data.stop !== undefined ? data.stop : creating ? null : shift.stop;
    if (data.localStartAsString) {
      start = parseLocalTime(data.localStartAsString, zone, ctx.now);
      if (!start)
        errors.push({
          field: 'localStartAsString',
          message: 'is not a time this service can read',
        });
    }
    if (data.localStopAsString) {
      stop = parseLocalTime(data.localStopAsString, zone, ctx.now) ?? null;
      if (!stop)
        errors.push({ field: 'localStopAsString', message: 'is not a time this service can read' });
    }
    if (!start && !errors.some((e) => e.field === 'localStartAsString')) {
      // Never given is a missing parameter; given empty (null) is a blank value.
      errors.push({
        field: 'start',
        message: data.start === undefined && !data.localStartAsString ? REQUIRED : BLANK,
      });
    }
    for (const [field, value] of [
      ['localStartAsString', data.localStartAsString ? start : undefined],
      ['localStopAsString', data.localStopAsString ? stop : undefined],
    ] as const) {
      // A wall time read in the zone keeps to the limits of the instant it stands for.
      const range = value ? shiftFields.start.safeParse(value) : undefined;
      if (range && !range.success) errors.push({ field, message: range.error.issues[0]!.message });
    }
    if (start && stop && stop.getTime() <= start.getTime())
      errors.push({ field: 'stop', message: 'must be after start' });
    if (errors.length > 0) throw new ValidationError('Shift', errors);
    shift.start = start!;
    shift.stop = stop ?? null;
  }

  /**
   * Writes the shift. A running one first stops the user's other running shift at its start; the
   * user's row lock makes this safe under concurrency, and the database's partial unique index is
   * the last word. Then the plan's time maximum is checked. Locks are taken in one order
   * everywhere (the user, then the account), so concurrent writers cannot deadlock.
   */
  private async settle(ctx: RequestContext, shift: Shift, userId: number): Promise<Shift[]> {
    const { em } = ctx;
    await lockRow(em, 'users', ctx.viewer.accountId, userId);
    const stopped: Shift[] = [];
    if (shift.stop === null) {
      const running = await em.findOne(
        Shift,
        { user: userId, stop: null, id: { $ne: shift.id ?? 0 } },
        { refresh: true },
      );
      if (running) {
        if (shift.start.getTime() <= running.start.getTime()) {
          throw ValidationError.field(
            'Shift',
            'start',
            "must be after the start of the user's running shift",
          );
        }
        // Stopped at once in the database: the flush below may write the new running shift
        // before any update, and the one-running-shift index must already be satisfied then.
        await em.nativeUpdate(Shift, { id: running.id }, { stop: shift.start });
        running.stop = shift.start;
        await this.events.record(em, 'SHIFT_UPDATED', ctx.viewer.accountId, running.id);
        stopped.push(running);
      }
    }
    await assertTimeRoom(
      em,
      ctx.viewer.accountId,
      { seconds: enteredSeconds(shift, ctx.now), starting: shift.stop === null },
      () => accountSecondsUsed(em, ctx.viewer.accountId, ctx.now, shift.id),
    );
    await em.flush();
    return stopped;
  }
}

/** What writing a shift changed, for the answer: a client cache updates every object in it. */
interface ShiftChange {
  readonly shift: Shift;
  /** The user's running shift the write stopped (at the shift's start): its project changed too. */
  readonly stoppedShifts: readonly Shift[];
}

/**
 * The shifts of the shift's user that stop where it starts: what starting it stopped, found again
 * when an idempotent replay answers from the first request's shift without running the work.
 */
export function shiftsStoppedBy(em: EntityManager, shift: Shift): Promise<Shift[]> {
  return em.find(Shift, { user: shift.user.id, stop: shift.start, id: { $ne: shift.id } });
}

/** The time a shift counts for: to its stop, or up to now while it runs. */
function enteredSeconds(shift: Shift, now: Date): number {
  return Math.max(0, ((shift.stop ?? now).getTime() - shift.start.getTime()) / 1000);
}

/** The row a uuid or integer id names; undefined when it is malformed and so names no row. */
function idWhere(
  uuid: string | null | undefined,
  legacyId: number | null | undefined,
): { uuid: string } | { id: number } | undefined {
  if (uuid != null) return isUuid(uuid) ? { uuid: uuid.toLowerCase() } : undefined;
  return legacyId != null && isRowId(legacyId) ? { id: legacyId } : undefined;
}
