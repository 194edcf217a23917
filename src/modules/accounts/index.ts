/**
 * The tenant: the account, the columns every tenant row carries (TenantEntity), the owner's
 * settings and the plan's time limit. Imports core, common and writes. Other modules and the layers
 * above use nothing of it but what this file exports.
 */
import type { ModuleDefinition } from '../../core/module-definition';
import { TenantEntity } from './tenant.entity';
import { Account } from './account.entity';
import { StaffMoneyMigration } from './migrations/20261203000000-staff-money.migration';
export { Account } from './account.entity';
export { updateAccount } from './account.service';
export { assertMayChangeAccount, mayChangeAccount } from './account.policy';
export { MONEY_RULE, mayReadCosts, mayReadMoney } from './money-visibility';
export { assertTimeRoom } from './plan-limits';
export { TenantEntity } from './tenant.entity';

/** What the module adds to the process (entities and migrations); src/modules/index.ts lists it. */
export const ACCOUNTS_MODULE = {
  name: 'accounts',
  entities: [TenantEntity, Account],
  migrations: [{ name: '20261203000000-staff-money', class: StaffMoneyMigration }],
} as const satisfies ModuleDefinition;
