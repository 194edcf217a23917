import type { Knex } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/request-context';
import { isListedSnapshotVisible, type SqlCondition } from '../rule-forms';
import { intArray } from '../paging';
import {
  CASCADE_LIST_MAX,
  type Cascaded,
  type DeletionCascade,
  type ShiftCascadeRoot,
  type ShiftCascades,
} from '../writes';
import { companyVisibilitySql } from '../companies';
import { projectVisibilitySql } from '../projects';
import { projectListings, type ShiftEvents, type SnapshotRow } from './shift-events';
import { isDeletedShiftVisible, shiftVisibilitySql } from './shift.policy';

/** Gathers a cascade's objects the caller may see: the first CASCADE_LIST_MAX, and the count. */
class Gathered {
  private readonly ids: string[] = [];
  private count = 0;

  add(uuid: string): void {
    this.count += 1;
    if (this.ids.length < CASCADE_LIST_MAX) this.ids.push(uuid);
  }

  done(): Cascaded {
    return { ids: this.ids, count: this.count };
  }
}

const NONE: Cascaded = { ids: [], count: 0 };

/**
 * The shifts' side of the cascades of other objects (common's ShiftCascades): the events of every
 * shift a deletion or a detached activity reaches, written set-based (ShiftEvents reads and hands
 * on a chunk of shifts per statement), and what the mutation's payload names. Rows are locked
 * before they are read, so what the events and the payload name is exactly what the change does.
 */
export class ShiftCascadeRecorder implements ShiftCascades {
  constructor(private readonly events: ShiftEvents) {}

  async deleting(tx: RequestContext, root: ShiftCascadeRoot): Promise<DeletionCascade> {
    const viewer = tx.viewer;
    // The rows whose deletion cascades, locked as the delete would lock them, now: a shift
    // inserted meanwhile (its foreign key takes a KEY SHARE lock) waits for this transaction and
    // then fails, rather than being deleted unannounced.
    const projectsOf =
      'company' in root
        ? { sql: 'p.company_id = ?', params: [root.company] }
        : 'project' in root
          ? { sql: 'p.id = ?', params: [root.project] }
          : undefined;
    const accountId = viewer.accountId;
    if ('company' in root)
      await this.run(tx, 'select id from companies where account_id = ? and id = ? for update', [
        accountId,
        root.company,
      ]);
    if ('user' in root)
      await this.run(tx, 'select id from users where account_id = ? and id = ? for update', [
        accountId,
        root.user,
      ]);
    const projects = projectsOf
      ? await this.run<{ id: number; uuid: string }>(
          tx,
          `select p.id, p.uuid from projects p
            where p.account_id = ? and ${projectsOf.sql} order by p.id for update`,
          [accountId, ...projectsOf.params],
        )
      : [];
    const listings = await projectListings(
      tx.em,
      new Map(projects.map((row) => [row.id, accountId])),
    );
    const listedVisible = (projectId: number) => {
      const listed = listings.get(projectId);
      return listed ? isListedSnapshotVisible(viewer, listed) : Promise.resolve(false);
    };

    const deletedProjects = new Gathered();
    const deletedActivities = new Gathered();
    if ('company' in root)
      for (const row of projects) if (await listedVisible(row.id)) deletedProjects.add(row.uuid);
    if (projects.length > 0) {
      const activities = await this.run<{ id: number; uuid: string; project_id: number }>(
        tx,
        'select id, uuid, project_id from activities where account_id = ? and project_id = any(?::int[]) order by id',
        [accountId, intArray(projects.map((row) => row.id))],
      );
      for (const row of activities)
        if (await listedVisible(row.project_id)) deletedActivities.add(row.uuid);
    }

    const deletedShifts = new Gathered();
    const [condition, params] =
      'user' in root
        ? ['s.user_id = ?', [root.user]]
        : ['s.project_id = any(?::int[])', [intArray(projects.map((row) => row.id))]];
    let touchedByTime: number[] = [];
    await this.events.recordWhere(tx.em, 'SHIFT_DELETED', accountId, condition, params, {
      lock: true,
      seen: async (chunk: readonly SnapshotRow[]) => {
        for (const { snapshot, listed } of chunk) {
          const visible = await isDeletedShiftVisible(
            viewer,
            { userId: snapshot.userLegacyId },
            () => (listed ? isListedSnapshotVisible(viewer, listed) : Promise.resolve(false)),
          );
          if (visible) deletedShifts.add(snapshot.id);
        }
        if ('user' in root)
          touchedByTime = touchedByTime.concat(chunk.map((r) => r.snapshot.projectLegacyId));
      },
    });

    const touched = 'user' in root ? await this.touchedBy(tx, root.user, touchedByTime) : undefined;
    return {
      projects: deletedProjects.done(),
      activities: deletedActivities.done(),
      shifts: deletedShifts.done(),
      touchedProjects: touched?.projects ?? NONE,
      touchedCompanies: touched?.companies ?? NONE,
    };
  }

