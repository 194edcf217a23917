import { withClient } from '../../bench/postgres-clients';
import { SERVER_TEMPLATE_ENV } from './test-database';

/** Drops the run's template database on the server (global-setup.ts); the embedded one is cached. */
async function globalTeardown(): Promise<void> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const template = process.env[SERVER_TEMPLATE_ENV];
  if (serverUrl && template)
    await withClient(serverUrl, (client) =>
      client.query(`drop database if exists ${template} with (force)`),
    );
}

// Jest takes the module itself as the function (the lint rule keeps default exports out).
export = globalTeardown;
