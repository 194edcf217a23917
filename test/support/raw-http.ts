import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { gunzipSync, inflateSync } from 'node:zlib';
import type { TestApp } from './test-app';

/**
 * HTTP at the level of bytes, for replaying a real client's requests exactly as its source writes
 * them: a server in front of the app that records each request as it arrived (request line and raw
 * header list, before the app saw it), and a sender that writes given bytes on a TCP socket.
 */

export interface SeenRequest {
  method: string;
  url: string;
  /** As received: [name, value, name, value, ...] in the client's order and spelling. */
  rawHeaders: string[];
}

export interface RecordingServer {
  readonly port: number;
  readonly seen: SeenRequest[];
  close(): Promise<void>;
}

export async function recordingServer(t: TestApp): Promise<RecordingServer> {
  const seen: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', rawHeaders: [...req.rawHeaders] });
    void t.app.express(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface RawAnswer {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The body after transfer and content decoding, as a client library would hand it over. */
  text: string;
}

/** An HTTP/1.1 request as text: request line, headers in the given order, blank line, body. */
export function requestBytes(requestLine: string, headers: [string, string][], body = ''): string {
  return [requestLine, ...headers.map(([name, value]) => `${name}: ${value}`), '', body].join(
    '\r\n',
  );
}

/** Writes exactly these bytes on a new connection and reads the answer until the server closes. */
export function sendBytes(port: number, bytes: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes, 'utf8'));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      try {
        resolve(parseAnswer(Buffer.concat(chunks)));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}

function parseAnswer(all: Buffer): RawAnswer {
  const split = all.indexOf('\r\n\r\n');
  const head = all.subarray(0, split).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(head[0]!)?.[1]);
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body: Buffer = all.subarray(split + 4);
  if (headers['transfer-encoding'] === 'chunked') body = dechunk(body);
  if (headers['content-encoding'] === 'gzip') body = gunzipSync(body);
  if (headers['content-encoding'] === 'deflate') body = inflateSync(body);
  return { status, headers, text: body.toString('utf8') };
}

function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', at);
    const size = parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
    if (!size) return Buffer.concat(parts);
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}
