import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import type { WebhookPayload } from '../outbox';
import { isPublicAddress, NoPublicAddressError, publicOnlyLookup } from './public-addresses';

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
export function webhookSignature(
  secret: string,
  id: string,
  timestamp: number,
  body: string,
): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** How deliveries reach receivers. */
export interface DeliveryOptions {
  /** How long the receiver has to answer. */
  readonly timeoutMs: number;
  /**
   * Whether receivers on loopback, private, link-local (cloud metadata) and other non-public
   * addresses may be reached. Off in production: a webhook URL is chosen by a tenant, and the
   * service must not become their way into its own network (SSRF).
   */
  readonly allowPrivateAddresses: boolean;
}

/**
 * Agents that refuse non-public addresses after DNS resolution, so a name cannot rebind around
 * them; `publicOnlyLookup` holds the addresses they resolve to to the stricter rule of
 * isPublicAddress.
 */
const publicOnly = {
  'http:': new RequestFilteringHttpAgent({ keepAlive: true }),
  'https:': new RequestFilteringHttpsAgent({ keepAlive: true }),
};

/**
 * POSTs one delivery, signed with the webhook's current secret and the attempt's timestamp, and
 * answers the 2xx status. Redirects are not followed (a 3xx is a failure: the registered URL is
 * the one that must answer), and the receiver has `timeoutMs` to do so.
 */
export async function postWebhook(
  target: { url: string; secret: string },
  payload: WebhookPayload,
  options: DeliveryOptions,
  now = new Date(),
): Promise<number> {
  const timestamp = Math.floor(now.getTime() / 1000);
  const url = new URL(target.url);
  const send = url.protocol === 'https:' ? https.request : http.request;
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (!options.allowPrivateAddresses && net.isIP(literal) && !isPublicAddress(literal))
    throw noAnswer(new NoPublicAddressError());
  const status = await new Promise<number>((resolve, reject) => {
    let req: http.ClientRequest;
    try {
      req = send(url, {
        method: 'POST',
        ...(options.allowPrivateAddresses
          ? {}
          : { agent: publicOnly[url.protocol as 'http:' | 'https:'], lookup: publicOnlyLookup }),
        signal: AbortSignal.timeout(options.timeoutMs),
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload.body),
          'user-agent': 'timetrack-webhooks/1',
          'webhook-id': payload.eventId,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': webhookSignature(
            target.secret,
            payload.eventId,
            timestamp,
            payload.body,
          ),
        },
      });
    } catch (error) {
      // The guard refuses an address written in the URL synchronously, from inside the request.
      reject(noAnswer(error as Error));
      return;
    }
    req.on('response', (res) => {
      // The body is not needed; reading it frees the connection.
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', (error) => reject(noAnswer(error)));
    });
    req.on('error', (error) => reject(noAnswer(error)));
    req.end(payload.body);
  });
  if (status < 200 || status > 299)
    throw new WebhookDeliveryError(`the receiver answered ${status}`, status);
  return status;
}

/**
 * request-filtering-agent's refusal: "DNS lookup <address>(family:…, host:<name>) is not allowed…".
 * Its text pairs the name with the address it resolved to, so it is never passed on.
 */
const ADDRESS_REFUSED = /^DNS lookup .* is not allowed/;

/**
 * Why a delivery got no answer, in words the account owner may read (`lastError`): a timeout, the
 * socket's error code (ECONNREFUSED, …), or that the host has no public address. Never the
 * error's own text: the guard's names the address a host name resolved to inside the service's
 * network, which would let an owner map internal names (issue 20, finding 13); and a name that
 * does not resolve answers as one that resolves to private addresses, or the difference would
 * tell which internal names exist (issue 33).
 */
function noAnswer(error: Error): WebhookDeliveryError {
  const code = (error as { code?: unknown }).code;
  const reason =
    error.name === 'AbortError' || error.name === 'TimeoutError'
      ? 'timed out'
      : error instanceof NoPublicAddressError || ADDRESS_REFUSED.test(error.message)
        ? new NoPublicAddressError().message
        : typeof code === 'string' && /^[A-Z0-9_]+$/.test(code)
          ? code
          : 'the connection failed';
  return new WebhookDeliveryError(`no answer from the receiver: ${reason}`, null);
}
