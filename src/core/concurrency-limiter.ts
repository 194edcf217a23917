/**
 * At most `perKey` holders per key at once; the next `queuePerKey` callers of a key wait in
 * arrival order, each for at most `maxWaitMs`; beyond that they are refused at once. The building
 * block of the fair share (issue 20, finding 4): requests in flight per account, database
 * connections per account, and the heavy-work lane.
 *
 * Written here rather than taken from a library: the well-kept semaphores (async-mutex, p-limit,
 * p-queue) count one resource; none keys them, bounds the queue, gives up on a waiter after a
 * deadline or when its client hangs up, and forgets an idle key, which is all this is.
 */
export type Release = () => void;

export type Refusal = 'queue-full' | 'timed-out' | 'aborted';

/** Thrown by acquire when the caller is not let in; callers turn it into their own error. */
export class LimitRefusedError extends Error {
  constructor(readonly refusal: Refusal) {
    super(`concurrency limit: ${refusal}`);
    this.name = 'LimitRefusedError';
  }
}

export interface ConcurrencyLimits {
  /** Holders per key at once; 0 turns the limiter off (everyone is let in at once). */
  readonly perKey: number;
  /** Callers per key that may wait for a holder to leave; more are refused. */
  readonly queuePerKey: number;
  /** How long a caller waits at most. */
  readonly maxWaitMs: number;
}

interface Waiter {
  readonly admit: (release: Release) => void;
  readonly refuse: (refusal: Refusal) => void;
}

interface KeyState {
  active: number;
  readonly waiting: Waiter[];
}

const NOTHING_TO_RELEASE: Release = () => {};

export class KeyedConcurrencyLimiter<K> {
  private readonly keys = new Map<K, KeyState>();

  constructor(readonly limits: ConcurrencyLimits) {}

  /**
   * Resolves with the function that gives the place back (call it once; later calls do nothing)
   * when the caller may go on, or rejects with LimitRefusedError. An abort of `signal` while
   * waiting takes the caller out of the queue.
   */
  acquire(key: K, signal?: AbortSignal): Promise<Release> {
    if (this.limits.perKey === 0) return Promise.resolve(NOTHING_TO_RELEASE);
    if (signal?.aborted) return Promise.reject(new LimitRefusedError('aborted'));
    const state = this.stateOf(key);
    if (state.active < this.limits.perKey && state.waiting.length === 0) {
      state.active += 1;
      return Promise.resolve(this.releaseOf(key, state));
    }
    if (state.waiting.length >= this.limits.queuePerKey) {
      this.forgetIfIdle(key, state);
      return Promise.reject(new LimitRefusedError('queue-full'));
    }
    return new Promise<Release>((resolve, reject) => {
      const leave = (refusal: Refusal) => {
        const index = state.waiting.indexOf(waiter);
        if (index < 0) return;
        state.waiting.splice(index, 1);
        done();
        this.forgetIfIdle(key, state);
        reject(new LimitRefusedError(refusal));
      };
      const onAbort = () => leave('aborted');
      const timer = setTimeout(() => leave('timed-out'), this.limits.maxWaitMs);
      timer.unref();
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const waiter: Waiter = {
        admit: (release) => {
          done();
          resolve(release);
        },
        refuse: leave,
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      state.waiting.push(waiter);
    });
  }

  /** Holders of `key` now. */
  active(key: K): number {
    return this.keys.get(key)?.active ?? 0;
  }

  /** Callers of `key` waiting now. */
  waiting(key: K): number {
    return this.keys.get(key)?.waiting.length ?? 0;
  }

  private stateOf(key: K): KeyState {
    let state = this.keys.get(key);
    if (!state) {
      state = { active: 0, waiting: [] };
      this.keys.set(key, state);
    }
    return state;
  }

  private releaseOf(key: K, state: KeyState): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // The place passes straight to the first waiter, so nobody can overtake the queue.
      const next = state.waiting.shift();
      if (next) next.admit(this.releaseOf(key, state));
      else {
        state.active -= 1;
        this.forgetIfIdle(key, state);
      }
    };
  }

  /** An idle key holds no memory: accounts come and go. */
  private forgetIfIdle(key: K, state: KeyState): void {
    if (state.active === 0 && state.waiting.length === 0 && this.keys.get(key) === state)
      this.keys.delete(key);
  }
}
