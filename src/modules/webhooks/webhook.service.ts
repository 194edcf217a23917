import { randomBytes } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { NotFoundError, ValidationError } from '../../core/errors';
import type { RequestContext } from '../../core/request-context';
import { Account } from '../accounts';
import { isUuid } from '../ids';
import {
  findByUuids,
  assignDefined,
  fields,
  findLocated,
  inTransaction,
  lockRow,
  validate,
} from '../writes';
import { SHIFT_EVENT_KINDS } from '../shifts';
import { OutboxMessage, type WebhookPayload, MAX_ATTEMPTS } from '../outbox';
import { Webhook, WebhookDelivery, type WebhookWithSecret } from './webhook.entity';
import { isPublicAddress } from './public-addresses';
import { assertMayManageWebhooks } from './webhook.policy';
import type { NewWebhook, WebhookChanges } from './webhook.changes';

/** Per account: enough for every integration a small team runs, few enough to deliver promptly. */
export const MAX_WEBHOOKS = 20;
export const MAX_DELIVERIES_PAGE = 100;

const url = fields
  .text(2048)
  .refine(
    (s) => URL.canParse(s) && ['http:', 'https:'].includes(new URL(s).protocol),
    'must be an absolute http or https URL',
  );
const eventKinds = z
  .array(z.enum(SHIFT_EVENT_KINDS))
  .min(1, 'must name at least one event')
  .transform((kinds) => [...new Set(kinds)]);

const createSchema = z.object({
  url,
  eventKinds,
  description: fields.text().nullish(),
  active: z.boolean().nullish(),
});
const updateSchema = z.object({
  url: url.nullish(),
  eventKinds: eventKinds.nullish(),
  description: fields.text().nullish(),
  active: z.boolean().nullish(),
});

/**
 * Refuses a URL whose host is a non-public address written out (an IP literal or `localhost`),
 * unless WEBHOOK_ALLOW_PRIVATE_ADDRESSES. A name that resolves to one is refused at delivery,
 * by the delivery's agent, after the lookup: that is the guard; this is the early, clear answer.
 */
function assertPublicUrl(ctx: RequestContext, url: string): void {
  if (ctx.config.outbox.webhookAllowPrivateAddresses) return;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (
    /^localhost\.?$/i.test(host) ||
    host.toLowerCase().endsWith('.localhost') ||
    (ipaddr.isValid(host) && !isPublicAddress(host))
  ) {
    throw ValidationError.field(
      'Webhook',
      'url',
      'must reach a public address (not loopback, private or link-local)',
    );
  }
}

/** A Standard Webhooks secret: `whsec_` and 24 random bytes in base64 (the HMAC key is the bytes). */
function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * Webhooks and their deliveries. Only the account owner registers, reads and changes them: a
 * webhook sends every shift of the account to its URL, whatever the visibility of the shifts.
 */
export class WebhookService {
  async list(ctx: RequestContext): Promise<Webhook[]> {
    assertMayManageWebhooks(ctx.viewer, 'read');
    return ctx.em.find(Webhook, {}, { orderBy: { id: 'asc' } });
  }

  async get(ctx: RequestContext, id: string): Promise<Webhook> {
    assertMayManageWebhooks(ctx.viewer, 'read');
    return findLocated(ctx.em, Webhook, 'Webhook', { id });
  }

  /** The webhooks among `ids` (lower-case uuids) that `get` would answer, in one statement: for `nodes`. */
  async getMany(ctx: RequestContext, ids: readonly string[]): Promise<Map<string, Webhook>> {
    assertMayManageWebhooks(ctx.viewer, 'read');
    return findByUuids(ctx.em, Webhook, ids);
  }

  async create(ctx: RequestContext, input: NewWebhook): Promise<WebhookWithSecret> {
    assertMayManageWebhooks(ctx.viewer, 'create');
    const data = validate('Webhook', createSchema, input);
    assertPublicUrl(ctx, data.url);
    return inTransaction(ctx, async (tx) => {
      // Under the account's lock, so concurrent creates cannot pass the maximum together.
      await lockRow(tx.em, 'accounts', tx.viewer.accountId);
      if ((await tx.em.count(Webhook, {})) >= MAX_WEBHOOKS) {
        throw ValidationError.field(
          'Webhook',
          'url',
          `cannot be added: an account has at most ${MAX_WEBHOOKS} webhooks`,
        );
      }
      const secret = newSecret();
      const webhook = tx.em.create(Webhook, {
        account: tx.em.getReference(Account, tx.viewer.accountId),
        url: data.url,
        eventKinds: data.eventKinds,
        secret,
        active: data.active ?? true,
        description: data.description ?? null,
      });
      await tx.em.flush();
      return { webhook, secret };
    });
  }

