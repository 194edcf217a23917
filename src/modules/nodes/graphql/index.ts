/**
 * The GraphQL side of nodes: `node(id:)` and `nodes(ids:)`. The schema assembly
 * (src/graphql/schema.ts) imports it, and so may another module's graphql/ folder that extends
 * these types; nothing else does.
 */
import { NodeResolver } from './node.resolver';
import type { ResolverRegistration } from '../../../core/module-definition';
import type { NodeServices } from '..';
import { NodeLookup } from '..';

/** Built once per schema: `node(id:)` looks up every type through its own service. */
export const NODE_RESOLVERS: readonly ResolverRegistration<NodeServices>[] = [
  [NodeResolver, (s) => new NodeResolver(new NodeLookup(s))],
];
