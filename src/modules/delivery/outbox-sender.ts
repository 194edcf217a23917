import fs from 'node:fs/promises';
import path from 'node:path';
import { LockMode, type EntityManager, type MikroORM } from '@mikro-orm/postgresql';
import { createTransport } from 'nodemailer';
import type { Config } from '../../core/config';
import { lastResortLogger, type Logger } from '../../core/logger';
import { postWebhook, WebhookDeliveryError, Webhook } from '../webhooks';
import { MAX_ATTEMPTS, OutboxMessage, type EmailPayload, type WebhookPayload } from '../outbox';

const BATCH_SIZE = 20;
const BACKOFF_BASE_MS = 5_000;
const BACKOFF_MAX_MS = 60 * 60_000;
/**
 * How long a claimed message stays hidden from other senders (other processes on the same
 * database) while this one delivers it. Longer than a batch of SMTP timeouts can take, so two
 * senders do not both deliver it; if this process dies mid-batch, the message becomes due again.
 */
const LEASE_MS = 15 * 60_000;

export interface DrainResult {
  claimed: number;
  sent: number;
  failed: number;
}

type Deliver = (message: OutboxMessage) => Promise<void>;

/**
 * Delivers what the outbox holds: polls every OUTBOX_POLL_MS, claims due messages, sends each e-mail
 * over SMTP (or writes it to DATA_DIR/outbox without SMTP_URL) and POSTs each webhook delivery, and
 * records the outcome. Delivery is at
 * least once: a message is marked sent only after the transport accepted it.
 */
export class OutboxSender {
  private readonly deliver: Deliver;
  private readonly closeTransport: () => void;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Drains run one after another, whether the timer or a caller (tests) asked for them. */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly orm: MikroORM,
    private readonly config: Config['outbox'],
    // The process logger (the server passes the app's); there is no request to take one from.
    private readonly log: Logger = lastResortLogger(),
  ) {
    ({ deliver: this.deliver, close: this.closeTransport } = createDelivery(config));
  }

  start(): void {
    const tick = async () => {
      try {
        // A full batch means more may be waiting: go on at once instead of after a poll interval.
        let result: DrainResult;
        do result = await this.drainOnce();
        while (!this.stopped && result.claimed === BATCH_SIZE);
      } catch (error) {
        this.log.error({ err: error }, 'outbox: drain failed');
      }
      if (!this.stopped) this.timer = setTimeout(tick, this.config.pollMs);
    };
    this.timer = setTimeout(tick, this.config.pollMs);
  }

  /** Stops polling and waits for a drain in progress, so the database can close after it. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.tail;
    this.closeTransport();
  }

  /**
   * Claims and handles one batch of due messages. `now` is the instant the drain acts at (tests
   * pass a later one to skip a backoff); it defaults to the moment the drain starts.
   */
  drainOnce(now?: Date): Promise<DrainResult> {
    const run = this.tail.then(() => this.drain(now ?? new Date()));
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async deliverWebhook(em: EntityManager, message: OutboxMessage): Promise<number> {
    return postWebhook(await webhookTarget(em, message), message.payload as WebhookPayload, {
      timeoutMs: this.config.webhookTimeoutMs,
      allowPrivateAddresses: this.config.webhookAllowPrivateAddresses,
    });
  }

  private async drain(now: Date): Promise<DrainResult> {
    // Its own fork: no request's identity map, and no tenant (every account's messages).
    const em = this.orm.em.fork({ clear: true, useContext: false });
    const messages = await claim(em, now);
    const result: DrainResult = { claimed: messages.length, sent: 0, failed: 0 };
    for (const message of messages) {
      try {
        if (message.kind === 'webhook') message.lastStatus = await this.deliverWebhook(em, message);
        else await this.deliver(message);
        message.sentAt = new Date();
        message.lastError = null;
        result.sent += 1;
      } catch (error) {
        if (error instanceof WebhookDeliveryError) message.lastStatus = error.status;
        message.attempts += 1;
        message.lastError = String((error as Error)?.message ?? error).slice(0, 2000);
        message.availableAt = new Date(now.getTime() + backoffMs(message.attempts));
        result.failed += 1;
        if (message.attempts >= MAX_ATTEMPTS) {
          this.log.error(
            {
              messageUuid: message.uuid,
              kind: message.kind,
              attempts: message.attempts,
              lastError: message.lastError,
            },
            `outbox: giving up on message ${message.uuid} after ${message.attempts} attempts`,
          );
        }
      }
      // One message at a time: an outcome is recorded even if a later delivery hangs or crashes.
      await em.flush();
    }
    return result;
  }
}

