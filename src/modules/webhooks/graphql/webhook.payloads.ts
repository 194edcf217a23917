import { Field, ID, ObjectType } from 'type-graphql';
import { Webhook, WebhookDelivery, type WebhookWithSecret } from '../webhook.entity';

/** The payload of a mutation that answers a webhook's signing secret, the only time it is shown. */
function WithSecretPayload(name: string, description: string) {
  @ObjectType(name, { description })
  class Payload implements WebhookWithSecret {
    @Field(() => Webhook, { description: 'The webhook.' })
    webhook!: Webhook;

    @Field(() => String, {
      description: 'The signing secret (`whsec_` and base64): keep it; it is not shown again.',
    })
    secret!: string;
  }
  return Payload;
}

export const CreateWebhookPayload = WithSecretPayload(
  'CreateWebhookPayload',
  'What registering a webhook changed, with its signing secret, shown only here.',
);
export const RotateWebhookSecretPayload = WithSecretPayload(
  'RotateWebhookSecretPayload',
  'The webhook with its new signing secret, shown only here; the old one stops working.',
);

@ObjectType({ description: 'What updating a webhook changed.' })
export class UpdateWebhookPayload {
  @Field(() => Webhook, { description: 'The webhook as it is now.' })
  webhook!: Webhook;
}

@ObjectType({ description: 'What deleting a webhook changed: its deliveries are gone too.' })
export class DeleteWebhookPayload {
  @Field(() => ID, { description: 'The id of the deleted webhook: remove it from a client cache.' })
  deletedWebhookId!: string;
  @Field(() => Webhook, { description: 'The webhook as it was before the deletion.' })
  webhook!: Webhook;
}

@ObjectType({ description: 'What replaying a delivery changed.' })
export class ReplayWebhookDeliveryPayload {
  @Field(() => WebhookDelivery, { description: 'The delivery, due again at the next poll.' })
  delivery!: WebhookDelivery;
}
