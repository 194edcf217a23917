import type { EntityName } from '../../../core/errors';
import type { OrderSpec } from '../../../core/list-shapes';
import type { RequestContext } from '../../../core/request-context';
import { optionalLocator } from '../../common';
import { locatorWhere, type Locator } from '../../writes';
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

/** A service's `listSource`: the rows its list field pages, of one parent where one is named. */
type ServiceListSource = (
  ctx: RequestContext,
  filter: object | undefined,
  order: OrderSpec[] | undefined,
  parent?: Locator,
) => Promise<ListSource<object>>;

/**
 * A root list as its resolver pages it: by the service's `listSource`, scoped to the parent its
 * `<parent>Id` or `<parent>LegacyId` argument names (`projectId` for `Query.shifts`), if any.
 */
export function rootList(
  listSource: ServiceListSource,
  parent?: 'project' | 'company',
): CompiledList {
  return (ctx, args) =>
    listSource(
      ctx,
      args.filter,
      args.order,
      parent && optionalLocator(args[`${parent}Id`] as string, args[`${parent}LegacyId`] as number),
    );
}

/**
 * A lookup (`Query.shift`) as reads compiled to SQL read it: the list its type's policy gives
 * (`Query.shifts`, scoped by the same parent arguments) narrowed to the one row its `id` or
 * `legacyId` names, by the lookup's own where (which refuses a locator the lookup would refuse).
 * No row, and the executor answers (its NOT_FOUND, or its refusal).
 */
export function lookupOf(list: CompiledList, entity: EntityName): CompiledList {
  return async (ctx, args) => {
    const source = await list(ctx, args);
    const locator = { id: args.id as string | null, legacyId: args.legacyId as number | null };
    return { ...source, where: { $and: [source.where, locatorWhere(entity, locator)] } };
  };
}
