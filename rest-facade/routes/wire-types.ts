import { z } from 'zod';

/** Wire building blocks shared by the JSON resources. */
export const uuidField = z.string().meta({ format: 'uuid' });
/** `active` is the string "true" or "false" on the legacy wire, never a boolean. */
export const stringBoolean = z.enum(['true', 'false']);
export const dateTime = z.string().meta({ format: 'date-time', description: 'RFC 3339, UTC, with Z' });

export const asStringBoolean = (value: boolean): 'true' | 'false' => (value ? 'true' : 'false');

/** GraphQL enum values (MANAGER) as the legacy wire words (manager). */
export const lower = <T extends string>(value: T): Lowercase<T> => value.toLowerCase() as Lowercase<T>;

export interface Ref {
  readonly id: string;
  readonly legacyId: number;
}

/** Custom-visibility users as legacy lists show them: the owner first, who always has access. */
export function withOwner(owner: Ref, users: readonly Ref[]): Ref[] {
  return [owner, ...users.filter((user) => user.id !== owner.id)];
}
