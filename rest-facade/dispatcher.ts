import type { Request, RequestHandler, Response } from 'express';
import {
  loggerOf,
  renewedContext,
  requestOptionsOf,
  type ContextFactory,
  type RequestContext,
  type RequestCredentials,
} from '../src/core/request-context';
import type { Executor } from '../src/graphql/executor';
import { AppError, HttpRefusalError, UnauthenticatedError } from '../src/core/errors';
import type { FacadeError } from './errors';
import type { OperationRegistry } from './operation-registry';
import type { OperationName, VariablesOf } from './operation-types';
import { RouteMatcher } from './route-matcher';
import type { Route, RouteInput } from './route-table';
import { runWithinCost } from './list-pages';
import { runOperation, type OperationOutcome, type OperationRunner } from './run-operation';

/** Writes answers in one wire format (JSON, JSONP, XML). */
export interface Responder<R> {
  success(res: Response, status: number, value: R): void;
  /**
   * A list longer than one page, as one answer: the `first` page, then each of `rest` as it is
   * read (list-pages.ts). Rejects when a page fails; the answer is then cut off.
   */
  pages(res: Response, status: number, first: R, rest: AsyncIterable<R>): Promise<void>;
  failure(res: Response, error: FacadeError, route: Route<R> | undefined): void;
}

/** What a wire format makes of a request before any route runs. */
export interface Negotiated<R> {
  /** The path without the format suffix. */
  readonly path: string;
  readonly responder: Responder<R>;
  readonly credentials: RequestCredentials;
}

export interface WireFormat<R> {
  /**
   * Reads suffix, format parameters and credentials; throws an AppError to refuse the request, or
   * answers undefined for a request of another format (it goes on to the next handler).
   */
  negotiate(req: Request): Negotiated<R> | undefined;
  /** The responder for refusals before negotiation succeeded. */
  readonly fallback: Responder<R>;
  readBody(req: Request, res: Response): Promise<Record<string, unknown>>;
}

export interface DispatcherDeps<R> {
  readonly routes: readonly Route<R>[];
  readonly registry: OperationRegistry;
  readonly execute: Executor;
  readonly createContext: ContextFactory;
  readonly format: WireFormat<R>;
}

/**
 * The facade's one request cycle, whatever the wire format: match the route, authenticate through
 * the shared context factory, read the body, run the route's named operation in-process, render.
 * Every failure leaves through the error table; nothing unexpected leaks.
 */
export function createDispatcher<R>(deps: DispatcherDeps<R>): RequestHandler {
  const matcher = new RouteMatcher(deps.routes);
  // Fail at start-up, not on the first request, when a route names a missing operation.
  for (const route of deps.routes) deps.registry.get(route.operation);

  return async (req, res, next) => {
    let responder = deps.format.fallback;
    let route: Route<R> | undefined;
    try {
      const negotiated = deps.format.negotiate(req);
      if (!negotiated) return next();
      responder = negotiated.responder;
      const match = matcher.match(req.method, negotiated.path);
      // The path as the client sent it: under a mount point (/api/1) req.path has lost it.
      if (match.kind === 'not-found')
        throw new AppError(
          'NOT_FOUND',
          `No such resource: ${req.method} ${req.baseUrl}${req.path}`,
        );
      if (match.kind === 'method-not-allowed') {
        res.setHeader('Allow', match.allow.join(', '));
        throw new HttpRefusalError(
          'METHOD_NOT_ALLOWED',
          `${req.method} is not supported here; use ${match.allow.join(' or ')}`,
        );
      }
      route = match.route;
      // The route's template names the request in the metrics and the access log, never its raw
      // path (ids): the mount point, the table's pattern and the format suffix as sent.
      res.locals.routeTemplate = `${req.baseUrl}${route.path}${req.path.slice(negotiated.path.length)}`;
      const ctx = await deps.createContext(negotiated.credentials, requestOptionsOf(req));
      const body = await deps.format.readBody(req, res);
      const input = { params: match.params, query: firstValues(req.query), body, ctx };
      const answer = await answerRoute(deps, route, input);
      if ('error' in answer) responder.failure(res, answer.error, route);
      else if (answer.more)
        await responder.pages(res, route.status ?? 200, answer.rendered, answer.more);
      else responder.success(res, route.status ?? 200, answer.rendered);
    } catch (error) {
      if (res.headersSent || res.destroyed) {
        // Part of a long list is written, or the client has left: no error answer can follow.
        // The list is cut off, so that no client takes the part for the whole.
        if (!res.destroyed) {
          loggerOf(req).warn({ err: error }, 'a long list was cut off after its first part');
          res.destroy();
        }
        return;
      }
      responder.failure(res, toFacadeError(error, loggerOf(req)), route);
    }
  };
}

