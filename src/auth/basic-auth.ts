import { createHash } from 'node:crypto';
import { raw, type EntityManager, type FilterQuery } from '@mikro-orm/postgresql';
import { LRUCache } from 'lru-cache';
import { UnauthenticatedError } from '../core/errors';
import { Staff } from '../modules/staff/staff.entity';
import type { PasswordHasher } from '../modules/staff/passwords';
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
 * Credentials the cache does not vouch for are checked against the sign-in limits first, and a
 * failure counts against them; an unknown login burns the time of a real verification.
 */
export class BasicAuthenticator {
  private readonly verified: LRUCache<string, true>;

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

  /** Like authenticate, with the grant a long-lived connection keeps to check again later. */
  async identify(
    em: EntityManager,
    credentials: BasicCredentials,
    address: string,
  ): Promise<{ viewer: Viewer; grant: CredentialGrant }> {
    if (
      credentials.login.length > 255 ||
      credentials.password.length > 1024 ||
      credentials.login.includes('\u0000')
    ) {
      throw new UnauthenticatedError('Invalid login or password');
    }
    // Logins are unique across accounts, so this one lookup runs outside the tenant filter.
    const user = await em.findOne(
      Staff,
      {
        [raw((alias: string) => `lower(${alias}.login)`)]: credentials.login.toLowerCase(),
      } as FilterQuery<Staff>,
      {
        filters: false,
        fields: ['id', 'uuid', 'login', 'type', 'active', 'passwordHash', 'account'],
      },
    );
    const key = user ? cacheKey(user, credentials.password) : undefined;
    if (!user || !this.verified.has(key!)) {
      const attempt = { login: credentials.login, address };
      await this.limiter.assertAllowed(attempt);
      const valid = user
        ? await this.hasher.verify(user.passwordHash, credentials.password)
        : await this.hasher.verifyDummy(credentials.password).then(() => false);
      if (!user || !valid) {
        await this.limiter.recordFailure(attempt);
        throw new UnauthenticatedError('Invalid login or password');
      }
      await this.limiter.recordSuccess(attempt);
      this.verified.set(key!, true);
    }
    if (!user.active) throw new UnauthenticatedError('This user is disabled');
    return {
      viewer: {
        id: user.id,
        uuid: user.uuid,
        login: user.login,
        type: user.type,
        accountId: user.account.id,
      },
      grant: {
        scheme: 'password',
        userId: user.id,
        login: user.login,
        hashDigest: passwordHashDigest(user.passwordHash),
      },
    };
  }
}

function cacheKey(user: Pick<Staff, 'id' | 'passwordHash'>, password: string): string {
  return createHash('sha256')
    .update(`${user.id}\u0000${user.passwordHash}\u0000${password}`)
    .digest('base64');
}
