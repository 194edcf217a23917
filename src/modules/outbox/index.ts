/**
 * The transactional outbox: the message table, written in the transaction of the change it
 * announces. Imports accounts. Other modules and the layers above use nothing of it but what this
 * file exports.
 */
import type { ModuleDefinition } from '../../core/module-definition';
import { OutboxMessage } from './outbox-message.entity';
import { OutboxMigration } from './migrations/20261122000000-outbox.migration';
export {
  MAX_ATTEMPTS,
  OutboxMessage,
  type EmailPayload,
  type WebhookPayload,
} from './outbox-message.entity';

/** What the module adds to the process (entities and migrations); src/modules/index.ts lists it. */
export const OUTBOX_MODULE = {
  name: 'outbox',
  entities: [OutboxMessage],
  migrations: [{ name: '20261122000000-outbox', class: OutboxMigration }],
} as const satisfies ModuleDefinition;
