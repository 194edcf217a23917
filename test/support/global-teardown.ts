import { dropClusterDatabase } from '../../bench/citus-nodes';
import { CITUS_EMPTY_TEMPLATE_ENV, SERVER_TEMPLATE_ENV, testCitusWorkers } from './test-database';

/**
 * Drops the run's template databases on the server, and on a Citus cluster on every node
 * (global-setup.ts); the embedded one is cached.
 */
async function globalTeardown(): Promise<void> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return;
  for (const template of [SERVER_TEMPLATE_ENV, CITUS_EMPTY_TEMPLATE_ENV]) {
    const name = process.env[template];
    if (name) await dropClusterDatabase(serverUrl, testCitusWorkers(), name);
  }
}

// Jest takes the module itself as the function (the lint rule keeps default exports out).
export = globalTeardown;
