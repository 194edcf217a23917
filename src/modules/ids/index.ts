/**
 * Ids: what a uuid and a row id look like, and the stored types addressed by `id` (the `Node`
 * interface) with the tables that hold them, so one statement finds the type of any id.
 * Imports core only. Other modules and the layers above use nothing of it but what this file
 * exports.
 */
import type { ModuleDefinition } from '../../core/module-definition';
export { isRowId, isUuid } from './identifiers';
export { NODE_TABLES, nodeTypesOf, type NodeTypeName } from './node-ids';

/** The module's place in the order of src/modules/index.ts; it adds no entities or migrations. */
export const IDS_MODULE = {
  name: 'ids',
} as const satisfies ModuleDefinition;
