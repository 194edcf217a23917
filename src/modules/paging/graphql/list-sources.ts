import type { OrderSpec } from '../../../core/list-shapes';
import type { RequestContext } from '../../../core/request-context';
import type { ListSource } from '../list-query';

/**
 * A list field as reads compiled to SQL read it: its arguments (as graphql-js coerced them) to the
 * rows it lists, by the same function its resolver pages. The compiler pages and renders those
 * rows in SQL; the resolver stays for everything that does not compile. A nested list (a
 * company's `projects`) names the reference of its rows to the parent row (`company`).
 */
export type CompiledList = (
  ctx: RequestContext,
  args: ListArgs,
) => Promise<ListSource<object> & { readonly parent?: string }>;

/**
 * A module's compiled lists, each by the field it answers (`Query.shifts`, `Company.projects`) and
 * how it is made from the services (as `ResolverRegistration`).
 */
export type ListRegistration<S> = readonly [
  field: `${string}.${string}`,
  build: (services: S) => CompiledList,
];

/** A list's argument values: its filter and order, and the ids of a parent it may be scoped to. */
export interface ListArgs {
  readonly filter?: object;
  readonly order?: OrderSpec[];
  readonly [parent: string]: unknown;
}

/**
 * A lookup (`Query.shift`) as reads compiled to SQL read it: the list its type's policy gives
 * (`Query.shifts`, scoped by the same parent arguments) narrowed to the one row its `id` or
 * `legacyId` names (`located`: the lookup's own where, which refuses a locator it would refuse).
 * No row, and the executor answers (its NOT_FOUND, or its refusal).
 */
export function lookupOf(
  list: CompiledList,
  located: (locator: { id?: string | null; legacyId?: number | null }) => object,
): CompiledList {
  return async (ctx, args) => {
    const source = await list(ctx, args);
    const locator = { id: args.id as string | null, legacyId: args.legacyId as number | null };
    return { ...source, where: { $and: [source.where, located(locator)] } };
  };
}
