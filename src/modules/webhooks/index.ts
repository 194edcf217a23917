/**
 * Webhooks: the entity, the service, the sink that turns shift events into outbox messages, and
 * the signed delivery of one. Imports accounts, shifts, events (the kind enum) and outbox. Other
 * modules and the layers above use nothing of it but what this file exports.
 */
import type { ModuleDefinition } from '../../core/module-definition';
import { Webhook } from './webhook.entity';
import { WebhooksMigration } from './migrations/20261127000000-webhooks.migration';
export { WebhookDeliveryError, postWebhook } from './webhook-delivery';
export { webhookSink } from './webhook-sink';
export { Webhook } from './webhook.entity';
export { WebhookService } from './webhook.service';
export { assertMayManageWebhooks, mayManageWebhooks } from './webhook.policy';
export type { NewWebhook, WebhookChanges } from './webhook.changes';

/** What the module adds to the process (entities and migrations); src/modules/index.ts lists it. */
export const WEBHOOKS_MODULE = {
  name: 'webhooks',
  entities: [Webhook],
  migrations: [{ name: '20261127000000-webhooks', class: WebhooksMigration }],
} as const satisfies ModuleDefinition;
