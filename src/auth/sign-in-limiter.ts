import { createHash } from 'node:crypto';
import type { Knex } from '@mikro-orm/postgresql';
import { RateLimiterPostgres, type RateLimiterRes } from 'rate-limiter-flexible';
import type { SignInLimits } from '../core/config';
import { TooManyRequestsError } from '../core/errors';

/** Who is attempting: the client address always, the login when the attempt names one. */
export interface Attempt {
  readonly address: string;
  readonly login?: string | undefined;
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

  /** Throws TooManyRequestsError while either counter of the attempt is used up. */
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

  /** A success clears the login's count; the address keeps its count of others' failures. */
  async recordSuccess(attempt: Attempt): Promise<void> {
    if (attempt.login !== undefined) await this.byLogin.delete(loginKey(attempt));
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
