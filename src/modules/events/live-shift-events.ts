import { randomUUID } from 'node:crypto';
import { createPubSub } from '@graphql-yoga/subscription';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { TransactionEventArgs } from '@mikro-orm/core';
import type { NotificationListener } from './notification-listener';
import type { Logger } from '../../core/logger';
import type { ShiftEvent, ShiftEventSink } from '../shifts';

export const SHIFT_EVENTS_TOPIC = 'SHIFT_EVENTS';
const CHANNEL = 'timetrack_shift_events';
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more. */
const PAYLOAD_MAX_BYTES = 7900;

export type ShiftEventsPubSub = ReturnType<typeof createShiftEventsPubSub>;

function createShiftEventsPubSub() {
  return createPubSub<{ [SHIFT_EVENTS_TOPIC]: [accountId: number, event: ShiftEvent] }>();
}

interface Notification {
  /** The process that sent it: it has published the event itself already. */
  source: string;
  event: ShiftEvent;
}

/**
 * Shift events for live subscribers. Its sink keeps each event with the transaction of the change,
 * and this process publishes them when that transaction commits (a rolled-back change tells no
 * one). With a PostgreSQL server (a `listener`, the process's one LISTEN connection, which its
 * owner starts and stops), the sink also sends them with NOTIFY, which PostgreSQL delivers at
 * commit too, and the listener publishes what other processes sent. The embedded database serves
 * one process only, so it needs no NOTIFY.
 */
export class LiveShiftEvents {
  readonly pubSub = createShiftEventsPubSub();
  private readonly source = randomUUID();
  private readonly pending = new WeakMap<object, ShiftEvent[]>();

  constructor(
    private readonly orm: MikroORM,
    private readonly listener: NotificationListener | undefined,
    private readonly log: Logger,
  ) {
    listener?.on(CHANNEL, (payload) => this.received(payload));
  }

  readonly sink: ShiftEventSink = async (em: EntityManager, event: ShiftEvent) => {
    const transaction = em.getTransactionContext() as object | undefined;
    if (!transaction) return this.publish(event);
    const list = this.pending.get(transaction) ?? [];
    list.push(event);
    this.pending.set(transaction, list);
    if (this.listener) {
      await em
        .getConnection()
        .execute(
          'select pg_notify(?, ?)',
          [CHANNEL, notification(this.source, event)],
          'all',
          transaction,
        );
    }
  };

  start(): void {
    this.orm.em.getEventManager().registerSubscriber({
      afterTransactionCommit: ({ transaction }: TransactionEventArgs) => {
        for (const event of (transaction && this.pending.get(transaction)) ?? [])
          this.publish(event);
      },
      afterTransactionRollback: ({ transaction }: TransactionEventArgs) => {
        if (transaction) this.pending.delete(transaction);
      },
    });
  }

  private publish(event: ShiftEvent): void {
    this.pubSub.publish(SHIFT_EVENTS_TOPIC, event.accountId, event);
  }

  private received(payload: string): void {
    try {
      const { source, event } = JSON.parse(payload) as Notification;
      if (source !== this.source) this.publish(event);
    } catch (error) {
      this.log.error({ err: error }, 'live events: unreadable notification');
    }
  }
}

/** The NOTIFY payload; notes (then tags) give way when the event would pass PostgreSQL's limit. */
function notification(source: string, event: ShiftEvent): string {
  let text = JSON.stringify({ source, event } satisfies Notification);
  if (Buffer.byteLength(text) > PAYLOAD_MAX_BYTES) {
    text = JSON.stringify({ source, event: { ...event, shift: { ...event.shift, notes: null } } });
  }
  if (Buffer.byteLength(text) > PAYLOAD_MAX_BYTES) {
    text = JSON.stringify({
      source,
      event: { ...event, shift: { ...event.shift, notes: null, tagList: [] } },
    });
  }
  return text;
}
