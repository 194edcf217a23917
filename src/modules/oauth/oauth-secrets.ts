import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new secret or token: 256 random bits, URL-safe. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** A new public identifier (client key, OAuth 1.0a token key): 144 random bits, URL-safe. */
export function newKey(): string {
  return randomBytes(18).toString('base64url');
}

/**
 * The stored form of a secret. Our secrets are at least 144 random bits (newKey, newSecret), so a
 * fast hash is enough: there is nothing to guess, and a stolen table gives no usable token.
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Compares two hashes in constant time. */
export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}
