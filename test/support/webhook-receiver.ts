import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A webhook delivery as a receiver got it. */
export interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A receiver that answers the queued statuses in turn (then 204) and keeps what it got. */
export class WebhookReceiver {
  readonly received: Received[] = [];
  readonly statuses: number[] = [];
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        this.received.push({ headers: req.headers, body });
        res.writeHead(this.statuses.shift() ?? 204).end();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  take(): Received[] {
    return this.received.splice(0);
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
