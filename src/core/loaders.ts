import DataLoader from 'dataloader';

/** A value now, or later: field resolvers answer synchronously when they can. */
export type MaybePromise<T> = T | Promise<T>;

/** Applies `next` to a value that may not have arrived yet, without a promise when it has. */
export function then<T, R>(
  value: MaybePromise<T>,
  next: (value: T) => MaybePromise<R>,
): MaybePromise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}

type Batch<K, V> = (keys: readonly K[]) => Promise<(V | Error)[]>;

/**
 * The request's DataLoaders, created on first use and keyed by name (names carry any arguments,
 * so children read with different filters batch separately). They live as long as the request, so
 * nothing is cached across users.
 *
 * A value a batch has answered is also kept by name and key, and `load` returns it at once: on a
 * list of hundreds of objects, the fields read after the first batch (or after a list primed them)
 * then cost no promise, which is most of graphql-js's work on such lists.
 */
export class Loaders {
  private readonly byName = new Map<string, DataLoader<unknown, unknown>>();
  private readonly answered = new Map<string, Map<unknown, unknown>>();

  load<K, V>(name: string, key: K, batch: Batch<K, V>): MaybePromise<V> {
    const known = this.answered.get(name);
    if (known?.has(key)) return known.get(key) as V;
    return this.loader(name, batch).load(key);
  }

  /** Loads many keys in one batch (where not answered yet), so later `load`s are synchronous. */
  async prime<K, V>(name: string, keys: Iterable<K>, batch: Batch<K, V>): Promise<void> {
    const answered = this.answeredBy(name);
    const missing = [...new Set(keys)].filter((key) => !answered.has(key));
    if (missing.length === 0) return;
    // The batch itself, not the DataLoader: one query either way, without a promise per key.
    record(answered, missing, await batch(missing));
  }

  /** Records values read elsewhere (the rows of a list), so `load`s of their keys answer at once. */
  seed<K, V>(name: string, entries: Iterable<readonly [K, V]>): void {
    const answered = this.answeredBy(name);
    for (const [key, value] of entries) if (!answered.has(key)) answered.set(key, value);
  }

  /** Children of many parents in one query (`find` gets every requested parent id), by parent. */
  children<T>(
    name: string,
    parentId: number,
    find: (parentIds: readonly number[]) => Promise<T[]>,
    parentOf: (row: T) => number,
  ): MaybePromise<T[]> {
    return this.load(name, parentId, byParent(find, parentOf));
  }

  /** Reads the children of many parents in one query ahead of rendering. */
  primeChildren<T>(
    name: string,
    parentIds: Iterable<number>,
    find: (parentIds: readonly number[]) => Promise<T[]>,
    parentOf: (row: T) => number,
  ): Promise<void> {
    return this.prime(name, parentIds, byParent(find, parentOf));
  }

  /**
   * Forgets every value and every DataLoader: what the request read before a change it made itself
   * (a mutation field) must not answer for the fields after it.
   */
  clear(): void {
    this.byName.clear();
    this.answered.clear();
  }

  private answeredBy(name: string): Map<unknown, unknown> {
    let answered = this.answered.get(name);
    if (!answered) this.answered.set(name, (answered = new Map()));
    return answered;
  }

  private loader<K, V>(name: string, batch: Batch<K, V>): DataLoader<K, V> {
    let loader = this.byName.get(name) as DataLoader<K, V> | undefined;
    if (!loader) {
      const answered = this.answeredBy(name);
      loader = new DataLoader<K, V>(async (keys) => record(answered, keys, await batch(keys)), {
        maxBatchSize: 1000,
      });
      this.byName.set(name, loader as DataLoader<unknown, unknown>);
    }
    return loader;
  }
}

function record<K, V>(
  answered: Map<unknown, unknown>,
  keys: readonly K[],
  values: (V | Error)[],
): (V | Error)[] {
  values.forEach((value, i) => {
    if (!(value instanceof Error)) answered.set(keys[i], value);
  });
  return values;
}

/** A batch of children by parent: every requested parent answered, empty where nothing matched. */
function byParent<T>(
  find: (parentIds: readonly number[]) => Promise<T[]>,
  parentOf: (row: T) => number,
): Batch<number, T[]> {
  return async (parentIds) => {
    const groups = new Map<number, T[]>();
    for (const row of await find(parentIds)) {
      const key = parentOf(row);
      const list = groups.get(key);
      if (list) list.push(row);
      else groups.set(key, [row]);
    }
    return parentIds.map((key) => groups.get(key) ?? []);
  };
}
