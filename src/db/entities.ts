import { Account, TenantEntity } from '../modules/accounts';
import { MODULES, type ModuleDefinition } from '../modules';

const modules: readonly ModuleDefinition[] = MODULES;

/** Every module's entities, in the order of the modules (each module names its own). */
export const ENTITIES = modules.flatMap((module) => module.entities ?? []);

/** The entities whose rows belong to one account: the `tenant` filter covers them. */
export const TENANT_ENTITY_NAMES = ENTITIES.filter((e) => e !== TenantEntity && e !== Account).map(
  (e) => e.name,
);
