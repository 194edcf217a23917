import express, { type Request, type RequestHandler, type Response } from 'express';
import { AppError, BadRequestError, errorHeadersOf, HttpRefusalError } from '../../src/core/errors';
import { WrittenNodes } from '../../src/core/node-writer';
import { credentialsOf } from '../../src/core/request-context';
import type { Responder, WireFormat } from '../dispatcher';
import { LEGACY_ERRORS, type FacadeError } from '../errors';
import { hasBody, runBodyParser } from '../body-reading';
import { writeChunks } from '../list-pages';
import type { Route } from '../route-table';

/**
 * What a JSON route renders: the envelope's `response` (a list's nodes may be written already),
 * and `count` for lists.
 */
export interface JsonAnswer {
  readonly response: unknown;
  readonly count?: number;
}

/** The text of an answer, as `JSON.stringify` writes it, with nodes written already put in as they are. */
function answerText(answer: JsonAnswer): string {
  const { response, count } = answer;
  if (!(response instanceof WrittenNodes)) return JSON.stringify(answer);
  return `{"response":${response.text}${count === undefined ? '' : `,"count":${count}`}}`;
}

/** A route of the JSON table. */
export type JsonRoute = Route<JsonAnswer>;

/** `a`, `a.b`, `a[0].b`: a JavaScript identifier path, nothing that could run code. */
export const CALLBACK = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\[\d+\])*$/;
export const CALLBACK_MAX = 128;

/** The JSON body of an error: the catalogue code, the documented status title, a message. */
export function jsonErrorBody(
  error: FacadeError,
  route: JsonRoute | undefined,
): Record<string, unknown> {
  const form = LEGACY_ERRORS[error.code];
  const fieldErrors = error.fieldErrors?.map((fe) => ({
    field: route?.legacyFieldName?.(fe.field) ?? fe.field,
    message: fe.message,
  }));
  const message = fieldErrors?.length
    ? `${error.message.split(':')[0]}: ${fieldErrors.map((fe) => `${fe.field} ${fe.message}`).join('; ')}`
    : error.message;
  return {
    error: {
      code: error.code,
      status: form.status,
      title: form.title,
      message,
      ...(fieldErrors?.length ? { field_errors: fieldErrors } : {}),
      ...(typeof error.details?.position === 'number' ? { position: error.details.position } : {}),
      ...(typeof error.details?.parameter === 'string'
        ? { parameter: error.details.parameter }
        : {}),
    },
  };
}

/**
 * A list's pages as the one text `JSON.stringify` makes of the whole answer,
 * `{"response":[…],"count":n}`, written a page at a time.
 */
async function* jsonListText(
  first: JsonAnswer,
  rest: AsyncIterable<JsonAnswer>,
): AsyncIterable<string> {
  const items = ({ response }: JsonAnswer) =>
    response instanceof WrittenNodes
      ? response.text.slice(1, -1)
      : (response as readonly unknown[]).map((item) => JSON.stringify(item)).join(',');
  yield `{"response":[${items(first)}`;
  for await (const page of rest)
    if ((page.response as { length: number }).length > 0) yield `,${items(page)}`;
  yield first.count === undefined ? ']}' : `],"count":${first.count}}`;
}

export const jsonResponder: Responder<JsonAnswer> = {
  success(res, status, answer) {
    res.status(status).type('application/json').send(answerText(answer));
  },
  async pages(res, status, first, rest) {
    res.status(status).type('application/json; charset=utf-8');
    await writeChunks(res, jsonListText(first, rest));
  },
  failure(res, error, route) {
    res
      .set(errorHeadersOf(error))
      .status(LEGACY_ERRORS[error.code].status)
      .json(jsonErrorBody(error, route));
  },
};

function jsonpResponder(callback: string): Responder<JsonAnswer> {
  // U+2028 and U+2029 are valid in JSON but end a line in older JavaScript engines.
  const safe = (json: string) => json.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  const open = (res: Response, status: number) =>
    res
      .status(status)
      .type('application/javascript; charset=utf-8')
      .setHeader('X-Content-Type-Options', 'nosniff');
  // The comment keeps a response from starting with bytes an attacker chose (Rosetta Flash).
  const prefix = `/**/ typeof ${callback} === 'function' && ${callback}(`;
  const send = (res: Response, status: number, text: string) =>
    open(res, status).send(`${prefix}${safe(text)});`);
  return {
    success: (res, status, answer) => send(res, status, answerText(answer)),
    async pages(res, status, first, rest) {
      open(res, status);
      await writeChunks(
        res,
        (async function* () {
          yield prefix;
          for await (const chunk of jsonListText(first, rest)) yield safe(chunk);
          yield ');';
        })(),
      );
    },
    failure: (res, error, route) =>
      send(
        res.set(errorHeadersOf(error, { challenge: false })),
        LEGACY_ERRORS[error.code].status,
        JSON.stringify(jsonErrorBody(error, route)),
      ),
  };
}

/**
 * `/api/1` paths: `.json`, `.jsonp` or no suffix; `format=jsonp` also selects JSONP. A JSONP
 * request is readable by any web page that includes it as a script, with the browser's cached
 * Basic credentials attached, so it is authenticated only by credentials in its own URL (an OAuth
 * 1.0a query-string signature or `access_token`), never by the Authorization header or cookies.
 */
export function jsonFormat(bodyLimitBytes: number): WireFormat<JsonAnswer> {
  const parsers: RequestHandler[] = [
    express.json({ limit: bodyLimitBytes, strict: true }),
    express.urlencoded({ limit: bodyLimitBytes, extended: true, parameterLimit: 1000 }),
  ];
  return {
    fallback: jsonResponder,
    negotiate(req: Request) {
      const suffix = /\.(json|jsonp)$/.exec(req.path);
      const path = suffix ? req.path.slice(0, -suffix[0].length) : req.path;
      if (/\.[A-Za-z]+$/.test(path.split('/').pop() ?? ''))
        throw new AppError(
          'NOT_FOUND',
          `No such resource: ${req.method} ${req.baseUrl}${req.path}`,
        );
      const jsonp = suffix?.[1] === 'jsonp' || req.query.format === 'jsonp';
      if (!jsonp) return { path, responder: jsonResponder, credentials: credentialsOf(req) };
      const callback = req.query.callback;
      if (
        typeof callback !== 'string' ||
        callback.length > CALLBACK_MAX ||
        !CALLBACK.test(callback)
      ) {
        throw new BadRequestError(
          'JSONP needs a `callback` parameter that is a JavaScript identifier path such as handle or app.handle',
          {
            parameter: 'callback',
          },
        );
      }
      return {
        path,
        responder: jsonpResponder(callback),
        credentials: credentialsOf(req, { urlOnly: true }),
      };
    },
    async readBody(req, res) {
      if (!hasBody(req)) return {};
      if (!req.is(['application/json', '+json', 'application/x-www-form-urlencoded'])) {
        throw new HttpRefusalError(
          'UNSUPPORTED_MEDIA_TYPE',
          'Send the body as application/json or application/x-www-form-urlencoded',
        );
      }
      for (const parser of parsers) await runBodyParser(parser, req, res);
      const body: unknown = req.body;
      if (body === undefined || body === null) return {};
      if (typeof body !== 'object' || Array.isArray(body))
        throw new BadRequestError('The body must be a JSON object');
      return body as Record<string, unknown>;
    },
  };
}
