import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/**
 * Where a test file's database lives. With TEST_DATABASE_URL (CI: a real PostgreSQL server) each
 * file gets a database of its own, dropped afterwards; without it, an in-memory embedded
 * PostgreSQL that dies with the file.
 */
export interface TestDatabaseTarget {
  /** Environment for loadConfig: DATABASE_URL for a server, nothing for embedded. */
  env: Record<string, string>;
  inMemory: boolean;
  drop(): Promise<void>;
}

export async function createTestDatabaseTarget(): Promise<TestDatabaseTarget> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return { env: {}, inMemory: true, drop: async () => {} };
  const name = `timetrack_test_${randomBytes(6).toString('hex')}`;
  await withAdmin(serverUrl, (client) => client.query(`create database ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    inMemory: false,
    drop: () =>
      withAdmin(serverUrl, (client) =>
        client.query(`drop database if exists ${name} with (force)`),
      ).then(() => {}),
  };
}

async function withAdmin<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
