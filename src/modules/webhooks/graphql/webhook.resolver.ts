import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../../core/request-context';
import { listComplexity } from '../../common';
import { Webhook, WebhookDelivery, WebhookWithSecret } from '../webhook.entity';
import { CreateWebhookInput, UpdateWebhookInput } from './webhook.inputs';
import { MAX_DELIVERIES_PAGE, MAX_WEBHOOKS, type WebhookService } from '../webhook.service';

@Resolver(() => Webhook)
export class WebhookResolver {
  constructor(private readonly service: WebhookService) {}

  @Query(() => [Webhook], {
    nullable: true,
    description: "The account's webhooks (owner only).",
    complexity: listComplexity(MAX_WEBHOOKS),
  })
  webhooks(@Ctx() ctx: RequestContext): Promise<Webhook[]> {
    return this.service.list(ctx);
  }

  @Query(() => [WebhookDelivery], {
    nullable: true,
    description: "A webhook's latest deliveries, newest first (owner only).",
    complexity: listComplexity(MAX_DELIVERIES_PAGE),
  })
  webhookDeliveries(
    @Arg('webhookId', () => ID, { description: 'The webhook (its `id`).' }) webhookId: string,
    @Arg('first', () => Int, { defaultValue: 20, description: `At most ${MAX_DELIVERIES_PAGE}.` })
    first: number,
    @Ctx() ctx: RequestContext,
  ): Promise<WebhookDelivery[]> {
    return this.service.deliveries(ctx, webhookId, first);
  }

  @Mutation(() => WebhookWithSecret, {
    description: 'Registers a webhook (owner only); its signing secret is shown only here.',
  })
  createWebhook(
    @Arg('input', () => CreateWebhookInput, { description: 'The URL and the events to send.' })
    input: CreateWebhookInput,
    @Ctx() ctx: RequestContext,
  ): Promise<WebhookWithSecret> {
    return this.service.create(ctx, input);
  }

  @Mutation(() => Webhook, {
    description: 'Changes a webhook (owner only); omitted fields keep their value.',
  })
  updateWebhook(
    @Arg('id', () => ID, { description: 'The webhook (its `id`).' }) id: string,
    @Arg('input', () => UpdateWebhookInput, { description: 'The fields to change.' })
    input: UpdateWebhookInput,
    @Ctx() ctx: RequestContext,
  ): Promise<Webhook> {
    return this.service.update(ctx, id, input);
  }

  @Mutation(() => Webhook, { description: 'Deletes a webhook and its deliveries (owner only).' })
  deleteWebhook(
    @Arg('id', () => ID, { description: 'The webhook (its `id`).' }) id: string,
    @Ctx() ctx: RequestContext,
  ): Promise<Webhook> {
    return this.service.delete(ctx, id);
  }

  @Mutation(() => WebhookWithSecret, {
    description: 'Gives a webhook a new signing secret, shown only here (owner only).',
  })
  rotateWebhookSecret(
    @Arg('id', () => ID, { description: 'The webhook (its `id`).' }) id: string,
    @Ctx() ctx: RequestContext,
  ): Promise<WebhookWithSecret> {
    return this.service.rotateSecret(ctx, id);
  }

  @Mutation(() => WebhookDelivery, {
    description:
      'Sends a delivery again at the next poll, with a new timestamp and the same event id (owner only).',
  })
  replayWebhookDelivery(
    @Arg('id', () => ID, { description: 'The delivery (its `id`).' }) id: string,
    @Ctx() ctx: RequestContext,
  ): Promise<WebhookDelivery> {
    return this.service.replay(ctx, id);
  }
}
