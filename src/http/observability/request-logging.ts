import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { pinoHttp } from 'pino-http';
import {
  redactHeaders,
  redactUrl,
  serializeLoggedError,
  withLogger,
  type Logger,
} from '../../core/logger';
import type { RouteLabeller } from './route-labels';

export const REQUEST_ID_HEADER = 'X-Request-Id';
/** A request id a client or proxy may choose: short, and nothing that could forge a log line or a header. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Probes and scrapes come every few seconds: counted in the metrics, not logged line by line. */
const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** The request id of an incoming request: the one it brings if sane, else a new UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * The first middleware: gives the request its id (echoed in X-Request-Id), a child logger that
 * writes the id on every line (`req.log`, and the current logger for everything the request runs,
 * see withLogger), and one access line when it is answered, with its route labels and duration.
 */
export function requestLogging(logger: Logger, labeller: RouteLabeller): RequestHandler {
  const completed = (req: IncomingMessage, res: ServerResponse, value: object) => {
    const labels = labeller.labelsOf(req as Request, res as Response);
    return { ...value, interface: labels.interface, route: labels.route };
  };
  const http = pinoHttp({
    logger,
    quietReqLogger: true,
    genReqId: (req, res) => {
      const id = requestIdOf(req);
      res.setHeader(REQUEST_ID_HEADER, id);
      return id;
    },
    autoLogging: { ignore: (req) => QUIET_PATHS.has((req.url ?? '').split('?')[0] ?? '') },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
    customSuccessObject: completed,
    customErrorObject: (req, res, _error, value) => completed(req, res, value),
    serializers: {
      // The URL without credential parameters, the headers without credential values, the client's
      // address as Express sees it (behind a trusted proxy: from X-Forwarded-For). No body, ever;
      // no id either: the line has it as reqId.
      req: (req: {
        method: string;
        url: string;
        headers: Record<string, unknown>;
        remoteAddress?: string;
        raw?: Request;
      }) => ({
        method: req.method,
        url: redactUrl(req.url),
        remoteAddress: req.raw?.ip ?? req.remoteAddress,
        headers: redactHeaders(req.headers),
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      // pino-http's child loggers (every request's, and so `currentLogger()` in a request) would
      // otherwise replace the process logger's error serializer with pino's plain one.
      err: serializeLoggedError,
    },
  });
  return (req, res, next) => http(req, res, () => withLogger(req.log, next));
}
