import type { EntityManager } from '@mikro-orm/postgresql';
import type { ListedSnapshot } from '../rule-forms';
import { intArray } from '../paging';

/** What can happen to a shift that apps (subscriptions) and integrations (webhooks) hear about. */
export const SHIFT_EVENT_KINDS = [
  'PUNCHED_IN',
  'PUNCHED_OUT',
  'SHIFT_CREATED',
  'SHIFT_UPDATED',
  'SHIFT_DELETED',
] as const;
export type ShiftEventKind = (typeof SHIFT_EVENT_KINDS)[number];

/** The shift as it was when the event happened (after the change; before it, for a deletion). */
export interface ShiftSnapshot {
  id: string;
  legacyId: number;
  projectId: string;
  projectLegacyId: number;
  companyId: string;
  userId: string;
  userLegacyId: number;
  activityId: string | null;
  /** ISO 8601 instants. */
  start: string;
  stop: string | null;
  timeZone: string;
  billable: boolean;
  notes: string | null;
  tagList: string[];
}

export interface ShiftEvent {
  kind: ShiftEventKind;
  accountId: number;
  /** ISO 8601: when the change was made. */
  occurredAt: string;
  shift: ShiftSnapshot;
  /**
   * For a deletion, the shift's project as its visibility rule read it then (as a tombstone keeps
   * it): the project may be gone with the shift (a project or company deleted) by the time a
   * subscriber is asked whether they may hear of it.
   */
  listed?: ListedSnapshot | null;
}

/**
 * Something that hears of shift events inside the transaction of the change, so what it writes
 * (a NOTIFY, an outbox row) exists exactly when the change commits. It gets the events of one
 * change together (a cascade's may be thousands) and writes them with a number of statements that
 * does not grow with their number.
 */
export type ShiftEventSink = (em: EntityManager, events: readonly ShiftEvent[]) => Promise<void>;

/** Shifts whose snapshots are read at once: what one round of the sinks' statements carries. */
const CHUNK = 1000;

/**
 * Records shift events: reads the shifts' snapshots in the change's transaction, a chunk of rows
 * per statement, and hands them to every sink.
 */
export class ShiftEvents {
  constructor(private readonly sinks: readonly ShiftEventSink[]) {}

  /** Call after the change is flushed (or, for a deletion, before the row goes). */
  async record(
    em: EntityManager,
    kind: ShiftEventKind,
    accountId: number,
    shiftRowId: number,
  ): Promise<void> {
    if (this.sinks.length === 0) return;
    const snapshots = await readSnapshots(em, accountId, 's.id = ?', [shiftRowId], { afterId: 0 });
    if (snapshots.length === 0)
      throw new Error(`shift ${shiftRowId} vanished inside its own transaction`);
    await this.emit(em, kind, new Date().toISOString(), snapshots);
  }

  /**
   * The events of every shift of the account matching `condition` (SQL over `shifts s`), in chunks; each chunk's
   * snapshots also go to `seen`, whether or not anyone listens. `lock`: the rows are locked as they
   * are read (FOR UPDATE), so that a deletion's events name exactly the shifts it deletes.
   */
  async recordWhere(
    em: EntityManager,
    kind: ShiftEventKind,
    accountId: number,
    condition: string,
    params: readonly unknown[],
    options: { lock: boolean; seen?: (chunk: readonly SnapshotRow[]) => void | Promise<void> },
  ): Promise<void> {
    const occurredAt = new Date().toISOString();
    for (let afterId = 0; ;) {
      const chunk = await readSnapshots(em, accountId, condition, params, {
        afterId,
        limit: CHUNK,
        lock: options.lock,
        listed: kind === 'SHIFT_DELETED',
      });
      if (chunk.length === 0) return;
      await options.seen?.(chunk);
      await this.emit(em, kind, occurredAt, chunk);
      if (chunk.length < CHUNK) return;
      afterId = chunk[chunk.length - 1]!.snapshot.legacyId;
    }
  }

  private async emit(
    em: EntityManager,
    kind: ShiftEventKind,
    occurredAt: string,
    rows: readonly SnapshotRow[],
  ): Promise<void> {
    if (this.sinks.length === 0) return;
    const events = rows.map((row): ShiftEvent => ({
      kind,
      accountId: row.accountId,
      occurredAt,
      shift: row.snapshot,
      ...(row.listed !== undefined ? { listed: row.listed } : {}),
    }));
    for (const sink of this.sinks) await sink(em, events);
  }
}

