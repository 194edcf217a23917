export { Account } from './account.entity';
export { updateAccount } from './account.service';
export { AccountInput } from './graphql/account.inputs';
export { assertTimeRoom } from './plan-limits';
export { TenantEntity } from './tenant.entity';
