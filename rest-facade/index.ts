import { Router } from 'express';
import type { ContextFactory, RequestContext } from '../src/core/request-context';
import type { Executor } from '../src/graphql/executor';
import { createCsvRouter } from './downloads/download-routes';
import { writeShiftsCsv, type ShiftExportQuery } from './csv/shift-export';
import { createDispatcher } from './dispatcher';
import { jsonFormat, type JsonRoute } from './json/json-format';
import { OperationRegistry } from './operation-registry';
import type { RenderPool } from './render/render-pool';
import { activityJsonRoutes } from './routes/activities.routes';
import { companyJsonRoutes } from './routes/companies.routes';
import { projectJsonRoutes } from './routes/projects.routes';
import { shiftJsonRoutes } from './routes/shifts.routes';
import { staffJsonRoutes } from './routes/staff.routes';
import { timeZoneJsonRoutes } from './routes/time-zones.routes';
import { XML_ROUTES } from './routes/xml.routes';
import { xmlFormat } from './xml/xml-format';

/** Every route of the JSON interface under /api/1, in the order of docs/json-api.md ("Routes"). */
export const JSON_ROUTES: readonly JsonRoute[] = [
  ...staffJsonRoutes,
  ...companyJsonRoutes,
  ...projectJsonRoutes,
  ...activityJsonRoutes,
  ...shiftJsonRoutes,
  ...timeZoneJsonRoutes,
];

export interface RestFacadeDeps {
  readonly execute: Executor;
  readonly createContext: ContextFactory;
  readonly bodyLimitBytes: number;
  /** Where the downloads' documents (XLSX, PDF) are rendered; the app closes it. */
  readonly renderPool: RenderPool;
}

/** The legacy interfaces as a router: each route runs one named GraphQL operation in-process. */
export function createRestFacade(deps: RestFacadeDeps): Router {
  const registry = OperationRegistry.load();
  const router = Router();
  // Before the JSON dispatcher, which answers any other suffix under /api/1 with 404.
  router.use(
    createCsvRouter({
      execute: deps.execute,
      createContext: deps.createContext,
      registry,
      renderPool: deps.renderPool,
    }),
  );
  router.use(
    '/api/1',
    createDispatcher({
      routes: JSON_ROUTES,
      registry,
      execute: deps.execute,
      createContext: deps.createContext,
      format: jsonFormat(deps.bodyLimitBytes),
    }),
  );
  // Root-level *.xml paths; anything else passes on to the next handler.
  router.use(
    createDispatcher({
      routes: XML_ROUTES,
      registry,
      execute: deps.execute,
      createContext: deps.createContext,
      format: xmlFormat(deps.bodyLimitBytes),
    }),
  );
  return router;
}

export type { ShiftExportQuery };
export { RenderPool, type RenderPoolStats } from './render/render-pool';

/**
 * The file of GET /api/1/shifts.csv for a context made without HTTP (the CLI's `export`): the same
 * operations, language and columns as the route. Resolves with the number of rows written.
 */
export function exportShiftsCsv(
  execute: Executor,
  ctx: RequestContext,
  query: ShiftExportQuery,
  open: () => NodeJS.WritableStream,
  signal?: AbortSignal,
): Promise<number> {
  return writeShiftsCsv({ execute, registry: OperationRegistry.load() }, ctx, query, open, signal);
}