/**
 * Any failure as a facade error: catalogue errors keep their code, anything else is a 500 logged
 * on `log` (by default the logger of the request being served).
 */
export function toFacadeError(
  error: unknown,
  log: RequestContext['log'] = loggerOf(),
): FacadeError {
  if (error instanceof AppError) {
    const { entity, fieldErrors, ...details } = error.details;
    return {
      code: error.code,
      message: error.message,
      ...(entity ? { entity } : {}),
      ...(fieldErrors ? { fieldErrors } : {}),
      ...(Object.keys(details).length ? { details } : {}),
      ...(error instanceof UnauthenticatedError ? { challenge: error.challenge } : {}),
    };
  }
  log.error({ err: error }, 'facade request failed');
  return { code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error' };
}

/**
 * Runs a route's operation and renders its answer, generic in the operation so that the variables
 * and the root field have the types generated for it (a table is the union of such routes). A list
 * with more pages answers them as `more`, read when the answer is written.
 */
async function answerRoute<R, N extends OperationName>(
  runner: OperationRunner,
  route: Route<R, N>,
  input: RouteInput,
): Promise<
  { readonly rendered: R; readonly more?: AsyncIterable<R> } | { readonly error: FacadeError }
> {
  const { variables, outcome } = await runPage(runner, route, route.variables(input), input.ctx);
  if ('error' in outcome) return outcome;
  const rendered = route.render(outcome.root);
  const paging = route.paging;
  if (!paging) return { rendered };
  const read = paging.rows(outcome.root);
  const next = paging.next(input, variables, outcome.root, read);
  return next
    ? { rendered, more: laterPages(runner, route, paging, input, next, read) }
    : { rendered };
}

/** The pages after the first, each on a renewed context so that none keeps the rows before it. */
async function* laterPages<R, N extends OperationName>(
  runner: OperationRunner,
  route: Route<R, N>,
  paging: NonNullable<Route<R, N>['paging']>,
  input: RouteInput,
  first: VariablesOf<N>,
  read: number,
): AsyncIterable<R> {
  for (let asked: VariablesOf<N> | undefined = first; asked;) {
    const { variables, outcome } = await runPage(runner, route, asked, renewedContext(input.ctx));
    if ('error' in outcome)
      throw new Error(
        `a later page of ${route.operation} failed: ${outcome.error.code} ${outcome.error.message}`,
      );
    yield route.render(outcome.root);
    read += paging.rows(outcome.root);
    asked = paging.next(input, variables, outcome.root, read);
  }
}

/**
 * Runs a route's operation, with how it writes its nodes where it says; a list's page the
 * per-operation cost limit refuses is asked again, smaller, until it fits (`runWithinCost`).
 */
function runPage<R, N extends OperationName>(
  runner: OperationRunner,
  route: Route<R, N>,
  asked: VariablesOf<N>,
  ctx: RequestContext,
): Promise<{ variables: VariablesOf<N>; outcome: OperationOutcome<N> }> {
  const context = route.nodeWriter ? { ...ctx, nodeWriter: route.nodeWriter } : ctx;
  return runWithinCost(asked, (variables) =>
    runOperation(runner, route.operation, variables, context),
  );
}

/** Query parameters as single strings: the first of repeated ones, nested forms ignored. */
export function firstValues(query: Request['query']): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(query ?? {})) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') values[key] = first;
  }
  return values;
}
