import 'reflect-metadata';
import { expressMiddleware } from '@as-integrations/express5';
import express, { type Express } from 'express';
import { GraphQLError } from 'graphql';
import type { MikroORM } from '@mikro-orm/postgresql';
import { BasicAuthenticator } from './auth/basic-auth';
import { createPasswordHasher, type PasswordHasher } from './auth/passwords';
import { createRestFacade } from '../rest-facade';
import type { Config } from './config';
import { AppError } from './errors';
import { createApolloServer } from './graphql/apollo';
import { createContextFactory, type ContextFactory } from './graphql/context';
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
  const authenticator = new BasicAuthenticator(hasher, config.auth.cacheTtlMs);
  const createContext = createContextFactory({ orm, config, authenticator });
  const schema = await createSchema(createServices(hasher, createGeocoder(config)));
  const apollo = createApolloServer(schema, config);
  await apollo.start();

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.use(
    '/graphql',
    express.json({ limit: config.bodyLimitBytes }),
    expressMiddleware(apollo, {
      context: async ({ req }) => {
        try {
          return await createContext({ authorization: req.headers.authorization });
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

/** Context failures (no or bad credentials, database down) become coded HTTP errors. */
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
  if (appError?.code === 'SERVICE_UNAVAILABLE') {
    return new GraphQLError(appError.message, { extensions: { code: appError.code, http: { status: 503 } } });
  }
  console.error('context creation failed', error);
  return new GraphQLError('Internal server error', { extensions: { code: 'INTERNAL_SERVER_ERROR', http: { status: 500 } } });
}
