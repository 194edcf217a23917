import type { Knex } from '@mikro-orm/postgresql';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import type { Config } from '../core/config';
import { TooManyRequestsError } from '../core/errors';
import type { RateLimitStatus } from '../core/request-context';
import { ReservedPoints } from './reserved-points';

/** Hears where a counter stands after each count, refusals included. */
export type RateLimitObserver = (status: RateLimitStatus) => void;
const unheard: RateLimitObserver = () => undefined;

/**
 * Counts requests, not failures: per client address before authentication (so a flood costs no
 * password check) and per account after it. The counters live in PostgreSQL (rate-limiter-flexible's
 * RateLimiterPostgres, table `rate_limits`), so every server process counts the same requests; each
 * process reserves blocks of them there and counts in memory (`ReservedPoints`), so a request
 * costs no round trip most of the time and the limits still hold across processes.
 *
 * Only credentials that verified reach the account counter, so nobody can use up an account's
 * requests without its password; an address counter is used up only by requests from that
 * address. The defaults (500 and 1,000 requests a second, over a minute) are far above what a
 * busy integration sends; they exist to stop a runaway client, not to meter normal use.
 */
export class RequestLimiter {
  private readonly byAccount: ReservedPoints | undefined;
  private readonly byAddress: ReservedPoints | undefined;
  private readonly windowSeconds: number;

  constructor(knex: Knex, limits: Config['rateLimits']) {
    this.windowSeconds = limits.windowSeconds;
    const limiter = (keyPrefix: string, points: number) =>
      points === 0
        ? undefined
        : new ReservedPoints(
            new RateLimiterPostgres({
              storeClient: knex,
              storeType: 'knex',
              tableName: 'rate_limits',
              tableCreated: true,
              keyPrefix,
              points,
              duration: limits.windowSeconds,
            }),
          );
    this.byAccount = limiter('account-requests', limits.perAccount);
    this.byAddress = limiter('address-requests', limits.perAddress);
  }

  /**
   * Counts a request from `address`; throws TooManyRequestsError when the address is over its
   * limit. `observe` hears the counter's state either way (not at all with the limit off).
   */
  countAddress(address: string, observe: RateLimitObserver = unheard): Promise<void> {
    return this.consume(this.byAddress, address, observe);
  }

  /** Counts a request of an account, as countAddress does for an address. */
  countAccount(accountId: number, observe: RateLimitObserver = unheard): Promise<void> {
    return this.consume(this.byAccount, String(accountId), observe);
  }

  private async consume(
    counter: ReservedPoints | undefined,
    key: string,
    observe: RateLimitObserver,
  ): Promise<void> {
    if (!counter) return;
    const state = await counter.count(key);
    const resetSeconds = Math.max(0, Math.ceil(state.msBeforeNext / 1000));
    observe({
      limit: counter.limit,
      remaining: state.remaining,
      resetSeconds,
      windowSeconds: this.windowSeconds,
    });
    if (!state.allowed) {
      const wait = Math.max(1, resetSeconds);
      throw new TooManyRequestsError(wait, `Too many requests; try again in ${wait} seconds`);
    }
  }
}
