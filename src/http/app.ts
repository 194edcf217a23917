import 'reflect-metadata';
import { expressMiddleware } from '@as-integrations/express5';
import type { Server } from 'node:http';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { GraphQLError } from 'graphql';
import type { MikroORM } from '@mikro-orm/postgresql';
import { BasicAuthenticator } from '../auth/basic-auth';
import { OAuth1Provider } from '../auth/oauth1-provider';
import { OAuth2Provider } from '../auth/oauth2-provider';
import { createOAuthRouter } from './oauth-routes';
import { createPasswordHasher, type PasswordHasher } from '../modules/staff/passwords';
import { RequestAuthenticator } from '../auth/request-authenticator';
import { FairShareLimiter } from '../auth/fair-share-limiter';
import { RequestLimiter } from '../auth/request-limiter';
import { withAccountScope } from '../core/account-scope';
import { SignInLimiter } from '../auth/sign-in-limiter';
import { createRestFacade } from '../../rest-facade';
import type { Config } from '../core/config';
import {
  AppError,
  bodyRefusalOf,
  errorHeadersOf,
  HTTP_STATUS,
  type ErrorCode,
} from '../core/errors';
import { createApolloServer } from '../graphql/apollo';
import { createContextFactory } from '../graphql/context';
import {
  credentialsOf,
  loggerOf,
  requestOptionsOf,
  type ContextFactory,
} from '../core/request-context';
import { createExecutor, type Executor } from '../graphql/executor';
import { createGraphiQLRouter } from './graphiql-page';
import { operationGuards } from '../graphql/operation-guards';
import { attachSubscriptionServer, type SubscriptionServer } from '../graphql/subscription-server';
import { createSchema } from '../graphql/schema';
import { createServices } from '../graphql/services';
import { createGeocoder } from '../modules/companies/geocoder';
import { LiveShiftEvents } from '../modules/events/live-shift-events';
import { webhookSink } from '../modules/webhooks/webhook-sink';
import { createLogger, type Logger } from '../core/logger';
import { createObservability } from './observability/observability';

export interface App {
  readonly express: Express;
  /** Serves GraphQL subscriptions (graphql-ws) on the HTTP server that serves `express`. */
  attachSubscriptions(server: Server): void;
  /** Closes every subscription connection (1001); stop() does too. */
  closeSubscriptions(): Promise<void>;
  readonly createContext: ContextFactory;
  readonly execute: Executor;
  readonly hasher: PasswordHasher;
  /** Each account's share of requests in flight and of the heavy-work lane (read by tests). */
  readonly fairShare: FairShareLimiter;
  /** The process logger (request lines come from its children, with their request id). */
  readonly logger: Logger;
  stop(): Promise<void>;
}