/** Reads the webhook at delivery time, so a changed URL or a rotated secret applies to retries too. */
async function webhookTarget(em: EntityManager, message: OutboxMessage): Promise<Webhook> {
  const webhook =
    message.webhookId === null
      ? null
      : await em.findOne(Webhook, message.webhookId, { filters: false });
  if (!webhook) throw new WebhookDeliveryError('the webhook no longer exists', null);
  return webhook;
}

/**
 * Takes up to a batch of due messages, account by account: first the accounts with the oldest due
 * messages (one read of every account's rows, without locks: on Citus one that locks rows must
 * stay on one worker), then each account's in a short transaction of its own. `for update skip
 * locked` lets several senders share the table without waiting on each other, and the lease
 * (available_at pushed ahead) keeps them claimed after the commit. Delivery then happens outside
 * any transaction: an SMTP server that takes its time must not hold a database connection (the
 * embedded database has only one).
 */
async function claim(em: EntityManager, now: Date): Promise<OutboxMessage[]> {
  const accounts = await em.getConnection().execute<{ account_id: number }[]>(
    `select account_id from outbox where sent_at is null and attempts < ? and available_at <= ?
        group by account_id order by min(available_at), account_id limit ?`,
    [MAX_ATTEMPTS, now, BATCH_SIZE],
  );
  const claimed: OutboxMessage[] = [];
  for (const { account_id: account } of accounts) {
    if (claimed.length === BATCH_SIZE) break;
    claimed.push(...(await claimOfAccount(em, account, now, BATCH_SIZE - claimed.length)));
  }
  return claimed;
}

/** Up to `limit` of one account's due messages, leased in one transaction. */
function claimOfAccount(
  em: EntityManager,
  account: number,
  now: Date,
  limit: number,
): Promise<OutboxMessage[]> {
  return em.transactional(async (tx) => {
    const due = await tx.find(
      OutboxMessage,
      {
        account,
        sentAt: null,
        attempts: { $lt: MAX_ATTEMPTS },
        availableAt: { $lte: now },
      },
      {
        filters: false,
        orderBy: { availableAt: 'asc', id: 'asc' },
        limit,
        lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE,
      },
    );
    for (const message of due) message.availableAt = new Date(now.getTime() + LEASE_MS);
    return due;
  });
}

/** 5 s after the first failure, doubling each time, at most an hour. */
function backoffMs(attempts: number): number {
  return Math.min(BACKOFF_BASE_MS * 2 ** (attempts - 1), BACKOFF_MAX_MS);
}

/**
 * SMTP_URL set: nodemailer's SMTP transport, with timeouts far below its defaults (minutes), so a
 * dead server fails an attempt instead of stalling the sender. Unset: the same message, composed
 * by nodemailer's stream transport, written to DATA_DIR/outbox as an .eml file (development, or a
 * deployment that does not send mail yet).
 */
function createDelivery(config: Config['outbox']): { deliver: Deliver; close: () => void } {
  const envelope = (message: OutboxMessage) => ({
    from: config.from,
    ...(message.payload as EmailPayload),
    // Stable across retries, so a message delivered twice (at least once) can be recognised.
    messageId: `<${message.uuid}@timetrack.outbox>`,
  });
  if (config.smtpUrl) {
    const transport = createTransport({
      url: config.smtpUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    return {
      deliver: async (message) => {
        await transport.sendMail(envelope(message));
      },
      close: () => transport.close(),
    };
  }
  const transport = createTransport({ streamTransport: true, buffer: true });
  return {
    deliver: async (message) => {
      const info = await transport.sendMail(envelope(message));
      await fs.mkdir(config.fileDir, { recursive: true });
      const stamp = message.createdAt.toISOString().replace(/[-:]|\.\d+/g, '');
      const file = path.join(config.fileDir, `${stamp}-${message.uuid}.eml`);
      // Written whole or not at all: a reader never sees half an e-mail. A retry overwrites.
      await fs.writeFile(`${file}.tmp`, info.message as Buffer);
      await fs.rename(`${file}.tmp`, file);
    },
    close: () => transport.close(),
  };
}
