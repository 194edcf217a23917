export { OutboxSender } from './outbox-sender';
