import { wrap } from '@mikro-orm/core';
import type { RequestContext } from './context';

/**
 * Rows by integer id, batched per request and per entity class (references of nested reads). A row
 * this request has loaded already (a project of the list being rendered) comes from the identity
 * map without a query, so the statements of a request do not depend on how resolvers interleave.
 */
export function loadById<T extends { id: number }>(ctx: RequestContext, entityClass: new () => T, id: number): Promise<T | null> {
  const known = ctx.em.getUnitOfWork().getById<T>(entityClass.name, id as never);
  if (known && wrap(known).isInitialized()) return Promise.resolve(known);
  return ctx.loaders
    .get<number, T | null>(`byId:${entityClass.name}`, async (ids) => {
      const rows = await ctx.em.find(entityClass, { id: { $in: [...ids] } } as never);
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.map((key) => byId.get(key) ?? null);
    })
    .load(id);
}
