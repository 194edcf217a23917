import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { FieldError } from '../../src/core/errors';
import { createApp, type App } from '../../src/http/app';
import type { RequestCredentials } from '../../src/core/request-context';
import { loadConfig, type Config } from '../../src/core/config';
import { openDatabase, type Database } from '../../src/db/database';
import { createAccount, type CreateAccountInput } from '../../src/modules/staff/account-opening';
import { OAuthClientService } from '../../src/modules/oauth';
import { createLogger } from '../../src/core/logger';
import { createTestDatabaseTarget, type TestDatabaseTarget } from './test-database';

/**
 * The cost budgets as a production service has them (the settings' defaults), for the tests that
 * replay a real client's session: its requests must all fit. The suite's other tests run without.
 */
export const DEFAULT_COST_BUDGETS: Record<string, string> = (() => {
  const { perUser, perAccount } = loadConfig({}).costBudgets;
  return {
    GRAPHQL_COST_BUDGET_PER_USER: String(perUser),
    GRAPHQL_COST_BUDGET_PER_ACCOUNT: String(perAccount),
  };
})();

export interface Credentials {
  login: string;
  password: string;
}

export interface GraphQLResponse<T = Record<string, any>> {
  status: number;
  data?: T | null;
  errors?: {
    message: string;
    path?: string[];
    extensions?: { code?: string; [key: string]: unknown };
  }[];
  extensions?: Record<string, any>;
}

export interface TestApp {
  readonly app: App;
  readonly db: Database;
  readonly config: Config;
  /** Posts a GraphQL operation to /graphql over in-process HTTP with Basic credentials. */
  gql<T = Record<string, any>>(
    who: Credentials | undefined,
    query: string,
    variables?: Record<string, unknown>,
  ): Promise<GraphQLResponse<T>>;
  /** Like gql, but fails the test on any error and returns data. */
  gqlOk<T = Record<string, any>>(
    who: Credentials,
    query: string,
    variables?: Record<string, unknown>,
  ): Promise<T>;
  /**
   * Runs a create mutation (`createCompany`, ...) whose input and payload types are named after it,
   * for fixtures; answers the created object's `id` and `legacyId`.
   */
  create(
    who: Credentials,
    mutation: string,
    input: Record<string, unknown>,
  ): Promise<{ id: string; legacyId: number }>;
  /** A new account with its owner; returns the owner's credentials and ids. */
  newAccount(
    overrides?: Partial<CreateAccountInput>,
  ): Promise<Credentials & { ownerId: string; ownerLegacyId: number; accountId: number }>;
  /** A new user in the account of `owner`, through the API. */
  newStaff(
    owner: Credentials,
    overrides?: Record<string, unknown>,
  ): Promise<Credentials & { id: string; legacyId: number }>;
  /** Serves the app on a loopback port (started on first use) for clients that need a real URL. */
  listen(): Promise<string>;
  /** Counts the SQL statements `work` sends to the database. */
  countStatements(work: () => Promise<unknown>): Promise<number>;
  /** The SQL statements `work` sends to the database, in order. */
  recordStatements(work: () => Promise<unknown>): Promise<string[]>;
  close(): Promise<void>;
}

let counter = 0;

export interface StartTestAppOptions {
  /**
   * The database to use instead of a fresh migrated one of createTestDatabaseTarget (dropped on
   * close).
   */
  target?: TestDatabaseTarget;
  /** Where the app's log lines go instead of stdout (set LOG_LEVEL too: tests default to silent). */
  logDestination?: { write(line: string): void };
  /** The cost budgets' clock (epoch ms): a test that holds it still sees no refill between requests. */
  clock?: () => number;
}

