import { createHash } from 'node:crypto';
import { raw, type EntityManager, type FilterQuery } from '@mikro-orm/postgresql';
import { LRUCache } from 'lru-cache';
import { UnauthenticatedError } from '../errors';
import { Staff } from '../modules/staff/staff.entity';
import type { PasswordHasher } from './passwords';
import type { Viewer } from './viewer';

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
 */
export class BasicAuthenticator {
  private readonly verified: LRUCache<string, true>;

  constructor(
    private readonly hasher: PasswordHasher,
    cacheTtlMs: number,
  ) {
    this.verified = new LRUCache({ max: 10_000, ttl: Math.max(cacheTtlMs, 1) });
    if (cacheTtlMs === 0) this.verified.set = () => this.verified;
  }

  async authenticate(em: EntityManager, credentials: BasicCredentials): Promise<Viewer> {
    if (credentials.login.length > 255 || credentials.password.length > 1024 || credentials.login.includes('\u0000')) {
      throw new UnauthenticatedError('Invalid login or password');
    }
    // Logins are unique across accounts, so this one lookup runs outside the tenant filter.
    const user = await em.findOne(
      Staff,
      { [raw((alias: string) => `lower(${alias}.login)`)]: credentials.login.toLowerCase() } as FilterQuery<Staff>,
      { filters: false, fields: ['id', 'uuid', 'login', 'type', 'active', 'passwordHash', 'account'] },
    );
    if (!user) {
      await this.hasher.verifyDummy(credentials.password);
      throw new UnauthenticatedError('Invalid login or password');
    }
    const key = createHash('sha256')
      .update(`${user.id}\u0000${user.passwordHash}\u0000${credentials.password}`)
      .digest('base64');
    if (!this.verified.has(key)) {
      if (!(await this.hasher.verify(user.passwordHash, credentials.password))) {
        throw new UnauthenticatedError('Invalid login or password');
      }
      this.verified.set(key, true);
    }
    if (!user.active) throw new UnauthenticatedError('This user is disabled');
    return { id: user.id, uuid: user.uuid, login: user.login, type: user.type, accountId: user.account.id };
  }
}