  async detachingActivity(tx: RequestContext, activityRowId: number): Promise<Cascaded> {
    // New references to the activity wait for this transaction (their KEY SHARE lock), then fail.
    const accountId = tx.viewer.accountId;
    await this.run(tx, 'select id from activities where account_id = ? and id = ? for update', [
      accountId,
      activityRowId,
    ]);
    const detached = await this.run<{ id: number }>(
      tx,
      'update shifts set activity_id = null where account_id = ? and activity_id = ? returning id',
      [accountId, activityRowId],
    );
    if (detached.length === 0) return NONE;
    const ids = intArray(detached.map((row) => row.id));
    await this.events.recordWhere(
      tx.em,
      'SHIFT_UPDATED',
      accountId,
      's.id = any(?::int[])',
      [ids],
      {
        lock: false,
      },
    );
    const knex = tx.em.getKnex();
    const visible = await shiftVisibilitySql(tx, knex, 's');
    const rows = await this.run<{ id: number; uuid: string }>(
      tx,
      knex.raw(
        `select s.id, s.uuid from shifts s where s.account_id = ? and s.id = any(?::int[])${visible ? ' and ?' : ''} order by s.id`,
        visible ? [accountId, ids, visible.condition] : [accountId, ids],
      ),
    );
    const gathered = new Gathered();
    for (const row of rows) gathered.add(row.uuid);
    return gathered.done();
  }

  /**
   * The projects and companies a deleted user leaves changed, as far as the caller sees them:
   * those whose time they had (`projectIds`), whose CUSTOM list named them, or which they created
   * (the creator is forgotten).
   */
  private async touchedBy(
    tx: RequestContext,
    userId: number,
    projectIds: readonly number[],
  ): Promise<{ projects: Cascaded; companies: Cascaded }> {
    const knex = tx.em.getKnex();
    const accountId = tx.viewer.accountId;
    const ofProjects = await projectVisibilitySql(tx, knex, 'p.id');
    const ofCompanies = await companyVisibilitySql(tx, knex, 'c.id');
    const projects = await this.run<{ id: number; uuid: string }>(
      tx,
      knex.raw(
        `select p.id, p.uuid from projects p
          where p.account_id = ? and (p.id = any(?::int[]) or p.created_by_id = ?
                 or p.id in (select m.project_id from project_members m where m.account_id = ? and m.user_id = ?))${and(ofProjects)}
          order by p.id`,
        [
          accountId,
          intArray([...new Set(projectIds)]),
          userId,
          accountId,
          userId,
          ...bound(ofProjects),
        ],
      ),
    );
    const companies = await this.run<{ id: number; uuid: string }>(
      tx,
      knex.raw(
        `select c.id, c.uuid from companies c
          where c.account_id = ? and (c.created_by_id = ? or c.id in (select m.company_id from company_members m where m.account_id = ? and m.user_id = ?))${and(ofCompanies)}
          order by c.id`,
        [accountId, userId, accountId, userId, ...bound(ofCompanies)],
      ),
    );
    const gather = (rows: readonly { id: number; uuid: string }[]) => {
      const gathered = new Gathered();
      for (const row of rows) gathered.add(row.uuid);
      return gathered.done();
    };
    return { projects: gather(projects), companies: gather(companies) };
  }

  private run<T = unknown>(
    tx: RequestContext,
    query: string | Knex.Raw,
    params: readonly unknown[] = [],
  ): Promise<T[]> {
    return tx.em
      .getConnection()
      .execute<T[]>(query as string, params as unknown[], 'all', tx.em.getTransactionContext());
  }
}

function and(condition: SqlCondition): string {
  return condition ? ' and ?' : '';
}

function bound(condition: SqlCondition): Knex.Raw[] {
  return condition ? [condition.condition] : [];
}
