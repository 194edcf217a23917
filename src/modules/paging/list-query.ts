import {
  raw,
  type FilterQuery,
  type MetadataStorage,
  type QBFilterQuery,
  type QueryOrderMap,
} from '@mikro-orm/postgresql';
import { type EntityName, ValidationError } from '../../core/errors';
import type { ConnectionShape, OrderSpec } from '../../core/list-shapes';
import type { RequestContext } from '../../core/request-context';
import type { Viewer } from '../../core/viewer';
import { assertQueryReadable, declaredFilterPaths } from '../common';
import { isUuid } from '../ids';
import { findRows, intArray } from './unmanaged-rows';
import { loadById, primeById, rememberRows } from './entity-loaders';
import { readAhead } from './read-ahead';
import { applyTenantFilters } from './tenant-filters';
import {
  type Cursor,
  decodeCursor,
  encodeCursor,
  keysetWhere,
  nest,
  type OrderTerm,
  orderTerms,
  readCursor,
} from './keyset-cursors';

/**
 * Turns the typed GraphQL filter and order inputs into MikroORM queries. Values always travel as
 * query parameters; field names only ever come from the per-type tables below, never from input.
 */

/** GraphQL filter field → entity property path (dots walk relations, e.g. `project.uuid`). */
export type FilterFields = Record<string, string>;

const OPERATORS: Record<string, string> = {
  eq: '$eq',
  ne: '$ne',
  lt: '$lt',
  lte: '$lte',
  gt: '$gt',
  gte: '$gte',
  like: '$ilike',
  in: '$in',
};

/** Nesting and size caps, so a filter cannot grow into a query the database chokes on. */
const MAX_FILTER_DEPTH = 16;
const MAX_FILTER_TERMS = 200;

/**
 * A GraphQL filter input (an instance of a filter class: field → operator → operand, with `and`,
 * `or` and `not`) as a where-object of `T`; it is read by its own keys, so any object will do.
 */
export function compileFilter<T extends object>(
  entity: EntityName,
  filter: object | null | undefined,
  fields: FilterFields,
): FilterQuery<T> {
  if (!filter) return {} as FilterQuery<T>;
  const state = { terms: 0 };
  return compileNode(entity, filter, fields, 'filter', 0, state) as FilterQuery<T>;
}

/**
 * A list's filter over the declared fields of `type` (common/field-declarations.ts), once the read
 * rules of the fields its filter and order name let the caller query by them.
 */
export function declaredWhere<T extends object>(
  viewer: Viewer,
  entity: EntityName,
  type: abstract new (...args: never[]) => T,
  filter: object | null | undefined,
  order: readonly { field: string }[] | null | undefined,
): FilterQuery<T> {
  assertQueryReadable(viewer, entity, type, filter, order);
  return compileFilter<T>(entity, filter, declaredFilterPaths(type));
}

function compileNode(
  entity: EntityName,
  node: object,
  fields: FilterFields,
  at: string,
  depth: number,
  state: { terms: number },
): Record<string, unknown> {
  if (depth > MAX_FILTER_DEPTH) {
    throw ValidationError.field(entity, at, `nests deeper than ${MAX_FILTER_DEPTH} levels`);
  }
  const parts: Record<string, unknown>[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (value === undefined || value === null) continue;
    if (key === 'and' || key === 'or') {
      const list = (value as Record<string, unknown>[]).map((child, i) =>
        compileNode(entity, child, fields, `${at}.${key}[${i}]`, depth + 1, state),
      );
      if (list.length > 0) parts.push({ [`$${key}`]: list });
    } else if (key === 'not') {
      parts.push({
        $not: compileNode(
          entity,
          value as Record<string, unknown>,
          fields,
          `${at}.not`,
          depth + 1,
          state,
        ),
      });
    } else {
      const path = fields[key];
      if (!path) throw ValidationError.field(entity, `${at}.${key}`, 'is not a filterable field');
      for (const [op, operand] of Object.entries(value as Record<string, unknown>)) {
        if (operand === undefined || operand === null) continue;
        state.terms += 1;
        if (state.terms > MAX_FILTER_TERMS) {
          throw ValidationError.field(entity, at, `has more than ${MAX_FILTER_TERMS} comparisons`);
        }
        checkOperand(entity, `${at}.${key}.${op}`, path, operand);
        parts.push(nest(path, comparison(op, operand)));
      }
    }
  }
  if (parts.length === 0) return {};
  return parts.length === 1 ? parts[0]! : { $and: parts };
}

