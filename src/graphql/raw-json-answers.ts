import { randomBytes } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

/**
 * JSON text put into an answer of /graphql as it is, never parsed: what reads compiled to SQL read
 * (PostgreSQL wrote it). The answer's data holds a placeholder for each text, which JSON.stringify
 * (Apollo's) writes as a marker string; `fill` puts the texts in place of their markers before the
 * answer is sent. A marker starts with a NUL, which no text of PostgreSQL can hold, and carries a
 * random nonce of the request, so nothing a client or the database supplies can pose as one.
 */
export class RawJsonAnswers {
  private readonly texts: string[] = [];
  // Drawn on the first placeholder: most answers (mutations, lookups) hold none.
  private nonce = '';

  /**
   * A stand-in for `text` in the answer's data, carrying how many rows of a page the text lists
   * (what the operation's cost counts as read, `pageLength` of operation-guards.ts).
   */
  placeholder(text: string, shown?: number): RawJsonPlaceholder {
    this.nonce ||= randomBytes(9).toString('base64url');
    const marker = `\u0000${this.nonce}:${this.texts.push(text) - 1}`;
    return { toJSON: () => marker, shown };
  }

  /** The answer's text with each marker replaced by its JSON text. */
  fill(body: string): string {
    if (this.texts.length === 0) return body;
    return body.replace(
      new RegExp(`"\\\\u0000${this.nonce}:(\\d+)"`, 'g'),
      (_marker, i: string) => this.texts[Number(i)]!,
    );
  }
}

/** What stands in the data for a text: written as its marker. */
export interface RawJsonPlaceholder {
  toJSON(): string;
  readonly shown: number | undefined;
}

/** Before Apollo on /graphql: gives the request its RawJsonAnswers and fills its answer. */
export function rawJsonAnswers(_req: Request, res: Response, next: NextFunction): void {
  const answers = new RawJsonAnswers();
  res.locals.rawJson = answers;
  const send = res.send.bind(res);
  res.send = (body?: unknown) => send(typeof body === 'string' ? answers.fill(body) : body);
  next();
}

/** The RawJsonAnswers `rawJsonAnswers` gave the request. */
export const rawJsonOf = (res: Response): RawJsonAnswers | undefined =>
  res.locals.rawJson as RawJsonAnswers | undefined;
