import { startEmbeddedPostgres } from '../../src/db/embedded/embedded-postgres';
import { startTcpProxy, throughProxy, type TcpProxy } from './tcp-proxy';
import {
  createTestDatabaseTarget,
  EMBEDDED_TEMPLATE_ENV,
  type TestDatabaseTarget,
} from './test-database';

export interface ProxiedDatabase {
  target: TestDatabaseTarget;
  proxy: TcpProxy;
}

/**
 * A fresh migrated database (the embedded one, or one of TEST_DATABASE_URL) reached only through a
 * TCP proxy the test controls: `proxy.cut()` plays a stopped server, `proxy.blackhole()` a
 * partition. Pass `target` to startTestApp; closing the app drops the database and closes the proxy.
 */
export async function proxiedDatabase(): Promise<ProxiedDatabase> {
  if (process.env.TEST_DATABASE_URL) {
    const base = await createTestDatabaseTarget({ schema: 'migrated' });
    const url = new URL(base.env.DATABASE_URL!);
    const proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    return {
      proxy,
      target: {
        env: { DATABASE_URL: throughProxy(url.toString(), proxy) },
        inMemory: false,
        drop: async () => {
          await proxy.close();
          await base.drop();
        },
      },
    };
  }
  const template = process.env[EMBEDDED_TEMPLATE_ENV];
  const embedded = await startEmbeddedPostgres({
    memory: true,
    ...(template ? { restoreFrom: template } : {}),
  });
  const url = new URL(embedded.url);
  const proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port) });
  return {
    proxy,
    target: {
      // Through a URL the app sees a "server", so the embedded database's one connection must be
      // set by hand: a pool of one, and no second connection to LISTEN on.
      env: {
        DATABASE_URL: throughProxy(embedded.url, proxy),
        DB_POOL_MAX: '1',
        DB_LISTEN: 'false',
      },
      inMemory: false,
      drop: async () => {
        await proxy.close();
        await embedded.stop();
      },
    },
  };
}
