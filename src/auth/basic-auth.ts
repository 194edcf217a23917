import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { LRUCache } from 'lru-cache';
import { UnauthenticatedError } from '../core/errors';
import { findSignInUser, type PasswordHasher, type Staff } from '../modules/staff';
import type { SignInLimiter } from './sign-in-limiter';
import type { Viewer } from '../core/viewer';
import { passwordHashDigest, type CredentialGrant } from './credential-check';

export interface BasicCredentials {
  login: string;
  password: string;
}

/** Reads `Authorization: Basic base64(login:password)`; anything else is undefined. */
export function parseBasicAuthorization(header: string | undefined): BasicCredentials | undefined {
  if (!header) return undefined;
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  return { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * Verifies login and password. argon2 costs tens of milliseconds of CPU, so a successful check is
 * remembered briefly. The cache key includes the stored hash: a password change alters the hash,
 * so the old password stops working on the very next request, in every process, with no
 * invalidation message.
 *
 * Credentials the cache does not vouch for are counted against the sign-in limits *before* they
 * are checked (SignInLimiter.reserve), so parallel guesses meet 429 exactly at the limit; a
 * failure stays counted, a success is given back. Concurrent requests with the same credentials
 * share one check (and so one count): a client firing many requests at once with its right
 * password is not refused for the attempts still in flight. An unknown login burns the time of a
 * real verification.
 *
 * A disabled user is refused exactly like a wrong password (same error, same count, same timing),
 * whether the password was right or not: a different answer would confirm the password
 * (issue 20, finding 12).
 */
export class BasicAuthenticator {
  private readonly verified: LRUCache<string, true>;
  /** Checks in progress in this process, by address and credentials: identical requests wait for them. */
  private readonly checking = new Map<string, Promise<boolean>>();

  constructor(
    private readonly hasher: PasswordHasher,
    private readonly limiter: SignInLimiter,
    cacheTtlMs: number,
  ) {
    this.verified = new LRUCache({ max: 10_000, ttl: Math.max(cacheTtlMs, 1) });
    if (cacheTtlMs === 0) this.verified.set = () => this.verified;
  }

  /** `address` is the client's network address, the key of the sign-in limits. */
  async authenticate(
    em: EntityManager,
    credentials: BasicCredentials,
    address: string,
  ): Promise<Viewer> {
    return (await this.identify(em, credentials, address)).viewer;
  }

  /**
   * Like authenticate, with the grant a long-lived connection keeps to check again later, and the
   * user's credentials version read with the hash that was verified: what the approval page stamps
   * on the codes and tokens it issues, so that a password change committed meanwhile voids them.
   */
  async identify(
    em: EntityManager,
    credentials: BasicCredentials,
    address: string,
  ): Promise<{ viewer: Viewer; grant: CredentialGrant; credentialsVersion: number }> {
    if (
      credentials.login.length > 255 ||
      credentials.password.length > 1024 ||
      credentials.login.includes('\u0000')
    ) {
      throw new UnauthenticatedError(INVALID);
    }
    const user = await findSignInUser(em, credentials.login);
    const key = cacheKey(user, credentials);
    // Only an active user's success is cached, so a disabled one always takes the full path.
    if (!user?.active || !this.verified.has(key)) {
      // Shared only within one address: the attempt is counted against the first request's.
      const pending = `${address}\u0000${key}`;
      let check = this.checking.get(pending);
      if (!check) {
        check = this.check(user, credentials, address, key).finally(() =>
          this.checking.delete(pending),
        );
        this.checking.set(pending, check);
      }
      if (!(await check)) throw new UnauthenticatedError(INVALID);
    }
    // A cached or passed check means the user exists; this only tells the compiler so.
    if (!user) throw new UnauthenticatedError(INVALID);
    return {
      viewer: {
        id: user.id,
        uuid: user.uuid,
        login: user.login,
        type: user.type,
        accountId: user.accountId,
        staffSeeMoney: user.staffSeeMoney,
      },
      grant: {
        scheme: 'password',
        userId: user.id,
        login: user.login,
        hashDigest: passwordHashDigest(user.passwordHash),
      },
      credentialsVersion: user.credentialsVersion,
    };
  }

  /** Counts the attempt, then verifies it; true only for the right password of an active user. */
  private async check(
    user: Pick<Staff, 'passwordHash' | 'active'> | null,
    credentials: BasicCredentials,
    address: string,
    key: string,
  ): Promise<boolean> {
    const reservation = await this.limiter.reserve({ login: credentials.login, address });
    const valid = user
      ? await this.hasher.verify(user.passwordHash, credentials.password)
      : await this.hasher.verifyDummy(credentials.password).then(() => false);
    if (!valid || !user!.active) return false;
    await reservation.succeeded();
    // Cached before `checking` lets go of the key (its `finally` runs after this returns), so a
    // request with the same credentials finds one or the other, never neither.
    this.verified.set(key, true);
    return true;
  }
}

const INVALID = 'Invalid login or password';

/** The credentials' key in the cache, and of a check in progress; an unknown login has one too. */
function cacheKey(
  user: Pick<Staff, 'id' | 'passwordHash'> | null,
  credentials: BasicCredentials,
): string {
  const who = user
    ? `${user.id}\u0000${user.passwordHash}`
    : `?\u0000${credentials.login.toLowerCase()}`;
  return createHash('sha256').update(`${who}\u0000${credentials.password}`).digest('base64');
}