function comparison(op: string, operand: unknown): unknown {
  if (op === 'isNull') return operand ? { $eq: null } : { $ne: null };
  const mikroOp = OPERATORS[op];
  if (!mikroOp) throw new Error(`unknown filter operator ${op}`);
  return { [mikroOp]: op === 'like' ? likePattern(operand as string) : operand };
}

/**
 * A `like` operand as PostgreSQL can take it. The pattern stays the client's (the interface
 * document's `~=`): `%` and `_` are wildcards and `\` makes the next character literal (`\%`,
 * `\_`, `\\`), PostgreSQL's default escape. But a pattern ending in an escape that escapes
 * nothing is an error in PostgreSQL, raised at the first row compared, which answered 500
 * (issue 20, finding 10); such a trailing backslash is taken literally instead, as MySQL does.
 */
function likePattern(pattern: string): string {
  const trailing = pattern.length - pattern.replace(/\\+$/, '').length;
  return trailing % 2 === 1 ? `${pattern}\\` : pattern;
}

function checkOperand(entity: EntityName, at: string, path: string, operand: unknown): void {
  const values = Array.isArray(operand) ? operand : [operand];
  if (Array.isArray(operand) && operand.length > MAX_FILTER_TERMS) {
    throw ValidationError.field(entity, at, `lists more than ${MAX_FILTER_TERMS} values`);
  }
  for (const value of values) {
    if (typeof value === 'string') {
      if (value.includes('\u0000'))
        throw ValidationError.field(entity, at, 'contains a NUL character');
      // Identifiers are uuid columns: text that is no uuid could never match and would make
      // PostgreSQL fail the whole query.
      if (path.endsWith('uuid') && !isUuid(value))
        throw ValidationError.field(entity, at, 'is not a valid id');
    }
  }
}

/** An order's terms as MikroORM orderBy, in reverse when reading a page backwards. */
function orderByOf<T>(terms: readonly OrderTerm[], reversed = false): QueryOrderMap<T>[] {
  // MikroORM's QueryOrderMap<T> is keyed by T's property names; these paths come from the order
  // field tables at run time (dots walk relations), which its type cannot check. Reversing each
  // direction reverses the whole order, NULLs included (PostgreSQL puts them last ascending and
  // first descending).
  return terms.map((t) => nest(t.path, t.desc !== reversed ? 'desc' : 'asc')) as QueryOrderMap<T>[];
}

/**
 * A page request: `first` rows after the `after` cursor, or the `last` rows before the `before`
 * cursor (Relay's connection arguments).
 */
export interface PageRequest {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
  /**
   * False when the query selects no `totalCount`: the page skips the count, which over a large
   * table costs more than the page (`totalCount` is then only a lower bound, and nobody reads it).
   */
  countTotal?: boolean;
  /**
   * The fields the page's nodes select, when known: a list read without the ORM reads only their
   * columns (`columnsFor`).
   */
  nodeFields?: ReadonlySet<string>;
  /**
   * The columns behind those fields for a list of `type` that also reads `also` (its order's
   * columns), or undefined for every column. The GraphQL layer hands it over with the fields
   * (graphql/selection.ts, `columnsFor`): only it knows which property answers a field.
   */
  columnsOf?: (
    metadata: MetadataStorage,
    type: abstract new () => unknown,
    also: readonly string[],
  ) => string[] | undefined;
}

