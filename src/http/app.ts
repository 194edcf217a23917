import 'reflect-metadata';
import { expressMiddleware } from '@as-integrations/express5';
import type { Server } from 'node:http';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { MikroORM } from '@mikro-orm/postgresql';
import { BasicAuthenticator } from '../auth/basic-auth';
import { graphqlRequestOf, graphqlRequestRefusal, originPolicyOf } from '../auth/cross-site-guard';
import { OAuth1Provider } from '../auth/oauth1-provider';
import { OAuth2Provider } from '../auth/oauth2-provider';
import { createOAuthRouter } from './oauth-routes';
import { createPasswordHasher, CREDENTIALS_CHANNEL, type PasswordHasher } from '../modules/staff';
import { RequestAuthenticator } from '../auth/request-authenticator';
import { CostBudget } from '../auth/cost-budget';
import { FairShareLimiter } from '../auth/fair-share-limiter';
import { RequestLimiter } from '../auth/request-limiter';
import { withAccountScope } from '../core/account-scope';
import { SignInLimiter } from '../auth/sign-in-limiter';
import {
  createRestFacade,
  exportShiftsCsv,
  RenderPool,
  type ShiftExportQuery,
} from '../../rest-facade';
import type { Config } from '../core/config';
import { bodyRefusalOf, HTTP_STATUS } from '../core/errors';
import { createApolloServer } from '../graphql/apollo';
import { replicaRouting } from '../graphql/replica-routing';
import type { ReadReplicas } from '../db/read-replicas';
import { createContextFactory, createLiveSessionFactory } from '../graphql/context';
import { CredentialCheck } from '../auth/credential-check';
import { NotificationListener, LiveShiftEvents } from '../modules/events';
import {
  credentialsOf,
  loggerOf,
  requestOptionsOf,
  type ContextFactory,
  type RequestContext,
} from '../core/request-context';
import { createExecutor, type Executor } from '../graphql/executor';
import { contextFailureError } from '../graphql/format-error';
import { createGraphiQLRouter } from './graphiql-page';
import { createWebAppRouter } from './web-app';
import { operationGuards } from '../graphql/operation-guards';
import { rawJsonAnswers, rawJsonOf } from '../graphql/raw-json-answers';
import { attachSubscriptionServer, type SubscriptionServer } from '../graphql/subscription-server';
import { createSchema } from '../graphql/schema';
import { createServices } from '../graphql/services';
import { createGeocoder } from '../modules/companies';
import { webhookSink } from '../modules/webhooks';
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
  /** Writes the file of GET /api/1/shifts.csv for `ctx` (the CLI's export); resolves with its rows. */
  exportShifts(
    ctx: RequestContext,
    query: ShiftExportQuery,
    open: () => NodeJS.WritableStream,
    signal?: AbortSignal,
  ): Promise<number>;
  readonly hasher: PasswordHasher;
  /** Each account's share of requests in flight and of the heavy-work lane (read by tests). */
  readonly fairShare: FairShareLimiter;
  /** The worker threads that render the downloads' documents (stopped by stop()). */
  readonly renderPool: RenderPool;
  /** The process logger (request lines come from its children, with their request id). */
  readonly logger: Logger;
  stop(): Promise<void>;
}

