import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ShiftEvent, ShiftEventSink } from '../shifts';

/**
 * The body every webhook gets for an event (Standard Webhooks layout: type, timestamp, data). It
 * is fixed when the change commits, so every attempt and replay sends and signs the same bytes.
 */
export function webhookBody(eventId: string, event: ShiftEvent): string {
  return JSON.stringify({
    id: eventId,
    type: event.kind,
    timestamp: event.occurredAt,
    data: { shift: event.shift },
  });
}

/** Deliveries written by one INSERT: four parameters each, far below PostgreSQL's limit of them. */
const ROWS_PER_INSERT = 1000;

/**
 * Queues one delivery per active webhook of the event's account that asked for its kind, in the
 * change's transaction, for all the events of the change (a cascade's may be thousands): a
 * rolled-back change delivers nothing, a committed one is never forgotten.
 *
 * The account's webhooks are read first (most accounts have none: one read), and the deliveries
 * inserted from VALUES: on Citus an INSERT … SELECT runs whole on the worker, which cannot draw the
 * rows' integer ids from their sequence; the coordinator draws them for VALUES.
 */
export const webhookSink: ShiftEventSink = async (
  em: EntityManager,
  events: readonly ShiftEvent[],
) => {
  const connection = em.getConnection();
  const transaction = em.getTransactionContext();
  for (const accountId of new Set(events.map((event) => event.accountId))) {
    const hooks = await connection.execute<{ id: number; event_kinds: string[] }[]>(
      'select id, event_kinds from webhooks where account_id = ? and active order by id',
      [accountId],
      'all',
      transaction,
    );
    if (hooks.length === 0) continue;
    const rows: unknown[][] = [];
    for (const event of events) {
      if (event.accountId !== accountId) continue;
      const eventId = randomUUID();
      const payload = JSON.stringify({
        eventId,
        kind: event.kind,
        body: webhookBody(eventId, event),
      });
      for (const hook of hooks)
        if (hook.event_kinds.includes(event.kind)) rows.push([accountId, payload, hook.id]);
    }
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      const chunk = rows.slice(i, i + ROWS_PER_INSERT);
      await connection.execute(
        `insert into outbox (account_id, kind, payload, webhook_id)
         values ${chunk.map(() => "(?, 'webhook', ?::jsonb, ?)").join(', ')}`,
        chunk.flat(),
        'run',
        transaction,
      );
    }
  }
};