/**
 * What a list reads before it is paged: its rows (the filter and every policy as one where-object)
 * and its order. A service answers it once, and both the executor (`findPage`) and reads compiled
 * to SQL (`listWindow`) page it, so the two read the same rows.
 */
export interface ListSource<T extends object> {
  readonly entityClass: new () => T;
  readonly entity: EntityName;
  readonly where: FilterQuery<T>;
  readonly order: OrderSpec[] | null | undefined;
  /** How the executor reads its rows (`findPage`'s `unmanaged` and `selectedColumns`). */
  readonly rows?: { readonly unmanaged?: boolean; readonly selectedColumns?: boolean };
}

/**
 * The page of `source` a request asks for, as `findPage` reads it: the order's terms, the size and
 * direction, the cursors (a bad one is the caller's VALIDATION error), and the rows' where-object
 * with the cursors' conditions.
 */
export function listWindow<T extends object>(
  ctx: RequestContext,
  source: ListSource<T>,
  page: PageRequest,
): PageWindow & { readonly pageWhere: FilterQuery<T> } {
  const window = pageWindow(ctx, source.entityClass, source.entity, source.order, page);
  return { ...window, pageWhere: whereOfWindow(source.where, window) };
}

export interface PageWindow {
  readonly terms: OrderTerm[];
  readonly limit: number;
  /** Reading the `last` rows: the query runs in the reversed order, the page is turned back. */
  readonly backwards: boolean;
  readonly after: Cursor | undefined;
  readonly before: Cursor | undefined;
}

function pageWindow<T extends object>(
  ctx: RequestContext,
  entityClass: new () => T,
  entity: EntityName,
  order: OrderSpec[] | null | undefined,
  page: PageRequest,
): PageWindow {
  const terms = orderTerms(order);
  const cursor = (argument: 'after' | 'before', text: string | null | undefined) =>
    text === undefined || text === null
      ? undefined
      : decodeCursor(ctx.em, entityClass, entity, terms, argument, text);
  return {
    terms,
    ...pageSize(ctx, entity, page),
    after: cursor('after', page.after),
    before: cursor('before', page.before),
  };
}

/** How many rows a page asks for, and in which direction: `first` or `last`, never both. */
function pageSize(
  ctx: RequestContext,
  entity: EntityName,
  page: PageRequest,
): { limit: number; backwards: boolean } {
  const { default: pageDefault, max } = ctx.config.pageSize;
  const hasFirst = page.first !== undefined && page.first !== null;
  const hasLast = page.last !== undefined && page.last !== null;
  if (hasFirst && hasLast) {
    throw ValidationError.field(entity, 'last', 'give first or last, not both');
  }
  for (const [name, size] of [
    ['first', page.first],
    ['last', page.last],
  ] as const) {
    if (size !== undefined && size !== null && (!Number.isInteger(size) || size < 0 || size > max))
      throw ValidationError.field(entity, name, `must be between 0 and ${max}`);
  }
  return { limit: (hasLast ? page.last : page.first) ?? pageDefault, backwards: hasLast };
}

/**
 * A page of a list already read whole and sorted by `key` ascending, whose last value is unique
 * (a list a policy filtered in memory, such as the deletions an app may see): the same arguments
 * and keyset cursors as `findPage`, over `terms` named for the key's parts.
 */
