import { isManagerOrOwner, type Viewer } from '../../core/viewer';
import { assertMoneyQueryReadable } from '../accounts';
import type { Staff } from './staff.entity';

/**
 * Which staff records a caller may read. Owners and managers: the whole account. A staff member:
 * their own record only, in a list as well as by id, so a list never shows what a read would refuse.
 * Colleagues' logins are the user names of Basic auth, and their e-mail addresses and rates are
 * personal; a staff member sees only their own time, so nothing they do needs colleagues' records.
 */
export function readableStaffWhere(viewer: Viewer): { id?: number } {
  return isManagerOrOwner(viewer) ? {} : { id: viewer.id };
}

export function mayReadStaff(viewer: Viewer, staff: Pick<Staff, 'id'>): boolean {
  return isManagerOrOwner(viewer) || staff.id === viewer.id;
}

/** The fields of a staff record that are the person's own business. */
export type PersonalStaffField = 'login' | 'emailAddress' | 'hourlyRateCents';

/**
 * A personal field of a staff record: its login (the user name of Basic auth), e-mail address or
 * hourly rate. Wherever the record is reached (the root fields, the account's owner, the CUSTOM
 * member lists of companies and projects, a shift's user) these answer exactly where the record
 * itself may be read (mayReadStaff): for the owner and managers, and for the person themself;
 * anyone else reads null. The record itself stays, with its ids, name, type and state: the legacy
 * interfaces list the owner and the members by uuid (`user_uuids` lists at least the owner).
 */
export function personalField<K extends PersonalStaffField>(
  viewer: Viewer,
  staff: Pick<Staff, 'id' | K>,
  field: K,
): Staff[K] | null {
  return mayReadStaff(viewer, staff) ? staff[field] : null;
}

/** The money fields of a staff record, as named by the filter and the order enum. */
const STAFF_MONEY_FIELDS: ReadonlySet<string> = new Set(['hourlyRateCents']);

/** The money rule (accounts/money-visibility.ts) for a query of staff. */
export function assertStaffQueryReadable(
  viewer: Viewer,
  filter: object | undefined | null,
  order: readonly { field: string }[] | undefined | null,
): void {
  assertMoneyQueryReadable(viewer, 'Staff', STAFF_MONEY_FIELDS, filter, order);
}
