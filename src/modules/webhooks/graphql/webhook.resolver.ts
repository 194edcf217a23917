import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../../core/request-context';
import { listComplexity } from '../../paging/graphql';
import { Webhook, WebhookDelivery, type WebhookWithSecret } from '../webhook.entity';
import {
  CreateWebhookInput,
  DeleteWebhookInput,
  ReplayWebhookDeliveryInput,
  RotateWebhookSecretInput,
  UpdateWebhookInput,
} from './webhook.inputs';
import {
  CreateWebhookPayload,
  DeleteWebhookPayload,
  ReplayWebhookDeliveryPayload,
  RotateWebhookSecretPayload,
  UpdateWebhookPayload,
} from './webhook.payloads';
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

  @Mutation(() => CreateWebhookPayload, {
    description: 'Registers a webhook (owner only); its signing secret is shown only here.',
  })
  createWebhook(
    @Arg('input', () => CreateWebhookInput, { description: 'The URL and the events to send.' })
    input: CreateWebhookInput,
    @Ctx() ctx: RequestContext,
  ): Promise<WebhookWithSecret> {
    return this.service.create(ctx, input);
  }

  @Mutation(() => UpdateWebhookPayload, {
    description: 'Changes a webhook (owner only); omitted fields keep their value.',
  })
  async updateWebhook(
    @Arg('input', () => UpdateWebhookInput, { description: 'The webhook and its changes.' })
    { webhookId, patch }: UpdateWebhookInput,
    @Ctx() ctx: RequestContext,
  ): Promise<UpdateWebhookPayload> {
    return { webhook: await this.service.update(ctx, webhookId, patch) };
  }

  @Mutation(() => DeleteWebhookPayload, {
    description: 'Deletes a webhook and its deliveries (owner only).',
  })
  async deleteWebhook(
    @Arg('input', () => DeleteWebhookInput, { description: 'The webhook to delete.' })
    { webhookId }: DeleteWebhookInput,
    @Ctx() ctx: RequestContext,
  ): Promise<DeleteWebhookPayload> {
    const webhook = await this.service.delete(ctx, webhookId);
    return { deletedWebhookId: webhook.uuid, webhook };
  }

  @Mutation(() => RotateWebhookSecretPayload, {
    description: 'Gives a webhook a new signing secret, shown only here (owner only).',
  })
  rotateWebhookSecret(
    @Arg('input', () => RotateWebhookSecretInput, { description: 'The webhook.' })
    { webhookId }: RotateWebhookSecretInput,
    @Ctx() ctx: RequestContext,
  ): Promise<WebhookWithSecret> {
    return this.service.rotateSecret(ctx, webhookId);
  }

  @Mutation(() => ReplayWebhookDeliveryPayload, {
    description:
      'Sends a delivery again at the next poll, with a new timestamp and the same event id (owner only).',
  })
  async replayWebhookDelivery(
    @Arg('input', () => ReplayWebhookDeliveryInput, { description: 'The delivery.' })
    { deliveryId }: ReplayWebhookDeliveryInput,
    @Ctx() ctx: RequestContext,
  ): Promise<ReplayWebhookDeliveryPayload> {
    return { delivery: await this.service.replay(ctx, deliveryId) };
  }
}