export function pageOfSortedList<T>(
  ctx: RequestContext,
  entity: EntityName,
  items: readonly T[],
  terms: readonly OrderTerm[],
  key: (item: T) => readonly (string | number)[],
  page: PageRequest,
): ConnectionShape<T> {
  const { limit, backwards } = pageSize(ctx, entity, page);
  const compare = (a: readonly (string | number)[], b: readonly unknown[]) => {
    for (let i = 0; i < a.length; i++) {
      if (a[i]! < (b[i] as string | number)) return -1;
      if (a[i]! > (b[i] as string | number)) return 1;
    }
    return 0;
  };
  const position = (argument: 'after' | 'before', text: string | null | undefined) =>
    text === undefined || text === null
      ? undefined
      : readCursor(entity, terms, argument, text, (_term, value) =>
          ['string', 'number'].includes(typeof value),
        ).values;
  const after = position('after', page.after);
  const before = position('before', page.before);
  const inRange = items.filter(
    (item) =>
      (!after || compare(key(item), after) > 0) && (!before || compare(key(item), before) < 0),
  );
  const rows = backwards
    ? inRange.slice(Math.max(0, inRange.length - limit))
    : inRange.slice(0, limit);
  const hasMore = inRange.length > limit;
  const cursorOf = (item: T) => encodeCursor(terms, key(item));
  return {
    totalCount: items.length,
    nodes: rows,
    edges: rows.map((node) => ({ node, cursor: cursorOf(node) })),
    pageInfo: {
      hasNextPage: backwards ? before !== undefined : hasMore,
      hasPreviousPage: backwards ? hasMore : after !== undefined,
      startCursor: rows.length > 0 ? cursorOf(rows[0]!) : null,
      endCursor: rows.length > 0 ? cursorOf(rows[rows.length - 1]!) : null,
    },
  };
}

/**
 * The connection of one page. `edges` are made only when selected; their cursors read the row's
 * values of the order's columns (related rows' from the request's loaders, read beforehand by
 * `readCursorValues`).
 */
function toConnection<T extends { id: number }>(
  ctx: RequestContext,
  entityClass: new () => T,
  window: PageWindow,
  rows: T[],
  totalCount: number,
  more: { hasNextPage: boolean; hasPreviousPage: boolean },
): ConnectionShape<T> {
  const cursorOf = (row: T) =>
    encodeCursor(
      window.terms,
      window.terms.map((t) => valueAt(ctx, entityClass, row, t.path)),
    );
  return {
    totalCount,
    nodes: rows,
    get edges() {
      return rows.map((node) => ({ node, cursor: cursorOf(node) }));
    },
    pageInfo: {
      ...more,
      startCursor: rows.length > 0 ? cursorOf(rows[0]!) : null,
      endCursor: rows.length > 0 ? cursorOf(rows[rows.length - 1]!) : null,
    },
  };
}

/** A row's value at an order path: its own column, or a related row's (`project.uuid`). */
function valueAt<T extends object>(
  ctx: RequestContext,
  entityClass: new () => T,
  row: T,
  path: string,
): unknown {
  const dot = path.indexOf('.');
  if (dot < 0) return (row as Record<string, unknown>)[path];
  const relation = path.slice(0, dot);
  const ref = (row as Record<string, { id: number } | null>)[relation];
  if (!ref) return null;
  const related = loadById(ctx, relatedClass(ctx, entityClass, relation), ref.id);
  if (related instanceof Promise) throw new Error(`${relation} of the page was not read ahead`);
  return related ? (related as Record<string, unknown>)[path.slice(dot + 1)] : null;
}

function relatedClass<T extends object>(
  ctx: RequestContext,
  entityClass: new () => T,
  relation: string,
): new () => { id: number } {
  const metadata = ctx.em.getMetadata();
  const type = metadata.get(entityClass.name).properties[relation as keyof T & string]!.type;
  return metadata.get(type).class as new () => { id: number };
}

/** Reads ahead the related rows whose values the cursors of `rows` hold (one batch per relation). */
async function readCursorValues<T extends object>(
  ctx: RequestContext,
  entityClass: new () => T,
  terms: readonly OrderTerm[],
  rows: readonly T[],
): Promise<void> {
  for (const term of terms) {
    const dot = term.path.indexOf('.');
    if (dot < 0) continue;
    const relation = term.path.slice(0, dot);
    const ids = rows
      .map((row) => (row as Record<string, { id: number } | null>)[relation]?.id)
      .filter((id): id is number => id !== undefined);
    await primeById(ctx, relatedClass(ctx, entityClass, relation), ids);
  }
}