  async update(ctx: RequestContext, id: string, input: WebhookChanges): Promise<Webhook> {
    assertMayManageWebhooks(ctx.viewer, 'update');
    const data = validate('Webhook', updateSchema, input);
    if (data.url) assertPublicUrl(ctx, data.url);
    const webhook = await findLocated(ctx.em, Webhook, 'Webhook', { id });
    assignDefined(webhook, {
      url: data.url ?? undefined,
      eventKinds: data.eventKinds ?? undefined,
      active: data.active ?? undefined,
      description: data.description,
    });
    await ctx.em.flush();
    return webhook;
  }

  /** Deletes the webhook with its deliveries, pending ones included (the outbox rows cascade). */
  async delete(ctx: RequestContext, id: string): Promise<Webhook> {
    assertMayManageWebhooks(ctx.viewer, 'delete');
    const webhook = await findLocated(ctx.em, Webhook, 'Webhook', { id });
    await ctx.em.remove(webhook).flush();
    return webhook;
  }

  /** A new secret at once: deliveries from now on are signed with it, retries included. */
  async rotateSecret(ctx: RequestContext, id: string): Promise<WebhookWithSecret> {
    assertMayManageWebhooks(ctx.viewer, 'update');
    const webhook = await findLocated(ctx.em, Webhook, 'Webhook', { id });
    webhook.secret = newSecret();
    await ctx.em.flush();
    return { webhook, secret: webhook.secret };
  }

  /** The webhook's latest deliveries, newest first. */
  async deliveries(
    ctx: RequestContext,
    webhookId: string,
    first: number,
  ): Promise<WebhookDelivery[]> {
    const webhook = await this.get(ctx, webhookId);
    if (!Number.isInteger(first) || first < 1 || first > MAX_DELIVERIES_PAGE) {
      throw ValidationError.field(
        'Webhook',
        'first',
        `must be between 1 and ${MAX_DELIVERIES_PAGE}`,
      );
    }
    const rows = await ctx.em.find(
      OutboxMessage,
      { kind: 'webhook', webhookId: webhook.id },
      { orderBy: { id: 'desc' }, limit: first },
    );
    return rows.map(toDelivery);
  }

  /**
   * Sends a delivery again, soon (the sender's next poll), whatever became of it: attempts start
   * over and a new timestamp is signed; the event id and body stay the same, so a receiver that
   * already has the event can tell.
   */
  async replay(ctx: RequestContext, deliveryId: string): Promise<WebhookDelivery> {
    assertMayManageWebhooks(ctx.viewer, 'update');
    const message = await this.findDelivery(ctx, deliveryId);
    Object.assign(message, {
      attempts: 0,
      availableAt: new Date(),
      sentAt: null,
      lastError: null,
      lastStatus: null,
    });
    await ctx.em.flush();
    return toDelivery(message);
  }

  /** One delivery by its id (`node(id:)`), to the owner as the list is. */
  async getDelivery(ctx: RequestContext, deliveryId: string): Promise<WebhookDelivery> {
    assertMayManageWebhooks(ctx.viewer, 'read');
    return toDelivery(await this.findDelivery(ctx, deliveryId));
  }

  /** The deliveries among `ids` (lower-case uuids) that `get` would answer, in one statement: for `nodes`. */
  async getDeliveries(
    ctx: RequestContext,
    ids: readonly string[],
  ): Promise<Map<string, WebhookDelivery>> {
    assertMayManageWebhooks(ctx.viewer, 'read');
    const found = await findByUuids(ctx.em, OutboxMessage, ids, { kind: 'webhook' });
    return new Map([...found].map(([id, message]) => [id, toDelivery(message)]));
  }

  private async findDelivery(ctx: RequestContext, deliveryId: string): Promise<OutboxMessage> {
    const message = isUuid(deliveryId)
      ? await ctx.em.findOne(OutboxMessage, { uuid: deliveryId.toLowerCase(), kind: 'webhook' })
      : null;
    if (!message) throw new NotFoundError('Webhook', 'Webhook delivery not found');
    return message;
  }
}

function toDelivery(message: OutboxMessage): WebhookDelivery {
  const payload = message.payload as WebhookPayload;
  const done = message.sentAt !== null || message.attempts >= MAX_ATTEMPTS;
  return Object.assign(new WebhookDelivery(), {
    id: message.uuid,
    eventId: payload.eventId,
    kind: payload.kind,
    createdAt: message.createdAt,
    attempts: message.attempts,
    lastStatus: message.lastStatus,
    lastError: message.lastError,
    deliveredAt: message.sentAt,
    nextAttemptAt: done ? null : message.availableAt,
  });
}
