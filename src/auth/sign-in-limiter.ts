import { createHash } from 'node:crypto';
import type { Knex } from '@mikro-orm/postgresql';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { SignInLimits } from '../core/config';
import { TooManyRequestsError } from '../core/errors';

/** Who is attempting: the client address always, the login when the attempt names one. */
export interface Attempt {
  readonly address: string;
  readonly login?: string | undefined;
}

/** An attempt counted before its check: a failure keeps it counted, a success gives it back. */
export interface Reservation {
  /** The credentials were right: clears the login's count and returns the address's point. */
  succeeded(): Promise<void>;
}

/**
 * Counts failed sign-ins and failed OAuth signatures in PostgreSQL (rate-limiter-flexible's
 * RateLimiterPostgres, on the table the OAuth migration creates), so every server process sees
 * the same counts.
 *
 * The login counter is keyed by login *and* address: a login-only key would let anyone lock a user
 * out by failing on purpose. The address counter stops one client trying many logins. Callers
 * consult the limits only for credentials they cannot already vouch for (see BasicAuthenticator),
 * so a blocked address never locks out a session whose password was verified moments ago.
 */
export class SignInLimiter {
  private readonly byLogin: RateLimiterPostgres;
  private readonly byAddress: RateLimiterPostgres;

  constructor(knex: Knex, limits: SignInLimits) {
    const store = {
      storeClient: knex,
      storeType: 'knex',
      tableName: 'rate_limits',
      tableCreated: true,
    } as const;
    this.byLogin = new RateLimiterPostgres({
      ...store,
      keyPrefix: 'sign-in',
      points: limits.perLogin.failures,
      duration: limits.perLogin.windowSeconds,
    });
    this.byAddress = new RateLimiterPostgres({
      ...store,
      keyPrefix: 'address',
      points: limits.perAddress.failures,
      duration: limits.perAddress.windowSeconds,
    });
  }

  /**
   * Counts a password attempt *before* it is checked, as a failure until `succeeded` says
   * otherwise; throws TooManyRequestsError when either counter is used up, and then nothing is
   * checked. Each count is one atomic `insert … on conflict do update … returning` of
   * rate-limiter-flexible (`consume`), so of N concurrent attempts exactly as many as the limit
   * leaves get through, in one process or many: checking first and counting after the slow argon2
   * verification let every one of 300 parallel guesses through (issue 20, finding 2).
   *
   * The address is counted first, the login only when the address allows the attempt. An attempt
   * the login refuses gives the address its point back (it was not checked, and must not use up
   * the allowance of others at that address). A counter that refuses keeps its own point: it is
   * used up until its window ends anyway (the window does not move), and giving the point back
   * could race a success's reset into a negative count.
   */
  async reserve(attempt: Attempt): Promise<Reservation> {
    await consumeOne(this.byAddress, attempt.address);
    const login = attempt.login === undefined ? undefined : loginKey(attempt);
    if (login !== undefined) {
      try {
        await consumeOne(this.byLogin, login);
      } catch (refusal) {
        await this.byAddress.reward(attempt.address, 1);
        throw refusal;
      }
    }
    return {
      // A success clears the login's count; the address keeps its count of others' failures.
      succeeded: async () => {
        await Promise.all([
          login === undefined ? null : this.byLogin.delete(login),
          this.byAddress.reward(attempt.address, 1),
        ]);
      },
    };
  }

  /**
   * Throws TooManyRequestsError while either counter of the attempt is used up. For checks that
   * cost nothing to repeat (an OAuth 1.0a signature: an HMAC over a 256-bit secret), which count
   * after the fact with `recordFailure`; password checks use `reserve`.
   */
  async assertAllowed(attempt: Attempt): Promise<void> {
    const [login, address] = await Promise.all([
      attempt.login === undefined ? null : this.byLogin.get(loginKey(attempt)),
      this.byAddress.get(attempt.address),
    ]);
    const waits = [
      blockedFor(login, this.byLogin.points),
      blockedFor(address, this.byAddress.points),
    ];
    const wait = Math.max(...waits);
    if (wait > 0) throw new TooManyRequestsError(wait);
  }

  async recordFailure(attempt: Attempt): Promise<void> {
    await Promise.all([
      attempt.login === undefined ? null : this.byLogin.penalty(loginKey(attempt), 1),
      this.byAddress.penalty(attempt.address, 1),
    ]);
  }
}

/** Counts one attempt; a counter past its limit refuses with TooManyRequestsError. */
async function consumeOne(limiter: RateLimiterPostgres, key: string): Promise<void> {
  try {
    await limiter.consume(key, 1);
  } catch (refusal) {
    // The library rejects with the counter's state when it is used up, and with an Error when
    // the store fails (the caller maps database errors to SERVICE_UNAVAILABLE).
    if (!(refusal instanceof RateLimiterRes)) throw refusal;
    throw new TooManyRequestsError(Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)));
  }
}

/** Logins are case-insensitive and are not stored in clear in the counters' keys. */
function loginKey(attempt: Attempt): string {
  const login = createHash('sha256').update(attempt.login!.toLowerCase()).digest('base64url');
  return `${login}@${attempt.address}`;
}

/** Whole seconds until the counter allows another attempt; 0 when it allows one now. */
function blockedFor(state: RateLimiterRes | null, points: number): number {
  if (!state || state.consumedPoints < points) return 0;
  return Math.max(1, Math.ceil(state.msBeforeNext / 1000));
}
