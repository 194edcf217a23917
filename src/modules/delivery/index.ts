/**
 * The outbox sender: claims due messages and delivers e-mail and webhooks with retries. Imports
 * outbox and webhooks. Other modules and the layers above use nothing of it but what this file
 * exports.
 */
import type { ModuleDefinition } from '../../core/module-definition';
export { OutboxSender } from './outbox-sender';

/** The module's place in the order of src/modules/index.ts; it adds no entities or migrations. */
export const DELIVERY_MODULE = {
  name: 'delivery',
} as const satisfies ModuleDefinition;
