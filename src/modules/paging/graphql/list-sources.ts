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
