/**
 * The transactional outbox: the message table, written in the transaction of the change it
 * announces. Imports accounts. Other modules and the layers above use nothing of it but what this
 * file exports.
 */
export {
  MAX_ATTEMPTS,
  OutboxMessage,
  type EmailPayload,
  type WebhookPayload,
} from './outbox-message.entity';
