/**
 * What the webhook service takes to make or change a webhook, as plain types: the GraphQL inputs
 * implement them, so the service serves every interface the same shape and imports nothing of
 * GraphQL.
 */
import type { ShiftEventKind } from '../shifts';

/** A new webhook: where to send which kinds of shift event. */
export interface NewWebhook {
  url: string;
  eventKinds: ShiftEventKind[];
  description?: string | null;
  active?: boolean | null;
}

/** A change to a webhook: omitted fields keep their value. */
export interface WebhookChanges {
  url?: string | null;
  eventKinds?: ShiftEventKind[] | null;
  description?: string | null;
  active?: boolean | null;
}
