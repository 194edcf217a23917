import type {
  EntityManager,
  EntityProperty,
  FilterQuery,
  QBFilterQuery,
  QueryOrderMap,
} from '@mikro-orm/postgresql';
import { applyTenantFilters } from './tenant-filters';

/**
 * Read-only rows without the ORM's hydration.
 *
 * Nested reads and long lists (a thousand shifts, the activities of four hundred projects) are
 * only rendered, never changed. For them, MikroORM's hydration (identity map, reference wrappers,
 * change-tracking snapshots) costs more than the query, so these rows are built straight from the
 * result set as objects on the entity's prototype: the same columns, filters (the tenant filter
 * included) and conversions, with relations as `{ id }`. They must never be persisted or flushed,
 * and they are not in the identity map.
 */
export async function findRows<T extends object>(
  em: EntityManager,
  entityClass: new () => T,
  where: FilterQuery<T>,
  options: RowOptions<T> = {},
): Promise<T[]> {
  const properties = em.getMetadata().get(entityClass.name).properties;
  const qb = em
    .createQueryBuilder(entityClass)
    .select(
      options.columns
        ? options.columns.map((name) => properties[name as keyof T & string].fieldNames[0]!)
        : '*',
    )
    .where(where as QBFilterQuery<T>);
  const columnOf = (property: keyof T & string) =>
    `${qb.alias}.${properties[property].fieldNames[0]!}`;
  if (options.anyOf) {
    // One array parameter instead of `$in`: MikroORM builds a criteria node per listed id, which
    // on a batch of a thousand ids costs more than the query.
    qb.andWhere(`${columnOf(options.anyOf.property)} = any(?::int[])`, [
      intArray(options.anyOf.ids),
    ]);
  }
  if (options.perParent) qb.andWhere(`${columnOf(options.perParent.property)} = parent.id`);
  if (options.orderBy) qb.orderBy(options.orderBy);
  if (options.offset) qb.offset(options.offset);
  if (options.limit !== undefined) qb.limit(options.limit);
  await applyTenantFilters(em, qb);
  const rows = options.perParent
    ? await perParentRows(em, qb.getKnexQuery().toSQL(), options.perParent.ids)
    : await qb.execute<Record<string, unknown>[]>('all', false);
  return rows.map(rowBuilder(em, entityClass, options.columns));
}

/**
 * Runs a query written for one parent (its condition names `parent.id`) for each of `ids`, in
 * one statement: a lateral join, so the query's `limit` and order hold per parent and each parent
 * reads only its own rows (an index on the parent column and the order serves each one). Each
 * parent's rows come in the query's order: a subquery that refers to the outer row can only run
 * per outer row (a nested loop), which hands on its rows as its ORDER BY and LIMIT produced them.
 * PostgreSQL states no order without an outer ORDER BY; this is the executor's behaviour, which
 * `test/integration/nested-query-statements.test.ts` reads back. The query's text is re-run
 * through knex with its bindings, so it must hold no literal `?`.
 */
async function perParentRows(
  em: EntityManager,
  query: { sql: string; bindings: readonly unknown[] },
  ids: readonly number[],
): Promise<Record<string, unknown>[]> {
  return em
    .getConnection()
    .execute<Record<string, unknown>[]>(
      `select child.* from unnest(?::int[]) as parent (id) cross join lateral (${query.sql}) as child`,
      [intArray(ids), ...query.bindings],
      'all',
      em.getTransactionContext(),
    );
}

/** An integer array as one text parameter (`{1,2,3}`), for `any(?::int[])` and `unnest`. */
export function intArray(ids: readonly number[]): string {
  return `{${ids.join(',')}}`;
}

export interface RowOptions<T> {
  /**
   * Only these properties' columns (the fields a list's nodes select, `columnsFor`); the others
   * stay null on the rows. Without: every column.
   */
  columns?: readonly string[];
  /** Only rows whose integer column (an id or a foreign key) is one of these. */
  anyOf?: { property: keyof T & string; ids: readonly number[] };
  /**
   * The query (its `limit` and `orderBy` included) run for each of these parents: the rows whose
   * reference `property` points to one of `ids`, at most `limit` of each.
   */
  perParent?: { property: keyof T & string; ids: readonly number[] };
  orderBy?: QueryOrderMap<T> | QueryOrderMap<T>[];
  offset?: number;
  limit?: number;
}

type RowBuilder = (row: Record<string, unknown>) => unknown;
const builders = new WeakMap<object, Map<string, RowBuilder>>();

/**
 * Builds objects from raw rows by the entity's metadata, once per entity class and set of
 * columns (a list's selections repeat, so the sets are few).
 */
function rowBuilder<T extends object>(
  em: EntityManager,
  entityClass: new () => T,
  columns: readonly string[] | undefined,
): (row: Record<string, unknown>) => T {
  const key = columns ? columns.join(',') : '*';
  const ofClass = builders.get(entityClass) ?? new Map<string, RowBuilder>();
  builders.set(entityClass, ofClass);
  const known = ofClass.get(key);
  if (known) return known as (row: Record<string, unknown>) => T;
  const platform = em.getPlatform();
  const readable = em
    .getMetadata()
    .get(entityClass.name)
    .props.filter(
      (p) =>
        p.persist !== false &&
        p.fieldNames?.length === 1 &&
        (p.kind === 'scalar' || p.kind === 'm:1'),
    );
  const props = columns ? readable.filter((p) => columns.includes(p.name)) : readable;
  const convert = (p: EntityProperty, value: unknown): unknown => {
    if (p.kind === 'm:1') return { id: value };
    if (p.runtimeType === 'Date') return platform.parseDate(value as string);
    return p.customType ? p.customType.convertToJSValue(value, platform) : value;
  };
  // MikroORM puts setters on the entity's prototype that give every object a change-tracking
  // helper on first write. The rows' own prototype shadows them with plain data properties, so
  // assignments stay plain while `instanceof` and the entity's methods still hold.
  const prototype = Object.create(entityClass.prototype) as object;
  for (const p of readable)
    Object.defineProperty(prototype, p.name, { value: null, writable: true, configurable: true });
  const build = (row: Record<string, unknown>): T => {
    const entity = Object.create(prototype) as Record<string, unknown>;
    for (const p of props) {
      const value = row[p.fieldNames[0]!];
      entity[p.name] = value === null || value === undefined ? null : convert(p, value);
    }
    return entity as T;
  };
  ofClass.set(key, build);
  return build;
}