/** A nested list of `entityClass` rows under their parent's `parent` reference. */
export interface ChildList<T> {
  readonly entity: EntityName;
  readonly entityClass: new () => T;
  /** The reference to the parent (`project` of a shift). */
  readonly parent: keyof T & string;
  /** The filter and the caller's policy (`{ $and: [filter, policy] }`), applied in the query. */
  readonly where: FilterQuery<T>;
  readonly order: OrderSpec[] | undefined;
  /**
   * Read only the columns of the selected fields (`columnsFor`). Such rows are the page's only:
   * references from elsewhere in the request (an activity's project) read whole rows again, so
   * this is for long lists that nothing refers back to (shifts), not for parents (projects).
   */
  readonly selectedColumns?: boolean;
}

/**
 * One parent's page of a nested list. The pages of every parent in the request come from one
 * statement (batched per `name`, which must carry the filter and order): the page's query, with
 * its cursor conditions and `limit`, run per parent (`findRows`' `perParent`), so a parent with a
 * million children reads one page of them. `totalCount`, when selected, is one grouped count per
 * batch. The cursors and `hasNextPage`/`hasPreviousPage` mean what they mean at the top level
 * (`findPage`).
 */
export async function childPage<T extends { id: number }>(
  ctx: RequestContext,
  list: ChildList<T>,
  name: string,
  parentId: number,
  page: PageRequest,
): Promise<ConnectionShape<T>> {
  const window = pageWindow(ctx, list.entityClass, list.entity, list.order, page);
  const where = whereOfWindow(list.where, window);
  // Pages batch together only when they read the same rows: the same window and the same columns
  // (two aliases of one list may select different fields, and read ahead different relations).
  const selected = page.nodeFields ?? new Set<string>();
  // Without the selection (a caller that bypasses pageRequest) every column is read.
  const columns =
    list.selectedColumns && page.nodeFields
      ? columnsOfWindow(ctx, list.entityClass, page, window)
      : undefined;
  const batch = `${name}:${JSON.stringify([window.limit, window.backwards, page.after, page.before, [...selected].sort()])}`;
  const parentOf = (row: T) => (row[list.parent] as { id: number }).id;
  const [read, counted] = await Promise.all([
    ctx.loaders.children(
      batch,
      parentId,
      async (ids: readonly number[]) => {
        const rows = await findRows(ctx.em, list.entityClass, where, {
          perParent: { property: list.parent, ids },
          orderBy: orderByOf<T>(window.terms, window.backwards),
          limit: window.limit + 1,
          columns,
        });
        if (!columns) rememberRows(ctx, list.entityClass, rows);
        await readAhead(ctx, list.entityClass, rows, selected);
        return rows;
      },
      parentOf,
    ),
    page.countTotal === false
      ? undefined
      : ctx.loaders.load(`${name}:count`, parentId, (ids: readonly number[]) =>
          countPerParent(ctx, list, ids),
        ),
  ]);
  // The batch's arrays are the loader's: copied before they are cut.
  const hasMore = read.length > window.limit;
  const rows = read.slice(0, window.limit);
  if (window.backwards) rows.reverse();
  await readCursorValues(ctx, list.entityClass, window.terms, rows);
  return toConnection(ctx, list.entityClass, window, rows, counted ?? read.length, {
    hasNextPage: window.backwards ? window.before !== undefined : hasMore,
    hasPreviousPage: window.backwards ? hasMore : window.after !== undefined,
  });
}

