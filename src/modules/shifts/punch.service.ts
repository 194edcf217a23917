import { z } from 'zod';
import { DomainRuleError, ValidationError } from '../../core/errors';
import type { RequestContext } from '../../core/request-context';
import { assertTimeRoom } from '../accounts';
import { accountSecondsUsed } from './time-used';
import { Activity } from '../activities';
import { declaredInputs } from '../common';
import { idempotentTransaction, lockRow, locatorWhere, validate, type Locator } from '../writes';
import type { ShiftEvents } from './shift-events';
import { Shift } from './shift.entity';
import { shiftsStoppedBy } from './shift.service';
import { Staff } from '../staff';
import { Project, type ProjectService } from '../projects';
import type { PunchInFields } from './shift.changes';

/** What a punch changed, for the answer: a client cache updates every object in it. */
export interface PunchResult {
  /** The project punched in to or out of. */
  readonly project: Project;
  /** The shift the punch started (punch-in) or stopped (punch-out). */
  readonly shift: Shift;
  /** The caller's other shifts a punch-in stopped: their projects' totals changed too. */
  readonly stoppedShifts: readonly Shift[];
}

/** What a punch writes of the shift: its notes and, punching in, its tags. */
const punched = declaredInputs(Shift, ['notes', 'tagList']);
const punchInSchema = z.object({
  activityId: z.string().nullish(),
  activityLegacyId: z.number().nullish(),
  notes: punched.notes.nullish(),
  tagList: punched.tagList.nullish(),
});
const notesSchema = punched.notes.nullish();

/**
 * Punching in starts a running shift for the caller and stops their other running shift at the
 * same instant; punching out stops it. The caller's row lock serialises concurrent punches of one
 * user, and the partial unique index on running shifts backs it up.
 */
export class PunchService {
  constructor(
    private readonly projects: ProjectService,
    private readonly events: ShiftEvents,
  ) {}

  async punchIn(
    ctx: RequestContext,
    projectLocator: Locator,
    input: PunchInFields = {},
    companyLocator?: Locator,
  ): Promise<PunchResult> {
    const data = validate('Project', punchInSchema, input);
    // The key remembers the started shift; the project and the stopped shift follow from it.
    const act = {
      name: 'punchIn',
      request: { projectLocator, input, companyLocator },
      entityClass: Shift,
      entity: 'Shift',
    } as const;
    let stopped: Shift[] | undefined;
    const shift = await idempotentTransaction(ctx, act, async (tx) => {
      stopped = undefined; // a retried attempt starts again
      const project = await this.projects.get(tx, projectLocator, companyLocator);
      if (!project.active)
        throw new DomainRuleError(
          'PROJECT_INACTIVE',
          'Project',
          'This project is inactive and cannot be punched in to',
        );
      let activity: Activity | null = null;
      if (data.activityId != null || data.activityLegacyId != null) {
        const named = locatorWhere(
          'Activity',
          { id: data.activityId ?? null, legacyId: data.activityLegacyId ?? null },
          { of: 'Project', names: ['activityId', 'activityLegacyId'] },
        );
        activity = await tx.em.findOne(Activity, { ...named, project: project.id });
        if (!activity)
          throw ValidationError.field('Project', 'activityId', 'is not an activity of the project');
      }
      await lockRow(tx.em, 'users', tx.viewer.accountId, tx.viewer.id);
      const running = await tx.em.findOne(
        Shift,
        { user: tx.viewer.id, stop: null },
        { refresh: true },
      );
      if (running?.project.id === project.id) {
        throw new DomainRuleError(
          'PUNCHED_IN',
          'Project',
          'You are already punched in to this project',
        );
      }
      await assertTimeRoom(tx.em, tx.viewer.accountId, { seconds: 0, starting: true }, () =>
        accountSecondsUsed(tx.em, tx.viewer.accountId, tx.now),
      );
      // The old shift stops at the very instant the new one starts; that instant is read after the
      // lock and is never before the old start, so shifts never overlap and stop > start holds.
      const now = instantAfter(running?.start);
      if (running) {
        running.stop = now;
        await tx.em.flush();
        await this.events.record(tx.em, 'PUNCHED_OUT', tx.viewer.accountId, running.id);
      }
      stopped = running ? [running] : [];
      const user = await tx.em.findOneOrFail(Staff, tx.viewer.id);
      const shift = tx.em.create(Shift, {
        account: tx.viewer.accountId,
        project,
        user,
        activity,
        start: now,
        stop: null,
        timeZone: user.timeZone,
        billable: project.billableByDefault,
        notes: data.notes ?? null,
        tagList: [...new Set([...project.defaultTags, ...(data.tagList ?? [])])],
      });
      await tx.em.flush();
      await this.events.record(tx.em, 'PUNCHED_IN', tx.viewer.accountId, shift.id);
      return shift;
    });
    return {
      project: await shift.project.loadOrFail(),
      shift,
      // A replay did not run the work: what the first punch stopped ends where its shift starts.
      stoppedShifts: stopped ?? (await shiftsStoppedBy(ctx.em, shift)),
    };
  }

  async punchOut(
    ctx: RequestContext,
    projectLocator: Locator,
    notes?: string | null,
    companyLocator?: Locator,
  ): Promise<PunchResult> {
    const text = validate('Project', notesSchema, notes);
    // The key remembers the stopped shift; the project follows from it.
    const act = {
      name: 'punchOut',
      request: { projectLocator, notes, companyLocator },
      entityClass: Shift,
      entity: 'Shift',
    } as const;
    const shift = await idempotentTransaction(ctx, act, async (tx) => {
      const project = await this.projects.get(tx, projectLocator, companyLocator);
      await lockRow(tx.em, 'users', tx.viewer.accountId, tx.viewer.id);
      const running = await tx.em.findOne(
        Shift,
        { user: tx.viewer.id, stop: null, project: project.id },
        { refresh: true },
      );
      if (!running)
        throw new DomainRuleError(
          'PUNCHED_OUT',
          'Project',
          'You are not punched in to this project',
        );
      running.stop = instantAfter(running.start);
      if (text) running.notes = running.notes ? `${running.notes}\n${text}` : text;
      await tx.em.flush();
      await this.events.record(tx.em, 'PUNCHED_OUT', tx.viewer.accountId, running.id);
      return running;
    });
    return { project: await shift.project.loadOrFail(), shift, stoppedShifts: [shift] };
  }
}

/** Now, or just after `start` when a clock step or a future-dated start would make it earlier. */
function instantAfter(start: Date | undefined): Date {
  return new Date(Math.max(Date.now(), (start?.getTime() ?? 0) + 1));
}
