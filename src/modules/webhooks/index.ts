export { WebhookResolver } from './graphql/webhook.resolver';
export { WebhookDeliveryError, postWebhook } from './webhook-delivery';
export { webhookSink } from './webhook-sink';
export { Webhook } from './webhook.entity';
export { WebhookService } from './webhook.service';
