import type { Request, RequestHandler, Response } from 'express';
import { BadRequestError, HttpRefusalError } from '../src/errors';

/** Whether the request carries a body at all (a punch-out may come with none). */
export function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** Runs an Express body parser, turning its refusals into catalogue errors. */
export function runBodyParser(parser: RequestHandler, req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) => {
    void parser(req, res, (error?: unknown) => {
      if (!error) return resolve();
      const status = (error as { status?: number }).status;
      if (status === 413) reject(new HttpRefusalError('PAYLOAD_TOO_LARGE', 'The body is larger than this service accepts'));
      else if (status === 415) reject(new HttpRefusalError('UNSUPPORTED_MEDIA_TYPE', 'The body has an unsupported encoding or charset'));
      else reject(new BadRequestError('The body is not well-formed'));
    });
  });
}
