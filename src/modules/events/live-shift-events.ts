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

/**
 * Each message is the events of one change (a cascade's may be thousands), not one event: a
 * subscriber's queue holds at most 1024 messages (Repeater's limit, past which publishing throws),
 * and the subscription takes a message's events one at a time (`eventsOf`).
 */
function createShiftEventsPubSub() {
  return createPubSub<{ [SHIFT_EVENTS_TOPIC]: [accountId: number, events: ShiftEvent[]] }>();
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
  /** Events other processes announced, published together at the end of the current tick. */
  private heard: ShiftEvent[] = [];

  constructor(
    private readonly orm: MikroORM,
    private readonly listener: NotificationListener | undefined,
    private readonly log: Logger,
  ) {
    listener?.on(CHANNEL, (payload) => this.received(payload));
  }

  readonly sink: ShiftEventSink = async (em: EntityManager, events: readonly ShiftEvent[]) => {
    const transaction = em.getTransactionContext() as object | undefined;
    if (!transaction) {
      this.publish([...events]);
      return;
    }
    const list = this.pending.get(transaction) ?? [];
    list.push(...events);
    this.pending.set(transaction, list);
    if (this.listener && events.length > 0) {
      // One statement for the change's events, however many (a cascade's): one NOTIFY each.
      await em
        .getConnection()
        .execute(
          'select pg_notify(?, e.n) from jsonb_array_elements_text(?::jsonb) as e(n)',
          [CHANNEL, JSON.stringify(events.map((event) => notification(this.source, event)))],
          'all',
          transaction,
        );
    }
  };

  start(): void {
    this.orm.em.getEventManager().registerSubscriber({
      afterTransactionCommit: ({ transaction }: TransactionEventArgs) => {
        const events = transaction && this.pending.get(transaction);
        if (events) this.publish(events);
      },
      afterTransactionRollback: ({ transaction }: TransactionEventArgs) => {
        if (transaction) this.pending.delete(transaction);
      },
    });
  }

  /** One message per account (a change's events all belong to one). */
  private publish(events: readonly ShiftEvent[]): void {
    const byAccount = new Map<number, ShiftEvent[]>();
    for (const event of events) {
      const list = byAccount.get(event.accountId) ?? [];
      list.push(event);
      byAccount.set(event.accountId, list);
    }
    for (const [accountId, list] of byAccount)
      this.pubSub.publish(SHIFT_EVENTS_TOPIC, accountId, list);
  }

  /** A notification carries one event; those arriving together (a cascade's) go out as one message. */
  private received(payload: string): void {
    try {
      const { source, event } = JSON.parse(payload) as Notification;
      if (source === this.source) return;
      if (this.heard.length === 0)
        setImmediate(() => {
          const events = this.heard;
          this.heard = [];
          this.publish(events);
        });
      this.heard.push(event);
    } catch (error) {
      this.log.error({ err: error }, 'live events: unreadable notification');
    }
  }
}

/**
 * The NOTIFY payload; notes, then tags, then a deletion's project listing (subscribers then apply
 * the live rule) give way when the event would pass PostgreSQL's limit.
 */
function notification(source: string, event: ShiftEvent): string {
  const shift = event.shift;
  const shapes: ShiftEvent[] = [
    event,
    { ...event, shift: { ...shift, notes: null } },
    { ...event, shift: { ...shift, notes: null, tagList: [] } },
    { ...event, shift: { ...shift, notes: null, tagList: [] }, listed: null },
  ];
  let text = '';
  for (const shape of shapes) {
    text = JSON.stringify({ source, event: shape } satisfies Notification);
    if (Buffer.byteLength(text) <= PAYLOAD_MAX_BYTES) break;
  }
  return text;
}