/** How many children each parent has under the list's filter and policy (one grouped count). */
async function countPerParent<T extends object>(
  ctx: RequestContext,
  list: ChildList<T>,
  parentIds: readonly number[],
): Promise<number[]> {
  const column = ctx.em.getMetadata().get(list.entityClass.name).properties[list.parent]
    .fieldNames[0]!;
  const qb = ctx.em.createQueryBuilder(list.entityClass);
  const parent = `${qb.alias}.${column}`;
  qb.select([raw(`${parent} as parent_id`), raw('count(*)::int as count')])
    .where(list.where as QBFilterQuery<T>)
    .andWhere(`${parent} = any(?::int[])`, [intArray(parentIds)])
    .groupBy(parent);
  await applyTenantFilters(ctx.em, qb);
  const rows = await qb.execute<{ parent_id: number; count: number }[]>('all', false);
  const counts = new Map(rows.map((row) => [row.parent_id, row.count]));
  return parentIds.map((id) => counts.get(id) ?? 0);
}

/** The columns a page reads: those of its nodes' fields and of its order (the cursors'). */
function columnsOfWindow<T>(
  ctx: RequestContext,
  entityClass: new () => T,
  page: PageRequest,
  window: PageWindow,
): string[] | undefined {
  const orderColumns = window.terms.map((term) => term.path.split('.')[0]!);
  return page.columnsOf?.(ctx.em.getMetadata(), entityClass, orderColumns);
}

/** `where` and the window's cursor conditions: the rows after `after` and before `before`. */
function whereOfWindow<T>(where: FilterQuery<T>, window: PageWindow): FilterQuery<T> {
  const keyset = [
    ...(window.after ? [keysetWhere(window.terms, window.after, 'after')] : []),
    ...(window.before ? [keysetWhere(window.terms, window.before, 'before')] : []),
  ];
  return (keyset.length > 0 ? { $and: [where, ...keyset] } : where) as FilterQuery<T>;
}

/**
 * One page of a top-level list: the rows after or before a cursor (as conditions in the query,
 * next to the filter and the policy) and the total count, under the tenant filter. One row more
 * than the page is read, to learn whether there are more in the direction of reading; in the
 * other direction, a cursor given means there were rows (Relay lets a server answer this cheaply).
 *
 * `unmanaged` serves long read-only lists (a thousand shifts) with `findRows`: the same filters,
 * without the ORM's hydration; `selectedColumns` (as in ChildList) reads only the columns of the
 * fields the nodes select. What those fields read ahead (`@ReadsAhead`) is read for the whole page.
 */
export async function findPage<T extends { id: number }>(
  ctx: RequestContext,
  source: ListSource<T>,
  page: PageRequest,
): Promise<ConnectionShape<T>> {
  const { entityClass, where, rows: options = {} } = source;
  const { pageWhere, ...window } = listWindow(ctx, source, page);
  const read = { orderBy: orderByOf<T>(window.terms, window.backwards), limit: window.limit + 1 };
  const columns =
    options.unmanaged && options.selectedColumns && page.nodeFields
      ? columnsOfWindow(ctx, entityClass, page, window)
      : undefined;
  const [rows, counted] = await Promise.all([
    options.unmanaged
      ? findRows(ctx.em, entityClass, pageWhere, { ...read, columns })
      : ctx.em.find(entityClass, pageWhere, read),
    page.countTotal === false ? undefined : ctx.em.count(entityClass, where),
  ]);
  const hasMore = rows.length > window.limit;
  if (hasMore) rows.pop();
  if (window.backwards) rows.reverse();
  // Rows with only some columns stay the page's: `loadById` answers whole rows.
  if (options.unmanaged && !columns) rememberRows(ctx, entityClass, rows);
  await Promise.all([
    readCursorValues(ctx, entityClass, window.terms, rows),
    page.nodeFields && readAhead(ctx, entityClass, rows, page.nodeFields),
  ]);
  return toConnection(ctx, entityClass, window, rows, counted ?? rows.length + (hasMore ? 1 : 0), {
    hasNextPage: window.backwards ? window.before !== undefined : hasMore,
    hasPreviousPage: window.backwards ? hasMore : window.after !== undefined,
  });
}
