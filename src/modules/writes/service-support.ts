import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { z } from 'zod';
import {
  BLANK,
  type EntityName,
  NotFoundError,
  REQUIRED,
  ValidationError,
} from '../../core/errors';
import { fileTransactionAccount, type RequestContext } from '../../core/request-context';
import { isRowId, isUuid, nodeTypesOf } from '../ids';

export interface Locator {
  id?: string | null;
  legacyId?: number | null;
}

/**
 * A row named in the input of another entity (a shift's `projectId`): a missing or doubled
 * reference is that entity's invalid input ("Invalid shift: projectId is required"), while a
 * reference to no row is still the named entity's not-found.
 */
export interface InputReference {
  readonly of: EntityName;
  readonly names: readonly [uuidField: string, legacyField: string];
}

/**
 * The where-clause for "the row this locator names". A malformed uuid or an impossible integer
 * cannot name any row, so it is a plain not-found, exactly like a row of another account.
 */
export function locatorWhere(
  entity: EntityName,
  locator: Locator,
  reference?: InputReference,
): { uuid: string } | { id: number } {
  const [uuidName, legacyName] = reference?.names ?? ['id', 'legacyId'];
  const invalid = reference?.of ?? entity;
  const hasUuid = locator.id !== undefined && locator.id !== null;
  const hasLegacy = locator.legacyId !== undefined && locator.legacyId !== null;
  if (!hasUuid && !hasLegacy) throw ValidationError.field(invalid, uuidName, REQUIRED);
  if (hasUuid && hasLegacy) {
    throw ValidationError.field(
      invalid,
      uuidName,
      `give exactly one of ${uuidName} and ${legacyName}`,
    );
  }
  if (hasUuid) {
    if (!isUuid(locator.id!)) throw new NotFoundError(entity);
    return { uuid: locator.id!.toLowerCase() };
  }
  if (!isRowId(locator.legacyId!)) throw new NotFoundError(entity);
  return { id: locator.legacyId! };
}

/** Loads the named row of the caller's account (the tenant filter applies), or fails NOT_FOUND. */
export async function findLocated<T extends object>(
  em: EntityManager,
  entityClass: new () => T,
  entity: EntityName,
  locator: Locator,
  options: { extraWhere?: FilterQuery<T>; reference?: InputReference } = {},
): Promise<T> {
  const where = {
    ...locatorWhere(entity, locator, options.reference),
    ...(options.extraWhere as object),
  } as FilterQuery<T>;
  const row = await em.findOne(entityClass, where);
  if (!row) throw new NotFoundError(entity);
  return row;
}

/**
 * The objects a `getMany` found, in the order of `uuids` (a cascade's list, oldest first); the
 * ones not found (gone since, or hidden from the caller) are left out.
 */
export function inOrderOf<T>(uuids: readonly string[], found: ReadonlyMap<string, T>): T[] {
  return uuids.flatMap((uuid) => {
    const object = found.get(uuid);
    return object === undefined ? [] : [object];
  });
}

/**
 * The rows of the caller's account (the tenant filter applies) among `uuids` that `extraWhere`
 * (the type's read policy) lets through, by uuid, in one statement however many: what
 * `nodes(ids:)` asks of each type. A uuid that names no such row is absent.
 */
export async function findByUuids<T extends { uuid: string }>(
  em: EntityManager,
  entityClass: new () => T,
  uuids: readonly string[],
  extraWhere: FilterQuery<T> = {},
): Promise<Map<string, T>> {
  const byUuid: FilterQuery<{ uuid: string }> = { uuid: { $in: [...uuids] } };
  const rows = await em.find(entityClass, { $and: [byUuid as FilterQuery<T>, extraWhere] });
  return new Map(rows.map((row) => [row.uuid, row]));
}

/**
 * A supplied uuid must be new in the whole service, in every table of an API type (ids are unique
 * across types: ids/node-ids.ts): creating never overwrites anything, and no id names two
 * objects. A transaction lock on the uuid keeps two creates of it in different tables from both
 * passing; within one table, its unique index does that.
 */
export async function assertUuidFree(
  em: EntityManager,
  entity: EntityName,
  uuid: string,
): Promise<void> {
  await em
    .getConnection()
    .execute(
      'select pg_advisory_xact_lock(hashtextextended(?, 0))',
      [uuid],
      'all',
      em.getTransactionContext(),
    );
  if ((await nodeTypesOf(em, [uuid], 'every account')).size > 0) {
    throw ValidationError.field(entity, 'id', 'is already taken');
  }
}

/** Validates input with a zod schema; every problem becomes a field error of one 422. */
export function validate<S extends z.ZodType>(
  entity: EntityName,
  schema: S,
  input: unknown,
): z.output<S> {
  // A required value never given "is required" and one given as null "can't be blank", rather than
  // zod's "expected string, received undefined".
  const result = schema.safeParse(input, {
    error: (issue) =>
      issue.code !== 'invalid_type'
        ? undefined
        : issue.input === undefined
          ? REQUIRED
          : issue.input === null
            ? BLANK
            : undefined,
  });
  if (result.success) return result.data;
  throw new ValidationError(
    entity,
    result.error.issues.map((issue) => ({
      field: issue.path.map(String).join('.') || 'input',
      message: issue.message,
    })),
  );
}

