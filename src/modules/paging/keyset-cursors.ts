import type { EntityManager, EntityProperty } from '@mikro-orm/postgresql';
import { type EntityName, ValidationError } from '../../core/errors';
import type { OrderSpec } from '../../core/list-shapes';
import { isUuid } from '../ids';

/**
 * Keyset cursors (issue 21 item 5). A cursor names a position in one order: the values of the
 * order's columns in its row, then the row's integer id (every order ends in it, so positions are
 * total). The next page is "the rows after these values", so a row added or removed before the
 * cursor moves nothing after it, as an offset would.
 *
 * The cursor also carries the order it was given out for: used with another order, it would name
 * a position that means nothing there, so that is a VALIDATION error, never a silently odd page.
 *
 * NULLs sort as PostgreSQL sorts them by default, which is what the list's `ORDER BY` asks for:
 * last ascending, first descending. The conditions below follow the same rule.
 */

/** One term of a list's order, the id included: an entity property path and its direction. */
export interface OrderTerm {
  readonly path: string;
  readonly desc: boolean;
}

/** The value of a cursor column: JSON-safe; timestamps travel as ISO text. */
type CursorValue = string | number | boolean | null;

export interface Cursor {
  readonly values: readonly CursorValue[];
}

/** The list's order as its terms, always ending in the id so positions are total. */
export function orderTerms(order: readonly OrderSpec[] | null | undefined): OrderTerm[] {
  const terms = (order ?? []).map((o) => ({ path: o.field, desc: o.direction === 'desc' }));
  terms.push({ path: 'id', desc: false });
  return terms;
}

/** How a cursor names its order: the terms as text (`start:desc,id:asc`). */
function orderKey(terms: readonly OrderTerm[]): string {
  return terms.map((t) => `${t.path}:${t.desc ? 'desc' : 'asc'}`).join(',');
}

export function encodeCursor(terms: readonly OrderTerm[], values: readonly unknown[]): string {
  const json = values.map((v) => (v instanceof Date ? v.toISOString() : (v ?? null)));
  return Buffer.from(JSON.stringify([orderKey(terms), json])).toString('base64url');
}

/**
 * Reads a cursor given as `argument` (`after` or `before`) for a list in `terms`: a cursor of
 * another order, or one whose values could not be of its columns, is the caller's error. Checking
 * each value against its column's type keeps a forged cursor from reaching PostgreSQL as text it
 * cannot compare (which would be a 500).
 */
export function decodeCursor(
  em: EntityManager,
  entityClass: new () => object,
  entity: EntityName,
  terms: readonly OrderTerm[],
  argument: 'after' | 'before',
  cursor: string,
): Cursor {
  return readCursor(entity, terms, argument, cursor, (term, value) =>
    fitsColumn(propertyAt(em, entityClass, term.path), value),
  );
}

/**
 * Reads a cursor of a list in `terms` whose values `fits` checks (a column's type, or a field of a
 * list kept in memory): a cursor of another order, or with values that cannot be its terms', is
 * the caller's VALIDATION error.
 */
export function readCursor(
  entity: EntityName,
  terms: readonly OrderTerm[],
  argument: 'after' | 'before',
  cursor: string,
  fits: (term: OrderTerm, value: unknown) => boolean,
): Cursor {
  const invalid = () =>
    ValidationError.field(entity, argument, 'is not a cursor this server gave out');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString());
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed.length !== 2 || typeof parsed[0] !== 'string') {
    throw invalid();
  }
  const [key, values] = parsed as [string, unknown];
  if (key !== orderKey(terms)) {
    throw ValidationError.field(
      entity,
      argument,
      'was given out for another order: page with the order the cursor came from',
    );
  }
  if (!Array.isArray(values) || values.length !== terms.length) throw invalid();
  terms.forEach((term, i) => {
    if (!fits(term, values[i])) throw invalid();
  });
  return { values: values as CursorValue[] };
}

/** The property a path (`start`, `project.uuid`) ends in, walking relations. */
function propertyAt(
  em: EntityManager,
  entityClass: new () => object,
  path: string,
): EntityProperty {
  const metadata = em.getMetadata();
  let meta = metadata.get(entityClass.name);
  const segments = path.split('.');
  for (const segment of segments.slice(0, -1)) meta = metadata.get(meta.properties[segment]!.type);
  return meta.properties[segments[segments.length - 1]!]!;
}

function fitsColumn(prop: EntityProperty, value: unknown): boolean {
  if (value === null) return prop.nullable === true;
  switch (prop.runtimeType) {
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return false;
      // An integer column compared with a fraction or a number beyond its range is an error in
      // PostgreSQL, not a comparison.
      return (
        !/^(int|smallint|serial)/.test(prop.columnTypes?.[0] ?? String(prop.type)) ||
        (Number.isInteger(value) && Math.abs(value) <= 2 ** 31 - 1)
      );
    case 'boolean':
      return typeof value === 'boolean';
    case 'Date':
      // As encodeCursor writes it (toISOString), which PostgreSQL reads whatever its settings.
      return (
        typeof value === 'string' &&
        /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(value) &&
        !Number.isNaN(Date.parse(value))
      );
    default:
      if (typeof value !== 'string' || value.includes('\u0000')) return false;
      return prop.type !== 'uuid' || isUuid(value);
  }
}

/**
 * The rows strictly after (`after`) or before (`before`) the cursor's position: for some term k,
 * every earlier term equals the cursor's value and term k lies beyond it. As a MikroORM where
 * object, so it joins the list's filter and policy in the same query.
 */
export function keysetWhere(
  terms: readonly OrderTerm[],
  cursor: Cursor,
  side: 'after' | 'before',
): Record<string, unknown> {
  const alternatives: Record<string, unknown>[] = [];
  for (let k = 0; k < terms.length; k += 1) {
    const beyond = beyondValue(terms[k]!, cursor.values[k]!, side);
    if (!beyond) continue;
    const equal = terms.slice(0, k).map((t, i) => nest(t.path, { $eq: cursor.values[i] }));
    alternatives.push({ $and: [...equal, beyond] });
  }
  return alternatives.length > 0 ? { $or: alternatives } : { id: { $eq: null } };
}

/**
 * The values of one column beyond `value` in the term's direction, or undefined when there are
 * none. Ascending, NULLs come last: after a NULL nothing; after a value the greater ones and the
 * NULLs. Descending, NULLs come first: after a NULL every non-NULL; after a value the smaller ones.
 * `before` is the mirror image.
 */
function beyondValue(
  term: OrderTerm,
  value: CursorValue,
  side: 'after' | 'before',
): Record<string, unknown> | undefined {
  // Whether the wanted rows lie towards the greater values, which is where PostgreSQL puts the
  // NULLs (the end of an ascending order, the start of a descending one).
  const upwards = term.desc === (side === 'before');
  const towardsNulls = upwards;
  if (value === null) return towardsNulls ? undefined : nest(term.path, { $ne: null });
  const beyond = nest(term.path, { [upwards ? '$gt' : '$lt']: value });
  return towardsNulls ? { $or: [beyond, nest(term.path, { $eq: null })] } : beyond;
}

/** `condition` on the property `path` names, nested along its dots (`company.uuid`). */
export function nest(path: string, condition: unknown): Record<string, unknown> {
  return path
    .split('.')
    .reverse()
    .reduce<unknown>((inner, segment) => ({ [segment]: inner }), condition) as Record<
    string,
    unknown
  >;
}
