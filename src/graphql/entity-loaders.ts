import type { RequestContext } from './context';

/** Rows by integer id, batched per request and per entity class (references of nested reads). */
export function loadById<T extends { id: number }>(ctx: RequestContext, entityClass: new () => T, id: number): Promise<T | null> {
  return ctx.loaders
    .get<number, T | null>(`byId:${entityClass.name}`, async (ids) => {
      const rows = await ctx.em.find(entityClass, { id: { $in: [...ids] } } as never);
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.map((key) => byId.get(key) ?? null);
    })
    .load(id);
}
