export { createAccount } from './account-opening';
export { AssignableStaffType } from './graphql/staff.inputs';
export { StaffResolver } from './graphql/staff.resolver';
export { AccountResolver, ViewerResolver } from './graphql/viewer.resolver';
export { replaceMembers, resolveMemberIds } from './member-lists';
export { createPasswordHasher, type PasswordHasher } from './passwords';
export { Staff } from './staff.entity';
export { accountOwner } from './staff.loaders';
export { StaffService } from './staff.service';
