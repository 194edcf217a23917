import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/core/config';

test('defaults: embedded database in ./data, port 3000', () => {
  const config = loadConfig({});
  expect(config.database).toEqual({ kind: 'embedded', dataDir: path.resolve('./data') });
  expect(config.port).toBe(3000);
  expect(Object.isFrozen(config)).toBe(true);
});

test('DATABASE_URL selects a PostgreSQL server', () => {
  expect(loadConfig({ DATABASE_URL: 'postgres://u@h:5432/db' }).database).toEqual({
    kind: 'server',
    url: 'postgres://u@h:5432/db',
    replicaUrls: [],
  });
});

test('DATABASE_SESSION_URL and DATABASE_REPLICA_URLS: beside DATABASE_URL only', () => {
  const config = loadConfig({
    DATABASE_URL: 'postgres://u@pooler:6432/db',
    DATABASE_SESSION_URL: 'postgres://u@primary:5432/db',
    DATABASE_REPLICA_URLS: 'postgres://u@r1/db,postgresql://u@r2:5433/db',
  });
  expect(config.database).toEqual({
    kind: 'server',
    url: 'postgres://u@pooler:6432/db',
    sessionUrl: 'postgres://u@primary:5432/db',
    replicaUrls: ['postgres://u@r1/db', 'postgresql://u@r2:5433/db'],
  });
  expect(config.db).toMatchObject({ replicaMaxLagMs: 5000, replicaListRows: 500 });
  for (const name of ['DATABASE_SESSION_URL', 'DATABASE_REPLICA_URLS'])
    expect(() => loadConfig({ [name]: 'postgres://u@h/db' })).toThrow(
      `${name}: needs DATABASE_URL (a server)`,
    );
  expect(() =>
    loadConfig({ DATABASE_URL: 'postgres://u@h/db', DATABASE_REPLICA_URLS: 'postgres://a,' }),
  ).toThrow('DATABASE_REPLICA_URLS: must be postgres:// URLs separated by commas');
});

test.each([
  ['PORT', 'eighty'],
  ['PORT', '70000'],
  ['DATABASE_URL', 'mysql://x'],
  ['NODE_ENV', 'staging'],
  ['DB_POOL_MAX', '0'],
  ['WORKERS', '0'],
  ['WORKERS', 'two'],
  ['WORKERS', '257'],
])('an invalid %s=%s is refused with a message naming it', (name, value) => {
  expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
  expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
});

test('WORKERS: one process by default', () => {
  expect(loadConfig({}).workers).toBe(1);
  expect(loadConfig({ WORKERS: '4', DATABASE_URL: 'postgres://u@h/db' }).workers).toBe(4);
});

test('GRAPHIQL: on by default, off by default in production, and settable either way', () => {
  expect(loadConfig({}).graphiql).toBe(true);
  expect(loadConfig({ NODE_ENV: 'production' }).graphiql).toBe(false);
  expect(loadConfig({ NODE_ENV: 'production', GRAPHIQL: 'true' }).graphiql).toBe(true);
  expect(loadConfig({ GRAPHIQL: 'false' }).graphiql).toBe(false);
  expect(() => loadConfig({ GRAPHIQL: 'yes' })).toThrow(/GRAPHIQL/);
});

test("LOG_LEVEL: info by default, silent by default under NODE_ENV=test, one of pino's levels", () => {
  expect(loadConfig({}).log).toEqual({ level: 'info' });
  expect(loadConfig({ NODE_ENV: 'test' }).log).toEqual({ level: 'silent' });
  expect(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'debug' }).log).toEqual({ level: 'debug' });
  expect(() => loadConfig({ LOG_LEVEL: 'verbose' })).toThrow(/LOG_LEVEL/);
});

test('METRICS_TOKEN: unset by default; a short token or one with spaces is refused', () => {
  expect(loadConfig({}).metricsToken).toBeUndefined();
  expect(loadConfig({ METRICS_TOKEN: 'scrape-token-0123456789' }).metricsToken).toBe(
    'scrape-token-0123456789',
  );
  expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
  expect(() => loadConfig({ METRICS_TOKEN: 'sixteen chars and spaces' })).toThrow(/METRICS_TOKEN/);
});

test('ALLOWED_ORIGINS: none by default; origins only, spelled as browsers send them', () => {
  expect(loadConfig({}).auth.allowedOrigins).toEqual([]);
  expect(
    loadConfig({ ALLOWED_ORIGINS: 'https://App.Example.com/, http://localhost:8080' }).auth
      .allowedOrigins,
  ).toEqual(['https://app.example.com', 'http://localhost:8080']);
  for (const bad of [
    'null',
    '*',
    'https://a.example/path',
    'ftp://a.example',
    'https://a.example,',
  ])
    expect(() => loadConfig({ ALLOWED_ORIGINS: bad })).toThrow(/ALLOWED_ORIGINS/);
});

test('HTTP limits: defaults, and a headers timeout longer than the request timeout is refused', () => {
  expect(loadConfig({}).http).toEqual({
    maxConnections: 10_000,
    maxConnectionsPerAddress: 256,
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 30_000,
    keepAliveTimeoutMs: 5_000,
  });
  expect(() =>
    loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '20000', HTTP_REQUEST_TIMEOUT_MS: '10000' }),
  ).toThrow(/HTTP_HEADERS_TIMEOUT_MS/);
});

test('DB_ACQUIRE_TIMEOUT_MS: 10 s unless set, whatever the connect timeout', () => {
  expect(loadConfig({}).db.acquireTimeoutMs).toBe(10_000);
  expect(loadConfig({ DB_CONNECT_TIMEOUT_MS: '5000' }).db.acquireTimeoutMs).toBe(10_000);
  expect(loadConfig({ DB_ACQUIRE_TIMEOUT_MS: '3000' }).db.acquireTimeoutMs).toBe(3_000);
});
