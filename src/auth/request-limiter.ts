import type { Knex } from '@mikro-orm/postgresql';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../core/config';
import { TooManyRequestsError } from '../core/errors';

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

  constructor(knex: Knex, limits: Config['rateLimits']) {
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

  /** Counts a request from `address`; throws TooManyRequestsError when the address is over its limit. */
  countAddress(address: string): Promise<void> {
    return consume(this.byAddress, address);
  }

  /** Counts a request of an account; throws TooManyRequestsError when the account is over its limit. */
  countAccount(accountId: number): Promise<void> {
    return consume(this.byAccount, String(accountId));
  }
}

async function consume(limiter: RateLimiterPostgres | undefined, key: string): Promise<void> {
  if (!limiter) return;
  try {
    await limiter.consume(key);
  } catch (refusal) {
    // The library rejects with the counter's state when it is used up, and with an Error when
    // the store fails (the caller maps database errors to SERVICE_UNAVAILABLE).
    if (!(refusal instanceof RateLimiterRes)) throw refusal;
    const wait = Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
    throw new TooManyRequestsError(wait, `Too many requests; try again in ${wait} seconds`);
  }
}
