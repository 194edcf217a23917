/**
 * A module's resolvers, each with how it is built from the services it needs: `S` names the part
 * of the process's services the module uses, so the schema assembly, which holds them all, lists
 * each module once (src/graphql/schema.ts) and never a resolver.
 */
export type ResolverRegistration<S> = readonly [
  resolver: abstract new (...args: never[]) => object,
  build: (services: S) => object,
];