/** Composes the HTTP application: /graphql and the legacy facades beside it. */
export async function createApp(deps: {
  orm: MikroORM;
  config: Config;
  logger?: Logger;
  /** The database's read replicas (DATABASE_REPLICA_URLS); the app starts checking them. */
  replicas?: ReadReplicas;
  /** What the cost budgets take for now (epoch ms); tests hold it still, so nothing refills. */
  clock?: () => number;
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
  const costBudget = new CostBudget(knex, config.costBudgets, deps.clock);
  const contextDeps = {
    orm,
    config,
    authenticator: new RequestAuthenticator(basic, oauth1, oauth2),
    limiter,
    fairShare,
    costBudget,
    logger,
  };
  const createContext = createContextFactory(contextDeps);
  const originPolicy = originPolicyOf(config);
  // With a PostgreSQL server, one LISTEN connection per process hears what the others announce:
  // shift events, and changes of credentials (sent by the writes, from whichever process).
  const listener =
    config.database.kind === 'server' && config.db.listen
      ? new NotificationListener(config.database.sessionUrl ?? config.database.url, logger)
      : undefined;
  let subscriptions: SubscriptionServer | undefined;
  listener?.on(CREDENTIALS_CHANNEL, (payload) =>
    subscriptions?.credentialsChanged(Number(payload)),
  );
  const live = new LiveShiftEvents(orm, listener, logger);
  live.start();
  await listener?.start();
  const schema = await createSchema(
    createServices(hasher, createGeocoder(config), [webhookSink, live.sink], {
      rollups: config.reportRollups,
    }),
    live.pubSub,
  );
  const guards = operationGuards(schema, config);
  await deps.replicas?.start(logger);
  const apollo = createApolloServer(
    schema,
    config,
    guards,
    deps.replicas &&
      replicaRouting({
        replicas: deps.replicas,
        primary: knex,
        listRows: config.db.replicaListRows,
        defaultPageSize: config.pageSize.default,
      }),
  );
  await apollo.start();

  const app = express();
  app.disable('x-powered-by');
  // Which proxies may name the client in X-Forwarded-For: the key of the address limits.
  app.set('trust proxy', config.trustProxy);
  // First: every later handler logs with the request id, and every answer is counted. The probes
  // and /metrics come before authentication and the rate limits, which they must not depend on.
  // Documents (XLSX, PDF) are rendered in worker threads, never on this event loop.
  const renderPool = new RenderPool({ ...config.render, logger });
  const observability = createObservability({
    orm,
    config,
    logger,
    replicas: deps.replicas,
    renderPool,
  });
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
      originPolicy,
      bodyLimitBytes: config.bodyLimitBytes,
    }),
  );
  // Before Apollo: a browser's GET /graphql gets the IDE, every GraphQL request passes through.
  app.use(createGraphiQLRouter(config));
  app.use(createWebAppRouter());
  app.use(
    '/graphql',
    express.json({ limit: config.bodyLimitBytes }),
    rawJsonAnswers,
    expressMiddleware(apollo, {
      context: async ({ req, res }) => {
        try {
          // Before the credentials are checked, as for every cross-site refusal.
          const refusal = graphqlRequestRefusal(
            graphqlRequestOf(req.method, req.headers),
            originPolicy,
          );
          if (refusal) throw refusal;
          return await createContext(credentialsOf(req), {
            ...requestOptionsOf(req),
            rawJson: rawJsonOf(res),
          });
        } catch (error) {
          throw contextFailureError(error, loggerOf(req));
        }
      },
    }),
    answerBodyRefusals,
  );
  const execute = createExecutor(apollo);
  app.use(
    createRestFacade({
      execute,
      createContext,
      bodyLimitBytes: config.bodyLimitBytes,
      renderPool,
    }),
  );
  return {
    express: app,
    createContext,
    execute,
    exportShifts: (ctx, query, open, signal) => exportShiftsCsv(execute, ctx, query, open, signal),
    hasher,
    fairShare,
    renderPool,
    logger,
    attachSubscriptions: (server) => {
      subscriptions = attachSubscriptionServer(server, {
        schema,
        openSession: createLiveSessionFactory({
          ...contextDeps,
          credentials: new CredentialCheck(orm),
        }),
        guards,
        // Queries and mutations on a socket run as on /graphql: through Apollo.
        execute: async (request, contextValue) => {
          const response = await apollo.executeOperation(
            {
              query: request.query,
              operationName: request.operationName ?? undefined,
              variables: request.variables ?? undefined,
            },
            { contextValue },
          );
          if (response.body.kind !== 'single')
            throw new Error('incremental delivery is not supported over WebSocket');
          return response.body.singleResult;
        },
        config,
        logger,
      });
    },
    closeSubscriptions: async () => {
      await subscriptions?.close();
    },
    stop: async () => {
      await subscriptions?.close();
      await listener?.stop();
      await renderPool.close();
      await apollo.stop();
    },
  };
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
