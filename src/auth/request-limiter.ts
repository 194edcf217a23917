import type { Knex } from '@mikro-orm/postgresql';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../core/config';
import { TooManyRequestsError } from '../core/errors';
import type { RateLimitStatus } from '../core/request-context';

/** Hears where a counter stands after each count, refusals included. */
export type RateLimitObserver = (status: RateLimitStatus) => void;
const unheard: RateLimitObserver = () => undefined;

/**
 * Counts requests, not failures: per client address before authentication (so a flood costs no
 * password check) and per account after it. The counters live in PostgreSQL (rate-limiter-flexible's
 * RateLimiterPostgres, table `rate_limits`), so every server process counts the same requests.
 *
 * Only credentials that verified reach the account counter, so nobody can use up an account's
 * requests without its password; an address counter is used up only by requests from that
 * address. The defaults (500 and 1,000 requests a second, over a minute) are far above what a
 * busy integration sends; they exist to stop a runaway client, not to meter normal use.
 */
export class RequestLimiter {
  private readonly byAccount: RateLimiterPostgres | undefined;
  private readonly byAddress: RateLimiterPostgres | undefined;
  private readonly windowSeconds: number;

  constructor(knex: Knex, limits: Config['rateLimits']) {
    this.windowSeconds = limits.windowSeconds;
    const limiter = (keyPrefix: string, points: number) =>
      points === 0
        ? undefined
        : new RateLimiterPostgres({
            storeClient: knex,
            storeType: 'knex',
            tableName: 'rate_limits',
            tableCreated: true,
            keyPrefix,
            points,
            duration: limits.windowSeconds,
          });
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
    limiter: RateLimiterPostgres | undefined,
    key: string,
    observe: RateLimitObserver,
  ): Promise<void> {
    if (!limiter) return;
    const statusOf = (counter: RateLimiterRes): RateLimitStatus => ({
      limit: limiter.points,
      remaining: Math.max(0, counter.remainingPoints),
      resetSeconds: Math.max(0, Math.ceil(counter.msBeforeNext / 1000)),
      windowSeconds: this.windowSeconds,
    });
    try {
      observe(statusOf(await limiter.consume(key)));
    } catch (refusal) {
      // The library rejects with the counter's state when it is used up, and with an Error when
      // the store fails (the caller maps database errors to SERVICE_UNAVAILABLE).
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      observe(statusOf(refusal));
      const wait = Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
      throw new TooManyRequestsError(wait, `Too many requests; try again in ${wait} seconds`);
    }
  }
}
