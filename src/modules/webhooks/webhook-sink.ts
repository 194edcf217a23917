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

/**
 * Queues one delivery per active webhook of the event's account that asked for its kind, with one
 * statement in the change's transaction for all the events of the change (a cascade's may be
 * thousands): a rolled-back change delivers nothing, a committed one is never forgotten.
 */
export const webhookSink: ShiftEventSink = async (
  em: EntityManager,
  events: readonly ShiftEvent[],
) => {
  if (events.length === 0) return;
  const payloads = events.map((event) => {
    const eventId = randomUUID();
    return {
      eventId,
      accountId: event.accountId,
      kind: event.kind,
      body: webhookBody(eventId, event),
    };
  });
  await em.getConnection().execute(
    `insert into outbox (account_id, kind, payload, webhook_id)
     select w.account_id, 'webhook', e.payload - 'accountId', w.id
       from jsonb_array_elements(?::jsonb) with ordinality as e(payload, n)
       join webhooks w on w.account_id = (e.payload->>'accountId')::int and w.active
                       and (e.payload->>'kind') = any (w.event_kinds)
      order by e.n, w.id`,
    [JSON.stringify(payloads)],
    'run',
    em.getTransactionContext(),
  );
};
