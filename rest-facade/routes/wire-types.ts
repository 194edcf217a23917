import { z } from 'zod';
import { uuidList } from '../json/input-fields';
import type { RefFragment } from '../operations/generated';

/** Wire building blocks shared by the JSON resources. */
export const uuidField = z.string().meta({ format: 'uuid' });
/** An instant on the JSON and CSV wire, as docs/json-api.md writes it: `2013-08-16T05:19:26Z`. */
export const dateTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/)
  .meta({ format: 'date-time', description: 'RFC 3339, UTC, whole seconds, with Z' });

/** What DateTimeISO answers (`Date.toISOString`): `2013-08-16T05:19:26.000Z`. */
const ISO_MILLISECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * A GraphQL DateTimeISO (`...T05:19:26.000Z`) in the wire form of `dateTime`: the fraction dropped.
 * Cut from the text when it has the form DateTimeISO gives (a list of a thousand shifts spent 5 %
 * of its time parsing and formatting dates here), else through a Date.
 */
export const wireTime = (iso: string): string =>
  ISO_MILLISECONDS.test(iso)
    ? `${iso.slice(0, 19)}Z`
    : `${new Date(iso).toISOString().slice(0, 19)}Z`;

export const asStringBoolean = (value: boolean): 'true' | 'false' => (value ? 'true' : 'false');

// The cast below only says what the call does: TypeScript's lib types toLowerCase as
// returning any string, not the case-changed literal.

/** GraphQL enum values (MANAGER) as the legacy wire words (manager). */
export const lower = <T extends string>(value: T): Lowercase<T> =>
  value.toLowerCase() as Lowercase<T>;

/** A staff member referred to by another object (fragment Ref). */
export type Ref = RefFragment;

/** Custom-visibility users as legacy lists show them: the owner first, who always has access. */
export function withOwner(owner: Ref, users: readonly Ref[]): Ref[] {
  return [owner, ...users.filter((user) => user.id !== owner.id)];
}

/** Members of a company or project are written by uuid; the owner, always one, need not be named. */
export const memberUuids = { user_uuids: { to: 'userIds', kind: uuidList } };