/** A shift's snapshot with what the rules that decide who hears of it need. */
export interface SnapshotRow {
  accountId: number;
  snapshot: ShiftSnapshot;
  /** Read for deletions only (undefined otherwise): the project as its visibility rule reads it. */
  listed?: ListedSnapshot | null;
}

interface Row {
  account_id: number;
  id: number;
  uuid: string;
  project_uuid: string;
  project_id: number;
  company_uuid: string;
  user_uuid: string;
  user_id: number;
  activity_uuid: string | null;
  start: Date | string;
  stop: Date | string | null;
  time_zone: string;
  billable: boolean;
  notes: string | null;
  tag_list: string[];
}

/**
 * The snapshots of the account's shifts matching `condition`, by integer id after `afterId`: one statement,
 * and for deletions one more for the listings of their projects (`tombstone_listing`, the sync
 * migration's function, so a deletion's event and its tombstone keep the same).
 */
async function readSnapshots(
  em: EntityManager,
  accountId: number,
  condition: string,
  params: readonly unknown[],
  options: { afterId: number; limit?: number; lock?: boolean; listed?: boolean },
): Promise<SnapshotRow[]> {
  const transaction = em.getTransactionContext();
  const rows = await em.getConnection().execute<Row[]>(
    `select s.account_id, s.id, s.uuid, p.uuid as project_uuid, p.id as project_id, c.uuid as company_uuid,
            u.uuid as user_uuid, u.id as user_id, a.uuid as activity_uuid,
            s.start, s.stop, s.time_zone, s.billable, s.notes, s.tag_list
       from shifts s
       join projects p on p.account_id = s.account_id and p.id = s.project_id
       join companies c on c.account_id = s.account_id and c.id = p.company_id
       join users u on u.account_id = s.account_id and u.id = s.user_id
       left join activities a on a.account_id = s.account_id and a.id = s.activity_id
      where s.account_id = ? and (${condition}) and s.id > ?
      order by s.id${options.limit ? ` limit ${options.limit}` : ''}${options.lock ? ' for update of s' : ''}`,
    [accountId, ...params, options.afterId],
    'all',
    transaction,
  );
  const listings =
    options.listed && rows.length > 0
      ? await projectListings(em, new Map(rows.map((row) => [row.project_id, row.account_id])))
      : undefined;
  return rows.map((row) => ({
    accountId: row.account_id,
    snapshot: {
      id: row.uuid,
      legacyId: row.id,
      projectId: row.project_uuid,
      projectLegacyId: row.project_id,
      companyId: row.company_uuid,
      userId: row.user_uuid,
      userLegacyId: row.user_id,
      activityId: row.activity_uuid,
      start: new Date(row.start).toISOString(),
      stop: row.stop === null ? null : new Date(row.stop).toISOString(),
      timeZone: row.time_zone,
      billable: row.billable,
      notes: row.notes,
      tagList: row.tag_list,
    },
    ...(listings ? { listed: listings.get(row.project_id) ?? null } : {}),
  }));
}

/**
 * The listings of projects (their accounts by id) as their tombstones keep them
 * (`tombstone_listing`), read in a statement of their own: on Citus the function's reads run from
 * the coordinator, never from a statement already on a worker.
 */
export async function projectListings(
  em: EntityManager,
  projects: ReadonlyMap<number, number>,
): Promise<Map<number, ListedSnapshot | null>> {
  const found = await em
    .getConnection()
    .execute<{ id: number; listed: ListedSnapshot | string | null }[]>(
      `select p.id, tombstone_listing('Project', p.account_id, p.id) as listed
         from unnest(?::int[], ?::int[]) as p(id, account_id)`,
      [intArray([...projects.keys()]), intArray([...projects.values()])],
      'all',
      em.getTransactionContext(),
    );
  return new Map(found.map((row) => [row.id, parseListed(row.listed)]));
}

/** A project's listing as the database answers it: JSON, which a driver may leave as text. */
function parseListed(listed: ListedSnapshot | string | null): ListedSnapshot | null {
  return typeof listed === 'string' ? (JSON.parse(listed) as ListedSnapshot) : listed;
}
