/**
 * Global object identification (Relay): `node(id:)` and `nodes(ids:)` find any object by id,
 * through the lookup and the policy of its own type. On top of every module whose objects it finds.
 * Other modules and the layers above use nothing of it but what this file exports.
 */
import type { ModuleDefinition } from '../../core/module-definition';
export { NodeLookup, type NodeServices } from './node-lookups';

/** The module's place in the order of src/modules/index.ts; it adds no entities or migrations. */
export const NODES_MODULE = {
  name: 'nodes',
} as const satisfies ModuleDefinition;
