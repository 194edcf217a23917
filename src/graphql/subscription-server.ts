import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  createSourceEventStream,
  execute,
  GraphQLError,
  type DocumentNode,
  type ExecutionArgs,
  type FormattedExecutionResult,
  type GraphQLFormattedError,
  type GraphQLSchema,
} from 'graphql';
import type { ExecutionResult } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer, type WebSocket } from 'ws';
import { crossSiteRefusal, originPolicyOf, provenanceOf } from '../auth/cross-site-guard';
import type { Config } from '../core/config';
import { AppError, HTTP_STATUS } from '../core/errors';
import type { Logger } from '../core/logger';
import { renewedContext, type RequestContext } from '../core/request-context';
import type { LiveSession, LiveSessionFactory } from './context';
import { formatError } from './format-error';
import type { OperationGuards, OperationRequest } from './operation-guards';

export interface SubscriptionServer {
  /**
   * The credentials of user `userId` may have changed (a notification of the database): checks the
   * sockets of that user again now, and closes with 4403 those whose credentials no longer hold.
   */
  credentialsChanged(userId: number): void;
  /** Closes every connection (1001 Going Away) and stops accepting new ones. */
  close(): Promise<void>;
}

/** A query or mutation as HTTP runs it: through Apollo, with its guards, plugins and formatting. */
export type HttpLikeExecutor = (
  request: OperationRequest,
  context: RequestContext,
) => Promise<FormattedExecutionResult>;

/** graphql-ws's close code for refused credentials: at connect, and when they stop holding. */
const FORBIDDEN = 4403;

// A type, not an interface: graphql-ws wants a record type for the connection's extra.
type Extra = {
  readonly request: IncomingMessage;
  readonly socket: WebSocket;
  session?: LiveSession;
};

/**
 * GraphQL over graphql-ws on the HTTP server's own port, at /graphql. A connection signs in once,
 * at `connection_init`, with the same schemes as every other request: `connectionParams.authorization`
 * ("Basic …" or "Bearer …"), or the upgrade request's Authorization header. Refused credentials
 * close it with 4403. A handshake that a browser sends from a page of another site is refused
 * before the upgrade (403): the browser would attach its cached credentials, and the page could
 * then read what it hears.
 *
 * Every operation on the socket is then admitted as an HTTP request is (issue 20, finding 5): its
 * credentials checked again, counted against the address and account rate limits, and passed
 * through the same guards (token, depth, alias and cost limits; in production no introspection
 * and no suggestions), refusals carrying the codes HTTP gives. Queries and mutations then run
 * through Apollo itself, exactly as on /graphql; subscriptions run on graphql-js, their results
 * formatted by the same formatError.
 *
 * A socket lasts only as long as its credentials (finding 6): every operation and every event
 * checks them again (RequestContext.recheck), a change announced by the database checks that
 * user's sockets at once, and every `SUBSCRIPTION_RECHECK_MS` all sockets are checked. A socket
 * whose credentials no longer hold, or whose user has another role, is closed with 4403.
 */
