import { Client } from 'pg';
import type { Logger } from '../../core/logger';

const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 30_000;

/**
 * One dedicated connection per process that LISTENs on the channels registered with `on` (not
 * from the pool: a pooled connection is lent to requests and may be discarded at any time). When
 * the connection drops it reconnects with backoff, forever, until stop(); failures are logged,
 * never thrown. Notifications sent while it was away are lost: PostgreSQL keeps none for a
 * session that was not listening.
 */
export class NotificationListener {
  private client: Client | undefined;
  private stopped = false;
  private retryMs = RETRY_MIN_MS;
  private retryTimer: NodeJS.Timeout | undefined;
  private connecting: Promise<void> | undefined;
  private readonly handlers = new Map<string, (payload: string) => void>();

  constructor(
    private readonly url: string,
    private readonly log: Logger,
  ) {}

  /** Hands the payloads of `channel` to `onPayload`; call before start(). */
  on(channel: string, onPayload: (payload: string) => void): this {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
    this.handlers.set(channel, onPayload);
    return this;
  }

  /** Resolves once listening (or once the first attempt failed; retries go on behind). */
  start(): Promise<void> {
    return (this.connecting = this.connect());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    await this.connecting;
    await this.client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client({ connectionString: this.url, keepAlive: true });
    client.on('notification', (message) => {
      if (message.payload !== undefined) this.handlers.get(message.channel)?.(message.payload);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`LISTEN ${channel}`);
      this.client = client;
      this.retryMs = RETRY_MIN_MS;
    } catch (error) {
      this.lost(client, error);
    }
  }

  private lost(client: Client, error?: unknown): void {
    if (this.stopped || (this.client !== undefined && this.client !== client)) return;
    this.client = undefined;
    client.removeAllListeners('end');
    void client.end().catch(() => undefined);
    this.log.error(
      {
        channels: [...this.handlers.keys()],
        retryMs: this.retryMs,
        reason: (error as Error | undefined)?.message ?? 'closed',
      },
      `listener on ${[...this.handlers.keys()].join(', ')}: connection lost; retrying in ${this.retryMs} ms`,
    );
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void (this.connecting = this.connect()), this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
  }
}
