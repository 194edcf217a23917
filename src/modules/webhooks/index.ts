/**
 * Webhooks: the entity, the service, the sink that turns shift events into outbox messages, and
 * the signed delivery of one. Imports accounts, shifts, events (the kind enum) and outbox. Other
 * modules and the layers above use nothing of it but what this file exports.
 */
export { WebhookDeliveryError, postWebhook } from './webhook-delivery';
export { webhookSink } from './webhook-sink';
export { Webhook } from './webhook.entity';
export { WebhookService } from './webhook.service';
export { assertMayManageWebhooks, mayManageWebhooks } from './webhook.policy';
export type { NewWebhook, WebhookChanges } from './webhook.changes';
