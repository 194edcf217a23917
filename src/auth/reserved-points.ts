import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';

/** Where a counter stands for one key, as the request that was just counted sees it. */
export interface CounterState {
  /** Requests the window still allows (this process's view; exact with one process). */
  readonly remaining: number;
  /** Milliseconds until the window starts over. */
  readonly msBeforeNext: number;
  /** Whether this request was counted within the limit. */
  readonly allowed: boolean;
}

/** A block of points reserved in the shared store, used up in memory. */
interface Block {
  /** Points of the block not used yet. */
  left: number;
  /** The store's count for the key after the last reservation (every process's). */
  stored: number;
  /** When the store's window ends (epoch ms); the block is void after it. */
  expiresAt: number;
}

/** Blocks are at most this big, and at most this share of what the window still allows. */
const MAX_BLOCK = 100;
const SHARE_OF_REMAINING = 8;
/**
 * Keys kept at most: past this, lapsed blocks are dropped (at most once a second) and then the
 * oldest, whose unused points are lost (their key only reserves again; never over the limit).
 */
const MAX_KEYS = 10_000;

/**
 * Counts requests against a limit kept in a shared store (PostgreSQL, through rate-limiter-flexible)
 * without a round trip per request: a process reserves a block of points in one store write and
 * uses them up in memory, asking for the next block when it runs out.
 *
 * The store counts reserved points, so the requests every process admits never exceed the limit.
 * A block is at most 1/8 of what the window still allowed when it was reserved (and one point when
 * less than 16 remain), so as a window fills up the blocks shrink to single requests: one process
 * counts exactly, and with several, a process may be refused while others still hold what they
 * reserved (at most 1/8 of the rest each), never the other way round. Unused points lapse with
 * their window.
 */
export class ReservedPoints {
  private readonly blocks = new Map<string, Block>();
  /** Reservations under way, so concurrent requests of one key wait for one store write. */
  private readonly reserving = new Map<string, Promise<void>>();
  private lastSweep = 0;

  constructor(private readonly store: RateLimiterAbstract) {}

  get limit(): number {
    return this.store.points;
  }

  /** Counts one request of `key`. */
  async count(key: string): Promise<CounterState> {
    for (;;) {
      const block = this.blocks.get(key);
      const at = Date.now();
      if (block && block.expiresAt > at) {
        if (block.left > 0) {
          block.left -= 1;
          return this.stateOf(block, at, true);
        }
        if (block.stored >= this.limit) return this.stateOf(block, at, false);
      }
      await this.reserve(key, block && block.expiresAt > at ? block : undefined);
    }
  }

  private reserve(key: string, current: Block | undefined): Promise<void> {
    let pending = this.reserving.get(key);
    if (!pending) {
      pending = this.reserveBlock(key, current).finally(() => this.reserving.delete(key));
      this.reserving.set(key, pending);
    }
    return pending;
  }

  private async reserveBlock(key: string, current: Block | undefined): Promise<void> {
    const remaining = this.limit - (current?.stored ?? 0);
    const want = Math.max(1, Math.min(MAX_BLOCK, Math.floor(remaining / SHARE_OF_REMAINING)));
    let answer: RateLimiterRes;
    try {
      answer = await this.store.consume(key, want);
    } catch (refusal) {
      // The library rejects with the counter's state when the points went over the limit, and
      // with an Error when the store fails (passed on: the caller maps database errors).
      if (refusal instanceof Error || !isCounter(refusal)) throw refusal;
      answer = refusal;
    }
    const stored = answer.consumedPoints;
    // What the store counted beyond the limit was not granted (a process over the limit is
    // refused until the window starts over, so the excess costs nobody anything).
    const granted = Math.max(0, want - Math.max(0, stored - this.limit));
    // Deleted first, so that the map's order is the order of reservation, oldest first.
    this.blocks.delete(key);
    if (this.blocks.size >= MAX_KEYS) this.makeRoom();
    this.blocks.set(key, {
      left: (current?.left ?? 0) + granted,
      stored,
      expiresAt: Date.now() + answer.msBeforeNext,
    });
  }

  private stateOf(block: Block, at: number, allowed: boolean): CounterState {
    return {
      remaining: Math.max(0, this.limit - (Math.min(block.stored, this.limit) - block.left)),
      msBeforeNext: Math.max(0, block.expiresAt - at),
      allowed,
    };
  }

  /** Drops lapsed blocks (a flood of addresses must not grow the map), then the oldest. */
  private makeRoom(): void {
    const at = Date.now();
    if (at - this.lastSweep >= 1000) {
      this.lastSweep = at;
      for (const [key, block] of this.blocks) if (block.expiresAt <= at) this.blocks.delete(key);
    }
    for (const key of this.blocks.keys()) {
      if (this.blocks.size < MAX_KEYS) break;
      this.blocks.delete(key);
    }
  }
}

function isCounter(value: unknown): value is RateLimiterRes {
  return typeof value === 'object' && value !== null && 'consumedPoints' in value;
}
