import { Field, ID, InputType } from 'type-graphql';
import type { ShiftEventKind } from '../../shifts';
import { ShiftEventKindEnum } from '../../events/graphql';
import type { NewWebhook, WebhookChanges } from '../webhook.changes';

@InputType({ description: 'A webhook to register.' })
export class CreateWebhookInput implements NewWebhook {
  @Field(() => String, { description: 'An absolute http(s) URL.' })
  url!: string;

  @Field(() => [ShiftEventKindEnum], { description: 'The events to send; at least one.' })
  eventKinds!: ShiftEventKind[];

  @Field(() => String, {
    nullable: true,
    description: 'A note on what it is for, at most 255 characters.',
  })
  description?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Default true.' })
  active?: boolean | null;
}

@InputType({ description: 'Omitted fields keep their value.' })
export class WebhookInput implements WebhookChanges {
  @Field(() => String, {
    nullable: true,
    description: 'An absolute http(s) URL; null keeps the stored one.',
  })
  url?: string | null;

  @Field(() => [ShiftEventKindEnum], {
    nullable: true,
    description: 'The events to send, at least one; null keeps the stored ones.',
  })
  eventKinds?: ShiftEventKind[] | null;

  @Field(() => String, {
    nullable: true,
    description: 'A note on what it is for, at most 255 characters; null clears it.',
  })
  description?: string | null;

  @Field(() => Boolean, {
    nullable: true,
    description: 'An inactive webhook gets no new deliveries; null keeps the stored value.',
  })
  active?: boolean | null;
}

@InputType({ description: 'Changes a webhook (owner only).' })
export class UpdateWebhookInput {
  @Field(() => ID, { description: 'The webhook (its `id`).' })
  webhookId!: string;
  @Field(() => WebhookInput, {
    description: 'The fields to change; omitted ones keep their value.',
  })
  patch!: WebhookInput;
}

@InputType({ description: 'Deletes a webhook and its deliveries (owner only).' })
export class DeleteWebhookInput {
  @Field(() => ID, { description: 'The webhook (its `id`).' })
  webhookId!: string;
}

@InputType({ description: 'Gives a webhook a new signing secret (owner only).' })
export class RotateWebhookSecretInput {
  @Field(() => ID, { description: 'The webhook (its `id`).' })
  webhookId!: string;
}

@InputType({ description: 'Sends a delivery again (owner only).' })
export class ReplayWebhookDeliveryInput {
  @Field(() => ID, { description: 'The delivery (its `id`).' })
  deliveryId!: string;
}
