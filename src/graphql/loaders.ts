import DataLoader from 'dataloader';

/**
 * The request's DataLoaders, created on first use and keyed by name (names carry any arguments,
 * so children read with different filters batch separately). They live as long as the request, so
 * nothing is cached across users.
 */
export class Loaders {
  private readonly byName = new Map<string, DataLoader<unknown, unknown>>();

  get<K, V>(name: string, batch: (keys: readonly K[]) => Promise<(V | Error)[]>): DataLoader<K, V> {
    let loader = this.byName.get(name) as DataLoader<K, V> | undefined;
    if (!loader) {
      loader = new DataLoader<K, V>(batch, { maxBatchSize: 1000 });
      this.byName.set(name, loader as DataLoader<unknown, unknown>);
    }
    return loader;
  }

  /** Children of many parents in one query (`find` gets every requested parent id), by parent. */
  children<T>(name: string, parentId: number, find: (parentIds: readonly number[]) => Promise<T[]>, parentOf: (row: T) => number): Promise<T[]> {
    return this.get<number, T[]>(name, async (ids) => Loaders.groupBy(ids, await find(ids), parentOf)).load(parentId);
  }

  /** Groups rows by a key and answers every requested key, empty where nothing matched. */
  static groupBy<K, V>(keys: readonly K[], rows: V[], keyOf: (row: V) => K): V[][] {
    const groups = new Map<K, V[]>();
    for (const row of rows) {
      const key = keyOf(row);
      const list = groups.get(key);
      if (list) list.push(row);
      else groups.set(key, [row]);
    }
    return keys.map((key) => groups.get(key) ?? []);
  }
}
