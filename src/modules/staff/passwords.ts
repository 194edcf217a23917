import argon2 from 'argon2';

/**
 * argon2id (memory-hard), from the `argon2` package: maintained, ships prebuilt binaries, and
 * encodes its parameters in the hash so they can be raised later without breaking old hashes.
 */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
  /** Burns the time of one verification, for unknown logins. */
  verifyDummy(password: string): Promise<void>;
}

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

export function createPasswordHasher(memoryKib: number): PasswordHasher {
  const options = {
    type: argon2.argon2id,
    memoryCost: memoryKib,
    timeCost: 2,
    parallelism: 1,
  } as const;
  let dummy: Promise<string> | undefined;
  return {
    hash: (password) => argon2.hash(password, options),
    verify: async (hash, password) => {
      try {
        return await argon2.verify(hash, password);
      } catch {
        return false;
      }
    },
    verifyDummy: async (password) => {
      dummy ??= argon2.hash('timing-equaliser', options);
      await argon2.verify(await dummy, password).catch(() => false);
    },
  };
}
