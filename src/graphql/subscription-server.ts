import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  GraphQLError,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLSchema,
} from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { crossSiteRefusal, originPolicyOf, provenanceOf } from '../auth/cross-site-guard';
import type { Config } from '../core/config';
import { HTTP_STATUS, type AppError } from '../core/errors';
import type { ContextFactory, RequestContext } from '../core/request-context';
import type { OperationGuards } from './operation-guards';

export interface SubscriptionServer {
  /** Closes every connection (1001 Going Away) and stops accepting new ones. */
  close(): Promise<void>;
}

// A type, not an interface: graphql-ws wants a record type for the connection's extra.
type Extra = {
  readonly request: IncomingMessage;
  context?: RequestContext;
};

/**
 * GraphQL subscriptions over graphql-ws on the HTTP server's own port, at /graphql. A connection
 * authenticates once, at `connection_init`, with the same context factory (and so the same schemes
 * and rate limits) as every other request: `connectionParams.authorization` ("Basic …" or
 * "Bearer …"), or the upgrade request's Authorization header. Refused credentials close it with
 * 4403. Each subscription passes the same token, depth, alias and cost guards as a query. A
 * handshake that a browser sends from a page of another site is refused before the upgrade (403):
 * the browser would attach its cached credentials, and the page could then read what it hears.
 */
export function attachSubscriptionServer(
  server: Server,
  deps: {
    schema: GraphQLSchema;
    createContext: ContextFactory;
    guards: OperationGuards;
    config: Config;
  },
): SubscriptionServer {
  const { schema, guards } = deps;
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

  const subscriptions = useServer<Record<string, unknown> | undefined, Extra>(
    {
      onConnect: async (ctx) => {
        // Header names are case-insensitive in HTTP, and clients copy them as headers.
        const given = Object.entries(ctx.connectionParams ?? {}).find(
          ([key]) => key.toLowerCase() === 'authorization',
        )?.[1];
        const request = ctx.extra.request;
        try {
          ctx.extra.context = await deps.createContext({
            authorization: typeof given === 'string' ? given : request.headers.authorization,
            method: 'GET',
            url: request.url ?? '/graphql',
            host: request.headers.host,
            protocol: 'http',
            address: request.socket.remoteAddress ?? 'unknown',
          });
          return true;
        } catch {
          return false;
        }
      },
      onSubscribe: (ctx, _id, payload) => {
        let document: DocumentNode;
        try {
          document = parse(payload.query, guards.parseOptions);
        } catch (error) {
          return [error as GraphQLError];
        }
        const errors = validate(schema, document, [...specifiedRules, ...guards.validationRules]);
        if (errors.length) return errors;
        const cost = guards.cost(document, payload.operationName, payload.variables ?? undefined);
        if (cost !== undefined && cost > deps.config.graphql.maxCost) {
          return [
            new GraphQLError(
              `The operation may return about ${cost} objects, more than the limit of ${deps.config.graphql.maxCost}`,
            ),
          ];
        }
        return {
          schema,
          document,
          variableValues: payload.variables,
          operationName: payload.operationName,
          contextValue: ctx.extra.context,
        };
      },
    },
    sockets,
  );

  let closed: Promise<void> | undefined;
  return {
    close: () =>
      (closed ??= (async () => {
        server.off('upgrade', onUpgrade);
        for (const ws of sockets.clients) ws.close(1001, 'The server is shutting down');
        await subscriptions.dispose();
        await new Promise<void>((resolve) => sockets.close(() => resolve()));
      })()),
  };
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
