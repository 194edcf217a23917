import 'reflect-metadata';
import { expressMiddleware } from '@as-integrations/express5';
import express, { type Express } from 'express';
import { GraphQLError } from 'graphql';
import type { MikroORM } from '@mikro-orm/postgresql';
import { BasicAuthenticator } from './auth/basic-auth';
import { OAuth1Provider } from './auth/oauth1-provider';
import { OAuth2Provider } from './auth/oauth2-provider';
import { createOAuthRouter } from './auth/oauth-routes';
import { createPasswordHasher, type PasswordHasher } from './auth/passwords';
import { RequestAuthenticator } from './auth/request-authenticator';
import { RequestLimiter } from './auth/request-limiter';
import { SignInLimiter } from './auth/sign-in-limiter';
import { createRestFacade } from '../rest-facade';
import type { Config } from './config';
import { AppError } from './errors';
import { createApolloServer } from './graphql/apollo';
import { createContextFactory, credentialsOf, requestOptionsOf, type ContextFactory } from './graphql/context';
import { createExecutor, type Executor } from './graphql/executor';
import { createSchema } from './graphql/schema';
import { createServices } from './graphql/services';
import { createGeocoder } from './modules/companies/geocoder';

export interface App {
  readonly express: Express;
  readonly createContext: ContextFactory;
  readonly execute: Executor;
  readonly hasher: PasswordHasher;
  stop(): Promise<void>;
}

/** Composes the HTTP application: /graphql and the legacy facades beside it. */
export async function createApp(deps: { orm: MikroORM; config: Config }): Promise<App> {
  const { orm, config } = deps;
  const hasher = createPasswordHasher(config.auth.hashMemoryKib);
  const knex = orm.em.getConnection().getKnex();
  const signInLimiter = new SignInLimiter(knex, config.auth.signInLimits);
  const basic = new BasicAuthenticator(hasher, signInLimiter, config.auth.cacheTtlMs);
  const oauth1 = new OAuth1Provider(orm, signInLimiter, { timestampWindowSeconds: config.auth.oauth1TimestampWindowSeconds, publicUrl: config.auth.publicUrl });
  const oauth2 = new OAuth2Provider(orm);
  const limiter = new RequestLimiter(knex, config.rateLimits);
  const createContext = createContextFactory({ orm, config, authenticator: new RequestAuthenticator(basic, oauth1, oauth2), limiter });
  const schema = await createSchema(createServices(hasher, createGeocoder(config)));
  const apollo = createApolloServer(schema, config);
  await apollo.start();

  const app = express();
  app.disable('x-powered-by');
  // Which proxies may name the client in X-Forwarded-For: the key of the address limits.
  app.set('trust proxy', config.trustProxy);
  app.use(createOAuthRouter({ orm, oauth1, oauth2, basic, publicUrl: config.auth.publicUrl, bodyLimitBytes: config.bodyLimitBytes }));
  app.use(
    '/graphql',
    express.json({ limit: config.bodyLimitBytes }),
    expressMiddleware(apollo, {
      context: async ({ req }) => {
        try {
          return await createContext(credentialsOf(req), requestOptionsOf(req));
        } catch (error) {
          throw toHttpGraphQLError(error);
        }
      },
    }),
  );
  const execute = createExecutor(apollo);
  app.use(createRestFacade({ execute, createContext, bodyLimitBytes: config.bodyLimitBytes }));
  return { express: app, createContext, execute, hasher, stop: () => apollo.stop() };
}

/** Context failures (no or bad credentials, too many failures, database down) become coded HTTP errors. */
function toHttpGraphQLError(error: unknown): GraphQLError {
  const appError = error instanceof AppError ? error : undefined;
  if (appError?.code === 'UNAUTHENTICATED') {
    return new GraphQLError(appError.message, {
      extensions: {
        code: 'UNAUTHENTICATED',
        http: { status: 401, headers: new Map([['www-authenticate', 'Basic realm="timetrack", charset="UTF-8"']]) },
      },
    });
  }
  if (appError?.code === 'TOO_MANY_REQUESTS') {
    const wait = String(appError.details.retryAfterSeconds);
    return new GraphQLError(appError.message, {
      extensions: { code: appError.code, retryAfterSeconds: appError.details.retryAfterSeconds, http: { status: 429, headers: new Map([['retry-after', wait]]) } },
    });
  }
  if (appError?.code === 'SERVICE_UNAVAILABLE') {
    return new GraphQLError(appError.message, { extensions: { code: appError.code, http: { status: 503 } } });
  }
  console.error('context creation failed', error);
  return new GraphQLError('Internal server error', { extensions: { code: 'INTERNAL_SERVER_ERROR', http: { status: 500 } } });
}
