import type { FilterQuery, QueryOrderMap } from '@mikro-orm/postgresql';
import { type EntityName, ValidationError } from '../../core/errors';
import type { ConnectionShape } from './graphql/connection';
import type { OrderSpec } from './graphql/list-args';
import type { RequestContext } from '../../core/request-context';
import { isUuid } from './identifiers';
import { findRows } from './unmanaged-rows';
import { rememberRows } from './entity-loaders';

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

function nest(path: string, condition: unknown): Record<string, unknown> {
  return path
    .split('.')
    .reverse()
    .reduce<unknown>((inner, segment) => ({ [segment]: inner }), condition) as Record<
    string,
    unknown
  >;
}

/** Order inputs → MikroORM orderBy, always ending in the id so pages are stable. */
export function compileOrderSpecs<T>(order: OrderSpec[] | null | undefined): QueryOrderMap<T>[] {
  const clauses = (order ?? []).map((o) => nest(o.field, o.direction === 'desc' ? 'desc' : 'asc'));
  clauses.push({ id: 'asc' });
  // MikroORM's QueryOrderMap<T> is keyed by T's property names; these paths come from the order
  // field tables at run time (dots walk relations), which its type cannot check.
  return clauses as QueryOrderMap<T>[];
}

/** Offset cursors: opaque to clients, stable for a fixed order. */
export function encodeCursor(offset: number): string {
  return Buffer.from(`o:${offset}`).toString('base64url');
}

export function decodeCursor(entity: EntityName, cursor: string | null | undefined): number {
  if (cursor === undefined || cursor === null) return 0;
  const match = /^o:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) throw ValidationError.field(entity, 'after', 'is not a cursor this server gave out');
  return Number(match[1]);
}

export interface PageRequest {
  first?: number | null;
  after?: string | null;
  /**
   * False when the query selects no `totalCount`: the page then reads one row more to learn
   * `hasNextPage` and skips the count, which over a large table costs more than the page
   * (`totalCount` is then only a lower bound, and nobody reads it).
   */
  countTotal?: boolean;
}

export function pageWindow(
  ctx: RequestContext,
  entity: EntityName,
  page: PageRequest,
): { offset: number; limit: number } {
  const { default: pageDefault, max } = ctx.config.pageSize;
  const first = page.first ?? pageDefault;
  if (!Number.isInteger(first) || first < 0 || first > max) {
    throw ValidationError.field(entity, 'first', `must be between 0 and ${max}`);
  }
  return { offset: decodeCursor(entity, page.after), limit: first };
}

export function toConnection<T>(rows: T[], totalCount: number, offset: number): ConnectionShape<T> {
  const end = offset + rows.length;
  return {
    totalCount,
    nodes: rows,
    pageInfo: {
      hasNextPage: end < totalCount,
      endCursor: rows.length > 0 || end < totalCount ? encodeCursor(end) : null,
    },
  };
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
  /** Loads what the page's nodes select, for all the rows of the batch at once. */
  readonly prime: (rows: T[]) => Promise<void>;
}

/**
 * One parent's page of a nested list. The children of every parent in the request come from one
 * query (batched per `name`, which must carry the filter and order); each parent's page is cut
 * from its share.
 */
export async function childPage<T extends object>(
  ctx: RequestContext,
  list: ChildList<T>,
  name: string,
  parentId: number,
  page: PageRequest,
): Promise<ConnectionShape<T>> {
  const { offset, limit } = pageWindow(ctx, list.entity, page);
  const all = await ctx.loaders.children(
    name,
    parentId,
    async (ids: readonly number[]) => {
      const rows = await findRows(ctx.em, list.entityClass, list.where, {
        anyOf: { property: list.parent, ids },
        orderBy: compileOrderSpecs<T>(list.order),
      });
      await list.prime(rows);
      return rows;
    },
    (row: T) => (row[list.parent] as { id: number }).id,
  );
  return toConnection(all.slice(offset, offset + limit), all.length, offset);
}

/**
 * One page of a top-level list: the rows and the total count, under the tenant filter.
 *
 * `unmanaged` serves long read-only lists (a thousand shifts) with `findRows`: the same filters,
 * without the ORM's hydration.
 */
export async function findPage<T extends { id: number }>(
  ctx: RequestContext,
  entityClass: new () => T,
  entity: EntityName,
  where: FilterQuery<T>,
  order: OrderSpec[] | null | undefined,
  page: PageRequest,
  options: { unmanaged?: boolean } = {},
): Promise<ConnectionShape<T>> {
  const { offset, limit } = pageWindow(ctx, entity, page);
  const orderBy = compileOrderSpecs<T>(order);
  if (page.countTotal === false && options.unmanaged) {
    const rows = await findRows(ctx.em, entityClass, where, { orderBy, offset, limit: limit + 1 });
    const hasMore = rows.length > limit;
    if (hasMore) rows.pop();
    rememberRows(ctx, entityClass, rows);
    return toConnection(rows, offset + rows.length + (hasMore ? 1 : 0), offset);
  }
  if (!options.unmanaged) {
    const [rows, total] = await ctx.em.findAndCount(entityClass, where, { orderBy, offset, limit });
    return toConnection(rows, total, offset);
  }
  const [rows, total] = await Promise.all([
    findRows(ctx.em, entityClass, where, { orderBy, offset, limit }),
    ctx.em.count(entityClass, where),
  ]);
  rememberRows(ctx, entityClass, rows);
  return toConnection(rows, total, offset);
}