/** Composes the HTTP application: /graphql and the legacy facades beside it. */
export async function createApp(deps: {
  orm: MikroORM;
  config: Config;
  logger?: Logger;
}): Promise<App> {
  const { orm, config } = deps;
  const logger = deps.logger ?? createLogger(config.log.level);
  const hasher = createPasswordHasher(config.auth.hashMemoryKib);
  const knex = orm.em.getConnection().getKnex();
  const signInLimiter = new SignInLimiter(knex, config.auth.signInLimits);
  const basic = new BasicAuthenticator(hasher, signInLimiter, config.auth.cacheTtlMs);
  const oauth1 = new OAuth1Provider(orm, signInLimiter, {
    timestampWindowSeconds: config.auth.oauth1TimestampWindowSeconds,
    publicUrl: config.auth.publicUrl,
  });
  const oauth2 = new OAuth2Provider(orm);
  const limiter = new RequestLimiter(knex, config.rateLimits);
  const fairShare = new FairShareLimiter(config.fairShare);
  const createContext = createContextFactory({
    orm,
    config,
    authenticator: new RequestAuthenticator(basic, oauth1, oauth2),
    limiter,
    fairShare,
    logger,
  });
  const live = new LiveShiftEvents(
    orm,
    config.database.kind === 'server' && config.db.listen ? config.database.url : undefined,
    logger,
  );
  await live.start();
  const schema = await createSchema(
    createServices(hasher, createGeocoder(config), [webhookSink, live.sink]),
    live.pubSub,
  );
  const apollo = createApolloServer(schema, config);
  await apollo.start();

  const app = express();
  app.disable('x-powered-by');
  // Which proxies may name the client in X-Forwarded-For: the key of the address limits.
  app.set('trust proxy', config.trustProxy);
  // First: every later handler logs with the request id, and every answer is counted. The probes
  // and /metrics come before authentication and the rate limits, which they must not depend on.
  const observability = createObservability({ orm, config, logger });
  app.use(observability.middleware);
  app.use(observability.routes);
  // Every request gets a scope that names its account once authenticated, so that its queries
  // take that account's share of the database connections (src/db/connection-lanes.ts).
  app.use((_req: Request, _res: Response, next: NextFunction) => withAccountScope(next));
  app.use(
    createOAuthRouter({
      orm,
      oauth1,
      oauth2,
      basic,
      publicUrl: config.auth.publicUrl,
      bodyLimitBytes: config.bodyLimitBytes,
    }),
  );
  // Before Apollo: a browser's GET /graphql gets the IDE, every GraphQL request passes through.
  app.use(createGraphiQLRouter(config));
  app.use(
    '/graphql',
    express.json({ limit: config.bodyLimitBytes }),
    expressMiddleware(apollo, {
      context: async ({ req }) => {
        try {
          return await createContext(credentialsOf(req), requestOptionsOf(req));
        } catch (error) {
          throw toHttpGraphQLError(error, loggerOf(req));
        }
      },
    }),
    answerBodyRefusals,
  );
  const execute = createExecutor(apollo);
  app.use(createRestFacade({ execute, createContext, bodyLimitBytes: config.bodyLimitBytes }));
  let subscriptions: SubscriptionServer | undefined;
  return {
    express: app,
    createContext,
    execute,
    hasher,
    fairShare,
    logger,
    attachSubscriptions: (server) => {
      subscriptions = attachSubscriptionServer(server, {
        schema,
        createContext,
        guards: operationGuards(schema, config),
        config,
      });
    },
    closeSubscriptions: async () => {
      await subscriptions?.close();
    },
    stop: async () => {
      await subscriptions?.close();
      await live.stop();
      await apollo.stop();
    },
  };
}

/** What the context factory refuses a request for; anything else failing there is our fault. */
const CONTEXT_REFUSALS: ReadonlySet<ErrorCode> = new Set([
  'UNAUTHENTICATED',
  'TOO_MANY_REQUESTS',
  'SERVICE_UNAVAILABLE',
]);

/** Context failures (no or bad credentials, too many failures, database down) become coded HTTP errors. */
function toHttpGraphQLError(error: unknown, log: Logger): GraphQLError {
  if (error instanceof AppError && CONTEXT_REFUSALS.has(error.code)) {
    return new GraphQLError(error.message, {
      extensions: {
        code: error.code,
        ...error.details,
        http: {
          status: HTTP_STATUS[error.code],
          headers: new Map(Object.entries(errorHeadersOf(error))),
        },
      },
    });
  }
  log.error({ err: error }, 'context creation failed');
  return new GraphQLError('Internal server error', {
    extensions: {
      code: 'INTERNAL_SERVER_ERROR',
      http: { status: HTTP_STATUS.INTERNAL_SERVER_ERROR },
    },
  });
}

/** A body /graphql cannot read (too large, bad charset, not JSON) answers as GraphQL does, not as an HTML page. */
function answerBodyRefusals(
  error: unknown,
  _req: Request,
  res: Response,
  _next: NextFunction,
): void {
  const refusal = bodyRefusalOf(error);
  res
    .status(HTTP_STATUS[refusal.code])
    .json({ errors: [{ message: refusal.message, extensions: { code: refusal.code } }] });
}