export async function startTestApp(
  env: Record<string, string> = {},
  options: StartTestAppOptions = {},
): Promise<TestApp> {
  const target = options.target ?? (await createTestDatabaseTarget({ schema: 'migrated' }));
  const config = loadConfig({
    NODE_ENV: 'test',
    // Cheap hashes keep the suite fast (the setting's least, 8 KiB: a fifth of a millisecond a
    // hash where 1 MiB takes several, and the suite hashes thousands of passwords); production
    // defaults are tested in their own file.
    PASSWORD_HASH_MEMORY_KIB: '8',
    // The contract tests send hundreds of deliberate failures from one address and login; the
    // limits themselves are tested with small values in sign-in-limits.test.ts.
    AUTH_FAILURES_PER_LOGIN: '100000',
    AUTH_FAILURES_PER_ADDRESS: '100000',
    // The cost budgets charge each operation one statement and meter on the wall clock: off here,
    // so statement counts and tests that send many heavy operations stay what they test. The
    // budgets are tested with their own settings and a held clock (cost-budget.test.ts,
    // limits-visible.test.ts).
    GRAPHQL_COST_BUDGET_PER_USER: '0',
    GRAPHQL_COST_BUDGET_PER_ACCOUNT: '0',
    // A query waits for a connection as long as a saturated CI machine may need: the suite tests
    // what requests answer, and a 503 "busy" after the production default's 10 s wait is a fact
    // of the machine's load there. The outage and fair-share tests set their own, shorter waits.
    DB_ACQUIRE_TIMEOUT_MS: '120000',
    ...target.env,
    ...env,
  });
  const db = await openDatabase(config, {
    inMemory: target.inMemory,
    ...(target.restoreFrom ? { restoreFrom: target.restoreFrom } : {}),
  });
  const app = await createApp({
    orm: db.orm,
    config,
    replicas: db.replicas,
    logger: options.logDestination
      ? createLogger(config.log.level, options.logDestination)
      : undefined,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const http = request(app.express);
  // The statements of the recordings in progress (none most of the time).
  const recordings = new Set<string[]>();
  const knex = db.orm.em.getConnection().getKnex();
  knex.on('query', (query: { sql: string }) => {
    for (const recording of recordings) recording.push(query.sql);
  });
  const recordStatements: TestApp['recordStatements'] = async (work) => {
    const recording: string[] = [];
    recordings.add(recording);
    try {
      await work();
    } finally {
      recordings.delete(recording);
    }
    return recording;
  };

  const gql: TestApp['gql'] = async (who, query, variables = {}) => {
    let req = http.post('/graphql').set('content-type', 'application/json');
    if (who) req = req.auth(who.login, who.password);
    const res = await req.send({ query, variables });
    return { status: res.status, ...(res.body as object) } as GraphQLResponse<any>;
  };

  const gqlOk: TestApp['gqlOk'] = async (who, query, variables) => {
    const res = await gql(who, query, variables);
    if (res.errors?.length || res.status !== 200) {
      throw new Error(`GraphQL failed (${res.status}): ${JSON.stringify(res.errors)}`);
    }
    return res.data as any;
  };

  const create: TestApp['create'] = async (who, mutation, input) => {
    const inputType = `${mutation[0]!.toUpperCase()}${mutation.slice(1)}Input`;
    // The payload names the new object after the type: createCompany answers { company }.
    const created = `${mutation[6]!.toLowerCase()}${mutation.slice(7)}`;
    const data = await gqlOk(
      who,
      `mutation($input: ${inputType}!) { ${mutation}(input: $input) { ${created} { id legacyId } } }`,
      { input },
    );
    return data[mutation][created];
  };

  let server: Server | undefined;
  const listen = async () => {
    server ??= await new Promise<Server>((resolve) => {
      const started = createServer(app.express);
      app.attachSubscriptions(started);
      started.listen(0, '127.0.0.1', () => resolve(started));
    });
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  return {
    app,
    db,
    config,
    listen,
    gql,
    gqlOk,
    create,
    newAccount: async (overrides = {}) => {
      counter += 1;
      const login = overrides.login ?? `owner${counter}_${Math.random().toString(36).slice(2, 8)}`;
      const password = overrides.password ?? 'owner-password';
      const { account, owner } = await createAccount(db.orm, app.hasher, new OAuthClientService(), {
        login,
        password,
        email: `${login}@example.com`,
        firstName: 'Olivia',
        lastName: 'Owner',
        ...overrides,
      });
      return {
        login,
        password,
        ownerId: owner.uuid,
        ownerLegacyId: owner.id,
        accountId: account.id,
      };
    },
    newStaff: async (owner, overrides = {}) => {
      counter += 1;
      const login =
        (overrides.login as string | undefined) ??
        `staff${counter}_${Math.random().toString(36).slice(2, 8)}`;
      const password = (overrides.password as string | undefined) ?? 'staff-password';
      const data = await gqlOk<{ createStaff: { staff: { id: string; legacyId: number } } }>(
        owner,
        'mutation($input: CreateStaffInput!) { createStaff(input: $input) { staff { id legacyId } } }',
        { input: { login, password, firstName: 'Sam', lastName: 'Staff', ...overrides } },
      );
      return { login, password, ...data.createStaff.staff };
    },
    countStatements: async (work) => (await recordStatements(work)).length,
    recordStatements,
    close: async () => {
      if (server) {
        await app.closeSubscriptions();
        server.closeAllConnections();
        await new Promise((resolve) => server!.close(resolve));
      }
      await app.stop();
      await db.close();
      await target.drop();
    },
  };
}

/** The credentials of a Basic-authenticated local request, for calling the context factory directly. */
export function basicCredentials(who: Credentials): RequestCredentials {
  const authorization = `Basic ${Buffer.from(`${who.login}:${who.password}`).toString('base64')}`;
  return {
    authorization,
    method: 'POST',
    url: '/graphql',
    host: 'localhost',
    protocol: 'http',
    address: '127.0.0.1',
  };
}

/** The error codes of a response, in order. */
export function codes(res: GraphQLResponse): (string | undefined)[] {
  return (res.errors ?? []).map((e) => e.extensions?.code);
}

/** The one error of a response: its code and the fields its fieldErrors name. */
export function onlyError(res: GraphQLResponse): { code: string | undefined; fields: string[] } {
  expect(res.errors).toHaveLength(1);
  const fieldErrors = (res.errors?.[0]?.extensions?.fieldErrors ?? []) as FieldError[];
  return { code: codes(res)[0], fields: fieldErrors.map((e) => e.field) };
}
