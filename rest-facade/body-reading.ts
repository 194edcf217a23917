import type { Request, RequestHandler, Response } from 'express';
import { bodyRefusalOf } from '../src/core/errors';

/** Whether the request carries a body at all (a punch-out may come with none). */
export function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** Runs an Express body parser, turning its refusals into catalogue errors. */
export function runBodyParser(parser: RequestHandler, req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) => {
    void parser(req, res, (error?: unknown) => {
      if (error) reject(bodyRefusalOf(error));
      else resolve();
    });
  });
}
