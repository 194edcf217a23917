/**
 * The tenant: the account, the columns every tenant row carries (TenantEntity), the owner's
 * settings and the plan's time limit. Imports core and common. Other modules and the layers above
 * use nothing of it but what this file exports.
 */
export { Account } from './account.entity';
export { updateAccount } from './account.service';
export { assertMayChangeAccount, mayChangeAccount } from './account.policy';
export { MONEY_RULE, mayReadCosts, mayReadMoney } from './money-visibility';
export { assertTimeRoom } from './plan-limits';
export { TenantEntity } from './tenant.entity';
