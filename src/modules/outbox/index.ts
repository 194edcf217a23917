export {
  MAX_ATTEMPTS,
  OutboxMessage,
  type EmailPayload,
  type WebhookPayload,
} from './outbox-message.entity';
