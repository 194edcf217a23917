import type { OrderSpec } from '../../../core/list-shapes';
import type { RequestContext } from '../../../core/request-context';
import type { ListSource } from '../list-query';

/**
 * A root list field as reads compiled to SQL read it: its arguments (as graphql-js coerced them)
 * to the rows it lists, by the same service method its resolver pages. The compiler pages and
 * renders those rows in SQL; the resolver stays for everything that does not compile.
 */
export type CompiledList = (ctx: RequestContext, args: ListArgs) => Promise<ListSource<object>>;

/**
 * A module's compiled lists, each by the root field it answers (`Query.shifts`) and how it is made
 * from the services (as `ResolverRegistration`).
 */
export type ListRegistration<S> = readonly [
  field: `Query.${string}`,
  build: (services: S) => CompiledList,
];

/** A list's argument values: its filter and order, and the ids of a parent it may be scoped to. */
export interface ListArgs {
  readonly filter?: object;
  readonly order?: OrderSpec[];
  readonly [parent: string]: unknown;
}
