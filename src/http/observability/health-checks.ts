import type { MikroORM } from '@mikro-orm/postgresql';
import type { RequestHandler } from 'express';
import { DeadlineExceededError, withDeadline } from '../../core/deadline';
import { currentLogger, type Logger } from '../../core/logger';
import type { ReadReplicas } from '../../db/read-replicas';

/** How long /readyz waits for the database before it answers 503. */
export const READINESS_DEADLINE_MS = 2_000;

type CheckState = 'ok' | 'unreachable' | 'timeout' | 'pending' | 'unknown';

export interface Readiness {
  readonly ready: boolean;
  readonly checks: { readonly database: CheckState; readonly migrations: CheckState };
  /** The migrations not applied yet, when that is what is wrong. */
  readonly pendingMigrations?: readonly string[];
}

/** `/healthz`: the process is up and serving HTTP. It asks nothing of the database on purpose. */
export const liveness: RequestHandler = (_req, res) => {
  res.set('Cache-Control', 'no-store').json({ status: 'ok' });
};

/**
 * Whether this process should be sent traffic: the database answers `select 1` in time, and every
 * migration this code knows is applied. Once the migrations were found applied they stay so (no
 * process un-applies them), so later probes cost one `select 1`. Probes that arrive while one is
 * running share its answer: a load balancer polling a dead database does not pile up queries.
 */
export class ReadinessCheck {
  private migrationsApplied = false;
  private running: Promise<Readiness> | undefined;

  constructor(
    private readonly orm: MikroORM,
    private readonly logger: Logger,
    private readonly replicas?: ReadReplicas,
    private readonly deadlineMs = READINESS_DEADLINE_MS,
  ) {}

  check(): Promise<Readiness> {
    return (this.running ??= this.run().finally(() => {
      this.running = undefined;
    }));
  }

  /** `/readyz`: 200 or 503, with what was checked in the body (no error text: it is unauthenticated). */
  readonly endpoint: RequestHandler = async (_req, res) => {
    const readiness = await this.check();
    res
      .status(readiness.ready ? 200 : 503)
      .set('Cache-Control', 'no-store')
      .json({
        status: readiness.ready ? 'ready' : 'unavailable',
        checks: readiness.checks,
        ...(readiness.pendingMigrations ? { pendingMigrations: readiness.pendingMigrations } : {}),
        // Each read replica's state and lag, as last checked. They do not make the process
        // unready: the primary answers the reads of a replica that is down or lags.
        ...(this.replicas
          ? {
              replicas: this.replicas
                .statuses()
                .map(({ name, state, lagMs }) => ({ name, state, lagMs })),
            }
          : {}),
      });
  };

  private async run(): Promise<Readiness> {
    const database = await this.attempt('the database', () =>
      this.orm.em.getConnection().execute('select 1'),
    );
    if (database !== 'ok')
      return {
        ready: false,
        checks: { database, migrations: this.migrationsApplied ? 'ok' : 'unknown' },
      };
    if (this.migrationsApplied) return { ready: true, checks: { database, migrations: 'ok' } };
    let pending: string[] = [];
    const listed = await this.attempt('the migration check', async () => {
      pending = (await this.orm.getMigrator().getPendingMigrations()).map(
        (migration) => migration.name,
      );
    });
    if (listed !== 'ok') return { ready: false, checks: { database, migrations: 'unknown' } };
    if (pending.length > 0)
      return {
        ready: false,
        checks: { database, migrations: 'pending' },
        pendingMigrations: pending,
      };
    this.migrationsApplied = true;
    return { ready: true, checks: { database, migrations: 'ok' } };
  }

  private async attempt(what: string, work: () => Promise<unknown>): Promise<CheckState> {
    try {
      await withDeadline(work(), this.deadlineMs, what);
      return 'ok';
    } catch (error) {
      currentLogger(this.logger).warn({ err: error }, `readiness: ${what} failed`);
      return error instanceof DeadlineExceededError ? 'timeout' : 'unreachable';
    }
  }
}
