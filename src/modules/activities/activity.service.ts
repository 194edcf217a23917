import { z } from 'zod';
import type { RequestContext } from '../../core/request-context';
import type { OrderSpec } from '../../core/list-shapes';
import { declaredInputs } from '../common';
import { declaredWhere, type ListSource } from '../paging';
import {
  findByUuids,
  idempotentTransaction,
  assertUuidFree,
  fields,
  findLocated,
  inTransaction,
  validate,
  type Cascaded,
  type Locator,
  type ShiftCascades,
} from '../writes';
import { projectVisibilityWhere, type ProjectService } from '../projects';
import { Activity } from './activity.entity';
import { assertMayWriteActivity } from './activity.policy';
import type { ActivityChanges, NewActivity } from './activity.changes';

const { name } = declaredInputs(Activity, ['name']);
const updateSchema = z.object({ name: name.optional() });
const createSchema = z.object({
  id: fields.uuid().nullish(),
  name,
  projectId: z.string().nullish(),
  projectLegacyId: z.number().nullish(),
});

/** Activities are readable where their project is visible; owners and managers manage them. */
export class ActivityService {
  constructor(
    private readonly projects: ProjectService,
    private readonly cascades: ShiftCascades,
  ) {}

  async get(ctx: RequestContext, locator: Locator, projectLocator?: Locator): Promise<Activity> {
    const project = projectLocator ? await this.projects.get(ctx, projectLocator) : undefined;
    return findLocated(ctx.em, Activity, 'Activity', locator, {
      extraWhere: project
        ? { project: project.id }
        : { project: await projectVisibilityWhere(ctx) },
    });
  }

  /** The activities among `ids` (lower-case uuids) that `get` would answer, in one statement: for `nodes`. */
  async getMany(ctx: RequestContext, ids: readonly string[]): Promise<Map<string, Activity>> {
    return findByUuids(ctx.em, Activity, ids, { project: await projectVisibilityWhere(ctx) });
  }

  /** The activities the caller may list by the filter and order (and project), before paging. */
  async listSource(
    ctx: RequestContext,
    filter: object | undefined,
    order: OrderSpec[] | undefined,
    projectLocator?: Locator,
  ): Promise<ListSource<Activity>> {
    const project = projectLocator ? await this.projects.get(ctx, projectLocator) : undefined;
    const where = {
      $and: [
        declaredWhere(ctx.viewer, 'Activity', Activity, filter, order),
        project ? { project: project.id } : { project: await projectVisibilityWhere(ctx) },
      ],
    };
    return { entityClass: Activity, entity: 'Activity', where, order };
  }

  async create(ctx: RequestContext, input: NewActivity): Promise<Activity> {
    const data = validate('Activity', createSchema, input);
    const act = {
      name: 'createActivity',
      request: input,
      entityClass: Activity,
      entity: 'Activity',
    } as const;
    return idempotentTransaction(ctx, act, async (tx) => {
      const project = await this.projects.get(
        tx,
        { id: data.projectId ?? null, legacyId: data.projectLegacyId ?? null },
        undefined,
        'Activity',
      );
      assertMayWriteActivity(tx.viewer, 'create');
      if (data.id) await assertUuidFree(tx.em, 'Activity', data.id);
      const activity = tx.em.create(Activity, {
        name: data.name,
        project,
        account: tx.viewer.accountId,
        ...(data.id ? { uuid: data.id } : {}),
      });
      await tx.em.flush();
      return activity;
    });
  }

  async update(
    ctx: RequestContext,
    locator: Locator,
    input: ActivityChanges,
    projectLocator?: Locator,
  ): Promise<Activity> {
    const data = validate('Activity', updateSchema, input);
    return inTransaction(ctx, async (tx) => {
      const activity = await this.get(tx, locator, projectLocator);
      assertMayWriteActivity(tx.viewer, 'update');
      if (data.name !== undefined) activity.name = data.name;
      await tx.em.flush();
      return activity;
    });
  }

  /** Deletes an activity; answers it as it was and the shifts that named it (they no longer do). */
  async delete(
    ctx: RequestContext,
    locator: Locator,
    projectLocator?: Locator,
  ): Promise<{ activity: Activity; shifts: Cascaded }> {
    return inTransaction(ctx, async (tx) => {
      const activity = await this.get(tx, locator, projectLocator);
      assertMayWriteActivity(tx.viewer, 'delete');
      // Shifts keep their time; they just no longer name the activity. Detached here rather than
      // by the foreign key (ON DELETE SET NULL), so each change is announced (events, webhooks).
      const shifts = await this.cascades.detachingActivity(tx, activity.id);
      await tx.em.nativeDelete(Activity, { id: activity.id });
      return { activity, shifts };
    });
  }
}
