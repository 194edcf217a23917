import type { Response } from 'superagent';

/**
 * Supertest's parser for a body read as bytes, whatever its type (a PDF, a workbook, a CSV):
 * `request(app).get(url).buffer(true).parse(binaryBody)`, then `res.body` is a Buffer.
 */
export function binaryBody(res: Response, done: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}
