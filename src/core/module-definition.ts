import type { EntityClass, MigrationObject } from '@mikro-orm/core';

/**
 * What a module contributes to the process, named once in its index.ts: its entities (which the
 * ORM registers) and its migrations (which the migrator runs, every module's in the order of
 * their names). src/modules/index.ts lists the modules in order, and the ORM (db/entities.ts),
 * the migrator (db/migrations/index.ts) and the schema assembly (graphql/schema.ts) read that
 * list; a module's resolvers are named in its graphql/index.ts (`ResolverRegistration`).
 */
export interface ModuleDefinition<Name extends string = string> {
  /** The module's folder under src/modules. */
  readonly name: Name;
  readonly entities?: readonly EntityClass<object>[];
  /**
   * Named as they are stored in `mikro_orm_migrations` (`<timestamp>-<what>`), so a database
   * migrated before a migration moved between folders still finds it applied.
   */
  readonly migrations?: readonly MigrationObject[];
}

/**
 * A module's resolvers, each with how it is built from the services it needs: `S` names the part
 * of the process's services the module uses, so the schema assembly, which holds them all, names
 * each module's list once (src/graphql/schema.ts) and never a resolver.
 */
export type ResolverRegistration<S> = readonly [
  resolver: abstract new (...args: never[]) => object,
  build: (services: S) => object,
];
