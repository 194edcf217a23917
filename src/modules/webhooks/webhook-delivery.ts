import { createHmac } from 'node:crypto';
import type { WebhookPayload } from '../outbox/outbox-message.entity';

/** A delivery the receiver did not take: its HTTP status when it answered, null when it did not. */
export class WebhookDeliveryError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

/**
 * The Standard Webhooks signature (https://www.standardwebhooks.com): base64 HMAC-SHA256, keyed
 * with the bytes of the `whsec_` secret, of `<id>.<timestamp>.<body>`, labelled `v1,`.
 */
export function webhookSignature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/**
 * POSTs one delivery, signed with the webhook's current secret and the attempt's timestamp, and
 * answers the 2xx status. Redirects are not followed (a 3xx is a failure: the registered URL is
 * the one that must answer), and the receiver has `timeoutMs` to do so.
 */
export async function postWebhook(target: { url: string; secret: string }, payload: WebhookPayload, timeoutMs: number, now = new Date()): Promise<number> {
  const timestamp = Math.floor(now.getTime() / 1000);
  let res: Response;
  try {
    res = await fetch(target.url, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'timetrack-webhooks/1',
        'webhook-id': payload.eventId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': webhookSignature(target.secret, payload.eventId, timestamp, payload.body),
      },
      body: payload.body,
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    throw new WebhookDeliveryError(`no answer from the receiver: ${cause ?? (error as Error).message}`, null);
  }
  // The body is not needed; reading it frees the connection.
  await res.arrayBuffer().catch(() => undefined);
  if (res.status < 200 || res.status > 299) throw new WebhookDeliveryError(`the receiver answered ${res.status}`, res.status);
  return res.status;
}
