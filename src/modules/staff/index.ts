/**
 * The people of an account: staff members, their passwords, roles and limits, the account's
 * opening with its owner, the CUSTOM member lists companies and projects share, the viewer, and
 * the e-mail that asks an owner to confirm a paid activation. Imports accounts and outbox. Other
 * modules and the layers above use nothing of it but what this file exports.
 */
export { createAccount } from './account-opening';
export { AssignableStaffType } from './graphql/staff.inputs';
export { DeleteStaffPayload } from './graphql/staff.payloads';
export { StaffResolver } from './graphql/staff.resolver';
export { AccountResolver, ViewerResolver } from './graphql/viewer.resolver';
export { replaceMembers, resolveMemberIds } from './member-lists';
export { createPasswordHasher, type PasswordHasher } from './passwords';
export { findSignInUser, type SignInUser } from './sign-in-user';
export { Staff } from './staff.entity';
export { mayReadStaff } from './staff.policy';
export { accountOwner } from './staff.loaders';
export { StaffService } from './staff.service';
