import { timingSafeEqual } from 'node:crypto';
import type { Knex } from '@mikro-orm/postgresql';
import type { Request, RequestHandler, Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ErrorCode } from '../../core/errors';
import { MAX_ATTEMPTS } from '../../modules/outbox';
import { withDeadline } from '../../core/deadline';
import { currentLogger, type Logger } from '../../core/logger';
import type { RouteLabeller } from './route-labels';
import type { ReadReplicas, ReplicaStatus } from '../../db/read-replicas';
import type { RenderPool, RenderPoolStats } from '../../../rest-facade';

/** How long a scrape waits for the outbox count before it leaves the gauge out. */
export const SCRAPE_QUERY_DEADLINE_MS = 2_000;

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const OUTBOX_KINDS = ['email', 'webhook'] as const;

/** tarn's pool, as knex keeps it; absent before the first connection is asked for and after destroy. */
interface TarnPool {
  readonly max: number;
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  numPendingCreates(): number;
}

export interface Metrics {
  /** One registry per app: several apps in one process (tests) do not share counters. */
  readonly registry: Registry;
  /** Counts and times every request once it is answered (or its client went away). */
  readonly countRequests: RequestHandler;
}

/**
 * The service's Prometheus metrics: the process's defaults (the event loop's delay among them),
 * requests by interface and route template, the database pool, the outbox's backlog (one count
 * query per scrape) and the render pool's threads and documents.
 */
export function createMetrics(deps: {
  knex: Knex;
  labeller: RouteLabeller;
  logger: Logger;
  replicas?: ReadReplicas;
  renderPool?: RenderPool;
}): Metrics {
  const registry = new Registry();
  // Among them nodejs_eventloop_lag_{min,max,mean,stddev,p50,p90,p99}_seconds: how late the event
  // loop ran a 10 ms timer (perf_hooks.monitorEventLoopDelay), over the time since the last scrape.
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by interface, route template, method and status',
    labelNames: ['interface', 'route', 'method', 'status'] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request to the end of its answer, by interface, route template and method',
    labelNames: ['interface', 'route', 'method'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  registerPoolGauges(registry, () => (deps.knex.client as { pool?: TarnPool }).pool);
  registerOutboxGauge(registry, deps.knex, deps.logger);
  if (deps.replicas) registerReplicaMetrics(registry, deps.replicas);
  if (deps.renderPool) registerRenderMetrics(registry, deps.renderPool);

  const countRequests: RequestHandler = (req, res, next) => {
    const started = process.hrtime.bigint();
    let done = false;
    const record = () => {
      if (done) return;
      done = true;
      const labels = deps.labeller.labelsOf(req, res);
      const method = METHODS.has(req.method) ? req.method : 'OTHER';
      const common = { interface: labels.interface, route: labels.route, method };
      requests.inc({ ...common, status: statusOf(res) });
      durations.observe(common, Number(process.hrtime.bigint() - started) / 1e9);
    };
    res.once('finish', record);
    res.once('close', record);
    next();
  };
  return { registry, countRequests };
}

/** The answer's status; 499 (as nginx logs it) when the client went away before the answer was complete. */
function statusOf(res: Response): string {
  return res.writableFinished ? String(res.statusCode) : '499';
}

/** Each read replica's state, lag and reads, as its last check and the routing left them. */
function registerReplicaMetrics(registry: Registry, replicas: ReadReplicas): void {
  type ValueOf = (status: ReplicaStatus) => number | null;
  const each = (valueOf: ValueOf, record: (labels: { replica: string }, value: number) => void) => {
    for (const status of replicas.statuses()) {
      const value = valueOf(status);
      if (value !== null) record({ replica: status.name }, value);
    }
  };
  const common = { labelNames: ['replica'] as const, registers: [registry] };
  const gauge = (name: string, help: string, valueOf: ValueOf) =>
    new Gauge({
      name,
      help,
      ...common,
      collect() {
        this.reset();
        each(valueOf, (labels, value) => this.set(labels, value));
      },
    });
  const counter = (name: string, help: string, valueOf: ValueOf) =>
    new Counter({
      name,
      help,
      ...common,
      collect() {
        this.reset();
        each(valueOf, (labels, value) => this.inc(labels, value));
      },
    });
  gauge(
    'db_replica_streaming',
    'Whether the read replica takes reads (1): streaming within REPLICA_MAX_LAG_MS; 0 when it lags or is down',
    (status) => (status.state === 'streaming' ? 1 : 0),
  );
  gauge(
    'db_replica_lag_seconds',
    'How far the read replica was behind the primary at its last check (absent while it is down)',
    (status) => (status.lagMs === null ? null : status.lagMs / 1000),
  );
  counter(
    'db_replica_reads_total',
    'GraphQL operations (of every interface) answered from the read replica',
    (status) => status.reads,
  );
  counter(
    'db_replica_failed_reads_total',
    'GraphQL operations that failed on the read replica and ran again on the primary',
    (status) => status.failedReads,
  );
}

/** The render pool's threads, its jobs in progress and waiting, and the documents it ended. */
function registerRenderMetrics(registry: Registry, pool: RenderPool): void {
  const gauge = (name: string, help: string, read: (stats: RenderPoolStats) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read(pool.stats()));
      },
    });
  gauge(
    'render_threads',
    'Worker threads rendering documents (XLSX, PDF), up to RENDER_THREADS',
    (s) => s.threads,
  );
  gauge('render_jobs_running', 'Documents a render thread is working on', (s) => s.running);
  gauge('render_jobs_queued', 'Documents waiting for a free render thread', (s) => s.queued);
  new Counter({
    name: 'render_jobs_total',
    help: 'Documents rendered in a worker thread, by format and outcome (rendered, failed, abandoned)',
    labelNames: ['format', 'outcome'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const { format, outcome, count } of pool.stats().ended)
        this.inc({ format, outcome }, count);
    },
  });
}

