import { ArrayType, Entity, Property } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { DateTimeISOResolver, Node } from '../common';
import { TenantEntity } from '../accounts';
import { ShiftEventKindEnum } from '../events/graphql';
import type { ShiftEventKind } from '../shifts';

/**
 * A URL an account owner registered to hear of shift events. Table `webhooks`. The secret is kept
 * as issued because signing needs it (as for OAuth 1.0a consumers); it is shown once, at creation
 * or rotation, and never read back through the API.
 */
@ObjectType('Webhook', {
  description: 'A URL that receives signed shift events (owner only).',
  implements: Node,
})
@Entity({ tableName: 'webhooks' })
export class Webhook extends TenantEntity<'eventKinds' | 'active'> {
  @Field(() => String, { description: 'The absolute http(s) URL events are POSTed to.' })
  @Property({ type: 'string', length: 2048 })
  url!: string;

  @Field(() => [ShiftEventKindEnum], { description: 'The kinds of shift event sent to it.' })
  @Property({ type: ArrayType })
  eventKinds: ShiftEventKind[] = [];

  @Property({ type: 'string', length: 128, hidden: true })
  secret!: string;

  @Field(() => Boolean, { description: 'An inactive webhook gets no new deliveries.' })
  @Property({ type: 'boolean' })
  active: boolean = true;

  @Field(() => String, { nullable: true, description: "The owner's note on what it is for." })
  @Property({ type: 'string', length: 255, nullable: true })
  description: string | null = null;
}

/** A webhook with its signing secret, which only creating and rotating answer. */
export interface WebhookWithSecret {
  readonly webhook: Webhook;
  readonly secret: string;
}

@ObjectType({
  description: 'One event sent (or to be sent) to a webhook, with the outcome of its attempts.',
  implements: Node,
})
export class WebhookDelivery {
  @Field(() => ID, { description: 'The delivery (`replayWebhookDelivery` takes it).' })
  id!: string;

  @Field(() => ID, { description: 'The event: the same on every attempt (the Webhook-Id header).' })
  eventId!: string;

  @Field(() => ShiftEventKindEnum, { description: 'What happened to the shift.' })
  kind!: ShiftEventKind;

  @Field(() => DateTimeISOResolver, { description: 'When the event was queued for this webhook.' })
  createdAt!: Date;

  @Field(() => Int, { description: 'How many times sending was tried so far.' })
  attempts!: number;

  @Field(() => Int, {
    nullable: true,
    description: 'The HTTP status of the last attempt; null when none answered.',
  })
  lastStatus!: number | null;

  @Field(() => String, {
    nullable: true,
    description:
      'Why the last attempt got no answer (timed out, a socket error code such as ECONNREFUSED, or the address is not allowed); null when it was answered or none was made.',
  })
  lastError!: string | null;

  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'When a 2xx answer was received.',
  })
  deliveredAt!: Date | null;

  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'When the next attempt is due; null once delivered or given up.',
  })
  nextAttemptAt!: Date | null;
}
