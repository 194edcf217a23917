/**
 * The outbox sender: claims due messages and delivers e-mail and webhooks with retries. Imports
 * outbox and webhooks. Other modules and the layers above use nothing of it but what this file
 * exports.
 */
export { OutboxSender } from './outbox-sender';
