/**
 * The people of an account: staff members, their passwords, roles and limits, the account's
 * opening with its owner, the CUSTOM member lists companies and projects share, the viewer, and
 * the e-mail that asks an owner to confirm a paid activation. Imports accounts and outbox. Other
 * modules and the layers above use nothing of it but what this file exports.
 */
import type { ModuleDefinition } from '../../core/module-definition';
import { LoginsMigration } from './migrations/20261217000000-logins.migration';
import { Staff } from './staff.entity';
export { createAccount, type AccountOpeningListener } from './account-opening';
export { announceCredentialChange, CREDENTIALS_CHANNEL } from './credential-notices';
export { AssignableStaffType, type NewStaff, type StaffChanges } from './staff.changes';
export { replaceMembers, resolveMemberIds } from './member-lists';
export { createPasswordHasher, type PasswordHasher } from './passwords';
export { findSignInUser, type SignInUser } from './sign-in-user';
export { Staff } from './staff.entity';
export {
  assertMayCreateStaff,
  assertMayDeleteStaff,
  assertMayReadStaff,
  assertMayUpdateStaff,
  managesStaff,
  mayCreateStaff,
  mayDeleteStaff,
  mayReadStaff,
  mayUpdateStaff,
} from './staff.policy';
export { accountOwner } from './staff.loaders';
export { StaffService } from './staff.service';
export type { UserKey } from './logins';

/** What the module adds to the process (entities); src/modules/index.ts lists it. */
export const STAFF_MODULE = {
  name: 'staff',
  entities: [Staff],
  migrations: [{ name: '20261217000000-logins', class: LoginsMigration }],
} as const satisfies ModuleDefinition;
