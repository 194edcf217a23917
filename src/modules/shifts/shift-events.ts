import type { EntityManager } from '@mikro-orm/postgresql';

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
}

/**
 * Something that hears of shift events inside the transaction of the change, so what it writes
 * (a NOTIFY, an outbox row) exists exactly when the change commits.
 */
export type ShiftEventSink = (em: EntityManager, event: ShiftEvent) => Promise<void>;

/** Records shift events: reads the shift's snapshot in the change's transaction and hands it to every sink. */
export class ShiftEvents {
  constructor(private readonly sinks: readonly ShiftEventSink[]) {}

  /** Call after the change is flushed (or, for a deletion, before the row goes). */
  async record(em: EntityManager, kind: ShiftEventKind, shiftRowId: number): Promise<void> {
    if (this.sinks.length === 0) return;
    const shift = await readSnapshot(em, shiftRowId);
    const event: ShiftEvent = {
      kind,
      accountId: shift.accountId,
      occurredAt: new Date().toISOString(),
      shift: shift.snapshot,
    };
    for (const sink of this.sinks) await sink(em, event);
  }
}

interface SnapshotRow {
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

async function readSnapshot(
  em: EntityManager,
  shiftRowId: number,
): Promise<{ accountId: number; snapshot: ShiftSnapshot }> {
  const rows = await em.getConnection().execute<SnapshotRow[]>(
    `select s.account_id, s.id, s.uuid, p.uuid as project_uuid, p.id as project_id, c.uuid as company_uuid,
            u.uuid as user_uuid, u.id as user_id, a.uuid as activity_uuid,
            s.start, s.stop, s.time_zone, s.billable, s.notes, s.tag_list
       from shifts s
       join projects p on p.id = s.project_id
       join companies c on c.id = p.company_id
       join users u on u.id = s.user_id
       left join activities a on a.id = s.activity_id
      where s.id = ?`,
    [shiftRowId],
    'all',
    em.getTransactionContext(),
  );
  const row = rows[0];
  if (!row) throw new Error(`shift ${shiftRowId} vanished inside its own transaction`);
  return {
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
  };
}