function registerPoolGauges(registry: Registry, pool: () => TarnPool | undefined): void {
  const gauge = (name: string, help: string, read: (pool: TarnPool) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const current = pool();
        if (current) this.set(read(current));
        else this.reset();
      },
    });
  gauge('db_pool_connections_used', 'Database connections lent to requests right now', (p) =>
    p.numUsed(),
  );
  gauge('db_pool_connections_free', 'Open database connections idle in the pool', (p) =>
    p.numFree(),
  );
  gauge(
    'db_pool_connections_max',
    'The most connections the pool opens (DB_POOL_MAX; 1 for the embedded database)',
    (p) => p.max,
  );
  gauge('db_pool_acquires_pending', 'Requests waiting for a database connection', (p) =>
    p.numPendingAcquires(),
  );
  gauge('db_pool_creates_pending', 'Database connections being opened', (p) =>
    p.numPendingCreates(),
  );
}

/**
 * Messages not delivered yet, by kind; `given_up` are those past the last attempt, which wait for
 * an operator. The partial index on unsent messages keeps the count cheap. A database that does
 * not answer in time leaves the series out of this scrape rather than stalling it.
 */
function registerOutboxGauge(registry: Registry, knex: Knex, logger: Logger): void {
  new Gauge({
    name: 'outbox_backlog',
    help: 'Outbox messages (e-mails, webhook deliveries) not delivered yet; given_up="true": past the last attempt',
    labelNames: ['kind', 'given_up'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      try {
        const result = await withDeadline(
          knex.raw<{ rows: { kind: string; given_up: boolean; count: number }[] }>(
            'select kind, attempts >= ? as given_up, count(*)::int as count from outbox where sent_at is null group by 1, 2',
            [MAX_ATTEMPTS],
          ),
          SCRAPE_QUERY_DEADLINE_MS,
          'the outbox count',
        );
        // Every known series, zero included, so a dashboard sees 0 rather than nothing.
        for (const kind of OUTBOX_KINDS)
          for (const givenUp of ['false', 'true']) this.set({ kind, given_up: givenUp }, 0);
        for (const row of result.rows) {
          const kind = (OUTBOX_KINDS as readonly string[]).includes(row.kind) ? row.kind : 'other';
          this.inc({ kind, given_up: String(row.given_up) }, row.count);
        }
      } catch (error) {
        currentLogger(logger).warn(
          { err: error },
          'metrics: the outbox backlog could not be counted',
        );
      }
    },
  });
}

/** `/metrics` in Prometheus' text format; with a token, only for `Authorization: Bearer <token>`. */
export function metricsEndpoint(registry: Registry, token: string | undefined): RequestHandler {
  return async (req: Request, res: Response) => {
    if (token !== undefined && !bearerMatches(req.headers.authorization, token)) {
      res
        .status(401)
        .set('WWW-Authenticate', 'Bearer realm="metrics"')
        .json({
          error: {
            code: 'UNAUTHENTICATED' satisfies ErrorCode,
            message: 'The metrics need Authorization: Bearer <METRICS_TOKEN>',
          },
        });
      return;
    }
    res
      .set('Content-Type', registry.contentType)
      .set('Cache-Control', 'no-store')
      .send(await registry.metrics());
  };
}

function bearerMatches(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer +(\S+) *$/i.exec(authorization ?? '');
  if (!match) return false;
  const given = Buffer.from(match[1]!);
  const expected = Buffer.from(token);
  // Compared in constant time, so the answer's timing does not spell the token out.
  return given.length === expected.length && timingSafeEqual(given, expected);
}