export function attachSubscriptionServer(
  server: Server,
  deps: {
    schema: GraphQLSchema;
    openSession: LiveSessionFactory;
    guards: OperationGuards;
    execute: HttpLikeExecutor;
    config: Config;
    logger: Logger;
  },
): SubscriptionServer {
  const { schema, guards, logger } = deps;
  const sockets = new WebSocketServer({ noServer: true, maxPayload: deps.config.bodyLimitBytes });
  const originPolicy = originPolicyOf(deps.config);
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== '/graphql') {
      socket.destroy();
      return;
    }
    const refusal = crossSiteRefusal(
      provenanceOf(request.method ?? 'GET', request.headers),
      originPolicy,
      'websocket',
    );
    if (refusal) {
      refuseHandshake(socket, refusal);
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => sockets.emit('connection', ws, request));
  };
  server.on('upgrade', onUpgrade);

  const sessionsByUser = new Map<number, Set<LiveSession>>();
  const recheck = (session: LiveSession) =>
    void session.recheck().catch((error: unknown) => {
      // The database cannot answer: the next operation or event checks again (and fails closed).
      logger.warn({ err: error }, 'subscriptions: credentials could not be checked');
    });
  const sweep =
    deps.config.subscriptions.recheckMs > 0
      ? setInterval(() => {
          for (const sessions of sessionsByUser.values()) for (const s of sessions) recheck(s);
        }, deps.config.subscriptions.recheckMs).unref()
      : undefined;

  // The text of each query or mutation admitted, for Apollo, which parses (and caches) text.
  const sources = new WeakMap<DocumentNode, OperationRequest>();

  const subscriptions = useServer<Record<string, unknown> | undefined, Extra>(
    {
      onConnect: async (ctx) => {
        // Header names are case-insensitive in HTTP, and clients copy them as headers.
        const given = Object.entries(ctx.connectionParams ?? {}).find(
          ([key]) => key.toLowerCase() === 'authorization',
        )?.[1];
        const { request, socket } = ctx.extra;
        try {
          const session = await deps.openSession(
            {
              authorization: typeof given === 'string' ? given : request.headers.authorization,
              method: 'GET',
              url: request.url ?? '/graphql',
              host: request.headers.host,
              protocol: 'http',
              address: request.socket.remoteAddress ?? 'unknown',
            },
            () => socket.close(FORBIDDEN, 'Forbidden: the credentials no longer hold'),
          );
          ctx.extra.session = session;
          const sessions = sessionsByUser.get(session.viewer.id) ?? new Set();
          sessionsByUser.set(session.viewer.id, sessions.add(session));
          return true;
        } catch {
          return false;
        }
      },
      onClose: (ctx) => {
        const session = ctx.extra.session;
        if (!session) return;
        const sessions = sessionsByUser.get(session.viewer.id);
        sessions?.delete(session);
        if (sessions?.size === 0) sessionsByUser.delete(session.viewer.id);
      },
      onSubscribe: async (ctx, _id, payload) => {
        let contextValue: RequestContext;
        try {
          contextValue = await ctx.extra.session!.operation();
        } catch (error) {
          return [refusal(error)];
        }
        const prepared = guards.prepare(payload);
        if ('errors' in prepared) return [...prepared.errors];
        if (prepared.operation.operation !== 'subscription')
          sources.set(prepared.document, payload);
        return {
          schema,
          document: prepared.document,
          variableValues: payload.variables,
          operationName: payload.operationName,
          contextValue,
        };
      },
      // graphql-ws types `execute` as graphql-js's (a synchronous-or-promised ExecutionResult of
      // its own generics); Apollo's formatted result is what it sends either way.
      execute: (async (args: ExecutionArgs) =>
        deps.execute(sources.get(args.document)!, args.contextValue as RequestContext)) as never,
      // Each event runs on a context of its own (an empty identity map, new loaders): the
      // subscription's lives as long as the connection and would answer what it read for an
      // earlier event. Otherwise graphql-js's own subscribe.
      subscribe: async (args: ExecutionArgs) => {
        const stream = await createSourceEventStream(args);
        if (!(Symbol.asyncIterator in stream)) return stream;
        return perEvent(stream, (payload) =>
          execute({
            ...args,
            rootValue: payload,
            // Its own instant too: running totals count up to the event.
            contextValue: {
              ...renewedContext(args.contextValue as RequestContext),
              now: new Date(),
            },
          }),
        );
      },
      onNext: (_ctx, _id, _payload, _args, result) => formatted(result),
      onError: (_ctx, _id, _payload, errors) => errors.map(formattedError),
    },
    sockets,
  );

  let closed: Promise<void> | undefined;
  return {
    credentialsChanged: (userId) => {
      for (const session of sessionsByUser.get(userId) ?? []) recheck(session);
    },
    close: () =>
      (closed ??= (async () => {
        clearInterval(sweep);
        server.off('upgrade', onUpgrade);
        for (const ws of sockets.clients) ws.close(1001, 'The server is shutting down');
        await subscriptions.dispose();
        await new Promise<void>((resolve) => sockets.close(() => resolve()));
      })()),
  };
}

/** A refusal of the context factory (credentials, rate limits, database) with its catalogue code. */
function refusal(error: unknown): GraphQLError {
  if (error instanceof AppError)
    return new GraphQLError(error.message, {
      extensions: { code: error.code, ...error.details },
      originalError: error,
    });
  return new GraphQLError('Internal server error', {
    originalError: error instanceof Error ? error : undefined,
  });
}

/**
 * A result as /graphql would send it: errors through formatError (Apollo's results are formatted
 * already), without the `http` extension that Apollo reads and removes.
 */
function formatted(
  result: ExecutionResult | FormattedExecutionResult,
): FormattedExecutionResult | undefined {
  if (!result.errors) return undefined;
  return { ...result, errors: result.errors.map(formattedError) };
}

function formattedError(error: GraphQLError | GraphQLFormattedError): GraphQLFormattedError {
  const shaped = error instanceof GraphQLError ? formatError(error.toJSON(), error) : error;
  if (!shaped.extensions?.http) return shaped;
  const { http: _http, ...extensions } = shaped.extensions;
  return { ...shaped, extensions };
}

/** Answers a handshake with the error's status and a GraphQL error body, then closes the socket. */
function refuseHandshake(socket: Duplex, error: AppError): void {
  const status = HTTP_STATUS[error.code];
  const body = JSON.stringify({
    errors: [{ message: error.message, extensions: { code: error.code } }],
  });
  socket.once('finish', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
      'Connection: close\r\n' +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/** `source` with `run` applied to each value; returning (an unsubscribe) ends `source` at once. */
function perEvent<T, U>(
  source: AsyncIterable<T>,
  run: (value: T) => U | Promise<U>,
): AsyncIterableIterator<U> {
  const iterator = source[Symbol.asyncIterator]();
  const map = async (result: IteratorResult<T>): Promise<IteratorResult<U>> =>
    result.done
      ? { done: true, value: undefined }
      : { done: false, value: await run(result.value) };
  return {
    next: async () => map(await iterator.next()),
    return: async () => {
      await iterator.return?.();
      return { done: true, value: undefined };
    },
    throw: async (error: unknown) => {
      if (iterator.throw) return map(await iterator.throw(error));
      throw error;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
