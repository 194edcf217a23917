/**
 * Reading lists: a list's filter and order compiled to SQL over the declared fields, keyset
 * pages, nested pages of many parents in one statement, what a list reads ahead for its fields,
 * and the batched reads they rest on (rows by id, unmanaged rows). Imports core, ids and common.
 * Other modules and the layers above use nothing of it but what this file exports; the GraphQL
 * side (connections, selections) is graphql/index.ts.
 */
import type { ModuleDefinition } from '../../core/module-definition';
export { loadById, primeById } from './entity-loaders';
export {
  childPage,
  type ChildList,
  compileFilter,
  declaredWhere,
  findPage,
  listWindow,
  type ListSource,
  type PageWindow,
  pageOfSortedList,
  type FilterFields,
  type PageRequest,
} from './list-query';
export { encodeCursor } from './keyset-cursors';
export { readAhead, ReadsAhead, type ReadAhead } from './read-ahead';
export { findRows, intArray } from './unmanaged-rows';
export { applyTenantFilters } from './tenant-filters';

/** The module's place in the order of src/modules/index.ts; it adds no entities or migrations. */
export const PAGING_MODULE = {
  name: 'paging',
} as const satisfies ModuleDefinition;
