import { isManagerOrOwner, type Viewer } from '../../core/viewer';
import { mayReadCosts, mayReadMoney } from '../accounts';
import type { ReadRule } from '../common';

/**
 * Who reads a staff record and its personal fields: the part of the staff policy that the entity's
 * field declarations name (staff.entity.ts), apart from staff.policy.ts, whose rows are typed by
 * the entity, so that the two do not import each other.
 */
export function mayReadStaff(viewer: Viewer, staff: { readonly id: number }): boolean {
  return isManagerOrOwner(viewer) || staff.id === viewer.id;
}

/** `mayReadStaff` over a row whose integer id is the SQL expression `staff.id`. */
function mayReadStaffSql(viewer: Viewer, staff: { readonly id: string }): boolean | string {
  return isManagerOrOwner(viewer) || `${staff.id} = ${Number(viewer.id)}`;
}

/**
 * A personal field of a staff record (its login, the user name of Basic auth, and its e-mail
 * address): wherever the record is reached (the root fields, the account's owner, the CUSTOM member
 * lists of companies and projects, a shift's user) it answers exactly where the record itself may
 * be read, and null for anyone else. The record itself stays, with its ids, name, type and state:
 * the legacy interfaces list the owner and the members by uuid. A list of staff is the readable
 * records only (readableStaffWhere), so filtering by these finds nothing hidden.
 */
export const PERSONAL_RULE: ReadRule<{ readonly id: number }> = {
  name: 'personal',
  refusal: 'only whoever may read the record',
  query: () => true,
  row: mayReadStaff,
  sql: mayReadStaffSql,
};

/** A user's own rate: personal, and money (the account's money rule) besides. */
export const STAFF_RATE_RULE: ReadRule<{ readonly id: number }> = {
  name: 'money',
  refusal: 'only the owner and managers',
  query: mayReadMoney,
  row: (viewer, staff) => mayReadMoney(viewer) && mayReadStaff(viewer, staff),
  sql: (viewer, staff) => mayReadMoney(viewer) && mayReadStaffSql(viewer, staff),
};

/** What a user's work costs the account: the owner's and the managers' only, never the user's. */
export const COSTS_RULE: ReadRule = {
  name: 'costs',
  refusal: 'only the owner and managers',
  query: mayReadCosts,
  row: mayReadCosts,
  sql: mayReadCosts,
};
