import { type Primary, wrap } from '@mikro-orm/core';
import { findRows } from './unmanaged-rows';
import type { RequestContext } from '../../core/request-context';
import type { MaybePromise } from '../../core/loaders';

/**
 * Rows by integer id, batched per request and per entity class (references of nested reads).
 *
 * A row this request has read already answers at once, without a query or a promise: from the
 * identity map (a project a mutation just changed) or from an earlier batch. So a list of a
 * thousand shifts costs one query per related entity class, and the statements of a request do
 * not depend on how resolvers interleave. Batches read unmanaged rows (findRows): these are for
 * rendering only.
 */
export function loadById<T extends { id: number }>(
  ctx: RequestContext,
  entityClass: new () => T,
  id: number,
): MaybePromise<T | null> {
  // MikroORM's Primary<T> is a conditional type that stays unresolved for a generic T, so no
  // number is assignable to it; for every T here (`{ id: number }`) it is the number.
  const managed = ctx.em.getUnitOfWork().getById<T>(entityClass.name, id as Primary<T>);
  if (managed && wrap(managed).isInitialized()) return managed;
  return ctx.loaders.load(`byId:${entityClass.name}`, id, byIdBatch(ctx, entityClass));
}

/**
 * Reads the rows of many ids in one batch ahead of rendering, so that the field resolvers that
 * follow (a thousand shifts' projects) all answer synchronously.
 */
export function primeById<T extends { id: number }>(
  ctx: RequestContext,
  entityClass: new () => T,
  ids: Iterable<number>,
): Promise<void> {
  return ctx.loaders.prime(`byId:${entityClass.name}`, ids, byIdBatch(ctx, entityClass));
}

/** Records rows a list has read, so references to them (a project's activities render their project) answer at once. */
export function rememberRows<T extends { id: number }>(
  ctx: RequestContext,
  entityClass: new () => T,
  rows: readonly T[],
): void {
  ctx.loaders.seed(
    `byId:${entityClass.name}`,
    rows.map((row) => [row.id, row] as const),
  );
}

function byIdBatch<T extends { id: number }>(ctx: RequestContext, entityClass: new () => T) {
  return async (ids: readonly number[]): Promise<(T | null)[]> => {
    const rows = await findRows(ctx.em, entityClass, {}, { anyOf: { property: 'id', ids } });
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.map((key) => byId.get(key) ?? null);
  };
}
