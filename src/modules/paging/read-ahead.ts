import type { RequestContext } from '../../core/request-context';

/**
 * Reads ahead, in one batch, what a field needs for a whole list of its parents (the totals of
 * four hundred projects, the users of a thousand shifts), so that the field then answers each
 * parent synchronously from the request's loaders.
 */
export type ReadAhead<T> = (ctx: RequestContext, rows: readonly T[]) => unknown;

const readsOf = new Map<object, Map<string, ReadAhead<never>[]>>();

/**
 * Declares at a field what a list of `type` reads ahead when the field is selected on its nodes.
 * The field's own declaration is the only list of what to read: a module that adds fields to
 * another module's type declares their reads with them. Fields that need the same read name the
 * same function, which then runs once.
 */
export function ReadsAhead<T>(
  type: abstract new () => T,
  ...reads: ReadAhead<T>[]
): MethodDecorator {
  return (_prototype, field) => {
    const fields = readsOf.get(type) ?? new Map<string, ReadAhead<never>[]>();
    fields.set(String(field), reads as ReadAhead<never>[]);
    readsOf.set(type, fields);
  };
}

/** Runs, once each, the reads the `selected` fields of `type` declared, for all of `rows`. */
export async function readAhead<T>(
  ctx: RequestContext,
  type: abstract new () => T,
  rows: readonly T[],
  selected: ReadonlySet<string>,
): Promise<void> {
  const fields = readsOf.get(type);
  if (!fields || rows.length === 0) return;
  const chosen = new Set<ReadAhead<T>>();
  for (const field of selected)
    for (const read of fields.get(field) ?? []) chosen.add(read as ReadAhead<T>);
  await Promise.all([...chosen].map((read) => read(ctx, rows)));
}
