import { Entity, Property } from '@mikro-orm/core';
import { TenantEntity } from '../accounts';

/** After this many failed attempts the sender gives a message up (it stays, for the record). */
export const MAX_ATTEMPTS = 10;

/** What a `webhook` message carries: the event's id and the exact body every attempt signs and sends. */
export interface WebhookPayload {
  eventId: string;
  kind: string;
  body: string;
}

/** What an `email` message carries: the whole e-mail, composed when the change happened. */
export interface EmailPayload {
  to: string;
  subject: string;
  text: string;
}

/**
 * A message waiting in (or done with) the outbox. Table `outbox`.
 *
 * It extends TenantEntity for its columns and for the `tenant` filter, so a request can only ever
 * see its own account's messages. It is deliberately not an @ObjectType: type-graphql registers
 * only decorated classes, so the inherited field decorators add nothing to the schema. The sender
 * reads across accounts with `filters: false`.
 */
@Entity({ tableName: 'outbox' })
export class OutboxMessage extends TenantEntity<'availableAt' | 'attempts'> {
  @Property({ type: 'string', length: 32 })
  kind!: 'email' | 'webhook';

  @Property({ type: 'json' })
  payload!: EmailPayload | WebhookPayload;

  /** The webhook a `webhook` message is a delivery for. */
  @Property({ type: 'integer', nullable: true })
  webhookId: number | null = null;

  /** The HTTP status of the last webhook attempt (null: no answer, or an e-mail). */
  @Property({ type: 'integer', nullable: true })
  lastStatus: number | null = null;

  /** The next attempt is due at this instant (a claim pushes it into the future as a lease). */
  @Property({ type: 'timestamptz' })
  availableAt: Date = new Date();

  @Property({ type: 'integer' })
  attempts: number = 0;

  @Property({ type: 'text', nullable: true })
  lastError: string | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  sentAt: Date | null = null;
}
