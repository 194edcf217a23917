/**
 * Global object identification (Relay): `node(id:)` and `nodes(ids:)` find any object by id,
 * through the lookup and the policy of its own type. On top of every module whose objects it finds.
 * Other modules and the layers above use nothing of it but what this file exports.
 */
export { NodeLookup, type NodeServices } from './node-lookups';