const MIN_DATE = new Date('1970-01-01T00:00:00Z');
const MAX_DATE = new Date('9999-12-31T23:59:59Z');
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** Field rules shared by every input. */
export const fields = {
  text: (max = 255) =>
    z
      .string()
      .max(max, `must be at most ${max} characters`)
      .refine((s) => !s.includes('\u0000'), 'must not contain NUL characters'),
  /** Trimmed, and not blank (`notBlank`: GraphQL input descriptions say so). */
  requiredText: (max = 255) =>
    fields
      .text(max)
      .transform((s) => s.trim())
      .refine((s) => s.length > 0, BLANK)
      .meta({ notBlank: true }),
  uuid: () =>
    z
      .string()
      .refine(isUuid, 'is not a valid id')
      .transform((s) => s.toLowerCase()),
  /** An instant from 1970 to 9999 (a shift's start and stop). */
  instant: () => z.date().min(MIN_DATE, 'is before 1970').max(MAX_DATE, 'is after 9999'),
  rowId: () => z.number().int().refine(isRowId, 'is not a valid id'),
  cents: () =>
    z.number().int('must be a whole number').min(0, 'must not be negative').max(2_000_000_000),
  /** An ISO 4217 currency code the runtime knows (`EUR`); upper case. */
  currency: () =>
    z
      .string()
      .transform((code) => code.trim().toUpperCase())
      .refine((code) => CURRENCIES.has(code), 'is not an ISO 4217 currency code'),
  /** A short code of letters, digits, `-`, `_` and `.` (a project's); blank clears it. */
  code: (max = 32) =>
    z
      .string()
      .trim()
      .max(max, `must be at most ${max} characters`)
      .regex(/^[A-Za-z0-9._-]*$/, 'may hold only letters, digits, "-", "_" and "."')
      .transform((code) => code || null),
  tags: () =>
    z
      .array(fields.requiredText(64))
      .max(50, 'must list at most 50 tags')
      .transform((tags) => [...new Set(tags)]),
};

/** Omitted (undefined) keeps the stored value; anything else replaces it. Merge-update helper. */
export function assignDefined<T extends object>(target: T, changes: Partial<T>): void {
  for (const [key, value] of Object.entries(changes)) {
    if (value !== undefined) (target as Record<string, unknown>)[key] = value;
  }
}

const RETRYABLE = new Set(['40001', '40P01']);
const ATTEMPTS = 4;

/**
 * Runs `work` in one transaction on the request's EntityManager and retries the whole of it when
 * PostgreSQL reports a serialization failure or deadlock, after a short random pause (so the
 * transactions that collided do not collide again in step). What still fails after the last attempt
 * leaves as the PostgreSQL error, which `mapDatabaseError` answers as 429 with `Retry-After`, never
 * a 500.
 *
 * `work` gets the request's context bound to the transaction (`tx.em` is the transaction's
 * EntityManager) and uses only it: one database handle in scope. A query on the request's own
 * EntityManager inside the transaction would wait for a second connection, and the embedded
 * database has only one (lint refuses `ctx` inside the callback).
 */
export async function inTransaction<T>(
  ctx: RequestContext,
  work: (tx: RequestContext) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ctx.em.transactional((em) => {
        fileTransactionAccount(em.getTransactionContext(), ctx.viewer.accountId);
        return work({ ...ctx, em });
      });
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt >= ATTEMPTS || !code || !RETRYABLE.has(code)) throw error;
      await new Promise((resolve) => setTimeout(resolve, attempt * (5 + Math.random() * 20)));
    }
  }
}

/**
 * Takes the row lock that serialises the changes of one user (punching, running shifts) or of one
 * account (plan limits, the webhook maximum).
 *
 * FOR NO KEY UPDATE, not FOR UPDATE: these locks only serialise our own writers, which all take
 * this same lock, and FOR UPDATE would also conflict with the KEY SHARE lock that PostgreSQL takes
 * on a referenced row for every insert with a foreign key to it. A transaction that had already
 * inserted such a row (an Idempotency-Key row references the user; shifts, outbox rows and every
 * tenant row reference the account) and then asked for FOR UPDATE waited for the others' KEY SHARE
 * locks while they waited for its: a deadlock (issue 20, finding 3). NO KEY UPDATE conflicts with
 * itself and with FOR UPDATE (a delete of the row), not with KEY SHARE.
 *
 * Lock order, everywhere: at most one user's row (the user whose running shift changes), then the
 * account's row.
 */
export async function lockRow(
  em: EntityManager,
  table: 'users' | 'accounts',
  accountId: number,
  id = accountId,
): Promise<void> {
  // By the account too: on Citus that is the one worker's row, and a lock there is all it takes.
  const key = table === 'accounts' ? 'id = ?' : 'account_id = ? and id = ?';
  await em
    .getConnection()
    .execute(
      `select id from ${table} where ${key} for no key update`,
      table === 'accounts' ? [id] : [accountId, id],
      'all',
      em.getTransactionContext(),
    );
}
