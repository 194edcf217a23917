import type { Config } from '../core/config';
import {
  KeyedConcurrencyLimiter,
  LimitRefusedError,
  type Release,
} from '../core/concurrency-limiter';
import { TooManyRequestsError } from '../core/errors';
import type { HeavyWork } from '../core/request-context';

/** How long a client refused for a full queue should wait before it tries again. */
const IN_FLIGHT_RETRY_AFTER_S = 1;
const HEAVY_RETRY_AFTER_S = 5;

/**
 * Each account's fair share of this process (issue 20, finding 4). The rate limits count requests
 * over a minute; they did not stop one staff member's 400 concurrent punch-ins, or one owner's 12
 * concurrent reports, from taking every database connection while another account's requests
 * waited until they failed. Here, per account and per process:
 *
 * - **requests in flight**: at most `inFlightPerAccount` of an account's requests are served at
 *   once, the next `queuePerAccount` wait their turn in arrival order (at most `queueWaitMs`), and
 *   more are refused with 429 and `Retry-After` at once, before they cost a query;
 * - **heavy work** (reports, CSV exports) runs in a lane of its own: at most `heavyWorkPerAccount`
 *   of an account at once and `heavyWorkMax` of all accounts together, so heavy work can never
 *   hold more than a few of the pool's connections, whoever sends it.
 *
 * The database connections an account holds are capped below this, in the pool itself
 * (src/db/connection-lanes.ts).
 */
export class FairShareLimiter {
  private readonly inFlight: KeyedConcurrencyLimiter<number>;
  private readonly heavyPerAccount: KeyedConcurrencyLimiter<number>;
  private readonly heavyInProcess: KeyedConcurrencyLimiter<'all'>;

  constructor(limits: Config['fairShare']) {
    this.inFlight = new KeyedConcurrencyLimiter({
      perKey: limits.inFlightPerAccount,
      queuePerKey: limits.queuePerAccount,
      maxWaitMs: limits.queueWaitMs,
    });
    this.heavyPerAccount = new KeyedConcurrencyLimiter({
      perKey: limits.heavyWorkPerAccount,
      queuePerKey: limits.heavyQueuePerAccount,
      maxWaitMs: limits.queueWaitMs,
    });
    // Each account has at most heavyWorkPerAccount callers here, so the queue is bounded by the
    // number of accounts; it is first come, first served between them.
    this.heavyInProcess = new KeyedConcurrencyLimiter({
      perKey: limits.heavyWorkMax,
      queuePerKey: Number.MAX_SAFE_INTEGER,
      maxWaitMs: limits.queueWaitMs,
    });
  }

  /**
   * Waits for one of the account's places in flight, held until `ended` aborts (the answer is
   * complete or the client went away); TooManyRequestsError when the queue is full or the wait too
   * long. A client that hangs up while waiting leaves the queue.
   */
  async admit(accountId: number, ended: AbortSignal): Promise<void> {
    const release = await refusedAs429(
      this.inFlight.acquire(accountId, ended),
      IN_FLIGHT_RETRY_AFTER_S,
      'Too many requests of this account at once',
    );
    holdUntil(ended, release);
  }

  /**
   * The heavy-work lane of one request. Reentrant: an export whose pages run reports takes one
   * place, not one per page (a second place could wait for the first forever).
   */
  heavyWork(accountId: number, ended?: AbortSignal): HeavyWork {
    let depth = 0;
    return async <T>(work: () => Promise<T>): Promise<T> => {
      if (depth > 0) return work();
      const message = 'Too many reports and exports of this account at once';
      const leaveAccount = await refusedAs429(
        this.heavyPerAccount.acquire(accountId, ended),
        HEAVY_RETRY_AFTER_S,
        message,
      );
      let leaveProcess: Release;
      try {
        leaveProcess = await refusedAs429(
          this.heavyInProcess.acquire('all', ended),
          HEAVY_RETRY_AFTER_S,
          'Too many reports and exports at once',
        );
      } catch (error) {
        leaveAccount();
        throw error;
      }
      depth += 1;
      try {
        return await work();
      } finally {
        depth -= 1;
        leaveProcess();
        leaveAccount();
      }
    };
  }

  /** An account's requests in flight now (for tests and metrics). */
  inFlightOf(accountId: number): number {
    return this.inFlight.active(accountId);
  }

  /** An account's requests waiting for a place in flight now. */
  waitingOf(accountId: number): number {
    return this.inFlight.waiting(accountId);
  }

  /** An account's heavy work waiting for one of the account's places in the lane now. */
  heavyWaitingOf(accountId: number): number {
    return this.heavyPerAccount.waiting(accountId);
  }

  /** Heavy work of all accounts waiting for a place in the process's lane now. */
  heavyWaitingInProcess(): number {
    return this.heavyInProcess.waiting('all');
  }
}

async function refusedAs429(
  acquiring: Promise<Release>,
  retryAfterSeconds: number,
  message: string,
): Promise<Release> {
  try {
    return await acquiring;
  } catch (error) {
    if (!(error instanceof LimitRefusedError)) throw error;
    // A client that went away gets no answer at all; the error only ends the request's work.
    throw new TooManyRequestsError(
      retryAfterSeconds,
      `${message}; try again in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}`,
    );
  }
}

function holdUntil(ended: AbortSignal, release: Release): void {
  if (ended.aborted) release();
  else ended.addEventListener('abort', release, { once: true });
}
