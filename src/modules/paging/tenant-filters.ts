import type { EntityManager, QueryBuilder } from '@mikro-orm/postgresql';

/** What of a query builder's joins the ORM keeps private: each one's path from the root. */
interface QueryBuilderJoins {
  readonly _joins: Record<string, { readonly path?: string }>;
  readonly autoJoinedPaths: string[];
}

/**
 * The filters (the tenant filter: the caller's account) on a query builder's own rows and on each
 * table it joined, by its where (a filter through a reference, `{ company: { uuid } }`) or by its
 * order (`project.uuid`); a query builder applies none by itself, and `em.find` only those of the
 * where's joins. Each joined table then names the account in its join, which on Citus keeps the
 * statement on the one worker that holds it.
 *
 * `applyJoinedFilters` is what the ORM's own finds call for the where's joins; the order's joins
 * are added to its list here. Both are marked internal (the ORM's version is pinned).
 */
export async function applyTenantFilters<T extends object>(
  em: EntityManager,
  qb: QueryBuilder<T>,
): Promise<void> {
  await qb.applyFilters();
  const joins = qb as unknown as QueryBuilderJoins;
  const scheduled = new Set(joins.autoJoinedPaths);
  for (const { path } of Object.values(joins._joins))
    if (path && !scheduled.has(path)) qb.scheduleFilterCheck(path);
  await qb.applyJoinedFilters(em, {});
}
