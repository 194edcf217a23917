import type { MikroORM } from '@mikro-orm/postgresql';
import { Router, type RequestHandler } from 'express';
import type { Registry } from 'prom-client';
import type { Config } from '../../core/config';
import type { ReadReplicas } from '../../db/read-replicas';
import type { RenderPool } from '../../../rest-facade';
import { liveness, ReadinessCheck } from './health-checks';
import type { Logger } from '../../core/logger';
import { createMetrics, metricsEndpoint } from './metrics';
import { requestLogging } from './request-logging';
import { RouteLabeller } from './route-labels';

export interface Observability {
  readonly registry: Registry;
  readonly readiness: ReadinessCheck;
  /** Mounted first: request id, request logger, access line, request metrics. */
  readonly middleware: RequestHandler[];
  /** `/healthz`, `/readyz`, `/metrics`: no authentication (but METRICS_TOKEN), no rate limit, no body. */
  readonly routes: Router;
}

/** Logs, probes and metrics of one app. */
export function createObservability(deps: {
  orm: MikroORM;
  config: Config;
  logger: Logger;
  replicas?: ReadReplicas;
  renderPool?: RenderPool;
}): Observability {
  const labeller = new RouteLabeller();
  const metrics = createMetrics({
    knex: deps.orm.em.getConnection().getKnex(),
    labeller,
    logger: deps.logger,
    replicas: deps.replicas,
    renderPool: deps.renderPool,
  });
  const readiness = new ReadinessCheck(deps.orm, deps.logger, deps.replicas);
  const routes = Router();
  routes.get('/healthz', liveness);
  routes.get('/readyz', readiness.endpoint);
  routes.get('/metrics', metricsEndpoint(metrics.registry, deps.config.metricsToken));
  return {
    registry: metrics.registry,
    readiness,
    middleware: [requestLogging(deps.logger, labeller), metrics.countRequests],
    routes,
  };
}
