/**
 * The GraphQL side of webhooks: the webhook resolvers. The schema assembly (src/graphql/schema.ts)
 * imports it, and so may another module's graphql/ folder that extends these types; nothing else
 * does.
 */
import { WebhookResolver } from './webhook.resolver';
import type { ResolverRegistration } from '../../../core/module-definition';
import type { WebhookService } from '../webhook.service';

/** Built once per schema from the services they use. */
export const WEBHOOK_RESOLVERS: readonly ResolverRegistration<{ webhooks: WebhookService }>[] = [
  [WebhookResolver, (s) => new WebhookResolver(s.webhooks)],
];
