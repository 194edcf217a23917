import { isManagerOrOwner, isOwner, StaffType, type Viewer } from '../../core/viewer';
import { PermissionDeniedError } from '../../core/errors';
import type { Staff } from './staff.entity';
import { mayReadStaff } from './staff-read.policy';

/**
 * Which staff records a caller may read. Owners and managers: the whole account. A staff member:
 * their own record only, in a list as well as by id, so a list never shows what a read would refuse.
 * Colleagues' logins are the user names of Basic auth, and their e-mail addresses and rates are
 * personal; a staff member sees only their own time, so nothing they do needs colleagues' records.
 */
export function readableStaffWhere(viewer: Viewer): { id?: number } {
  return isManagerOrOwner(viewer) ? {} : { id: viewer.id };
}

export { mayReadStaff } from './staff-read.policy';

/** The refusal of a read `mayReadStaff` denies (a lookup's error, or one entry's of `nodes`). */
export function staffReadDenial(
  viewer: Viewer,
  staff: Pick<Staff, 'id'>,
): PermissionDeniedError | null {
  return mayReadStaff(viewer, staff) ? null : new PermissionDeniedError('read', 'Staff');
}

export function assertMayReadStaff(viewer: Viewer, staff: Pick<Staff, 'id'>): void {
  const denial = staffReadDenial(viewer, staff);
  if (denial) throw denial;
}

/**
 * Whose records a caller manages (their fields, their rates): the owner everyone's; a manager
 * staff members' and their own, since managers and the owner are the owner's to manage; a staff
 * member nobody's (they edit parts of their own profile: `mayUpdateStaff`).
 */
export function managesStaff(viewer: Viewer, staff: Pick<Staff, 'id' | 'type'>): boolean {
  if (isOwner(viewer)) return true;
  return isManagerOrOwner(viewer) && (staff.type === StaffType.STAFF || staff.id === viewer.id);
}

/** Who may create a user of `type`: the owner anyone; a manager staff members. */
export function mayCreateStaff(viewer: Viewer, type: StaffType = StaffType.STAFF): boolean {
  return isOwner(viewer) || (isManagerOrOwner(viewer) && type === StaffType.STAFF);
}

/**
 * Refuses a creation `mayCreateStaff` denies. The service asks twice: by role alone before it
 * reads the input (a staff member learns nothing of its validity), with the role asked for after.
 */
export function assertMayCreateStaff(viewer: Viewer, type?: StaffType): void {
  if (!isManagerOrOwner(viewer)) throw new PermissionDeniedError('create', 'Staff');
  if (!mayCreateStaff(viewer, type))
    throw new PermissionDeniedError(
      'create',
      'Staff',
      'Create denied: only the owner may create managers',
    );
}

/**
 * The refusal of a deletion, or null: the owner and managers delete the users they manage, but
 * never the account's owner (the account would have none) or themselves.
 */
function staffDeletionDenial(
  viewer: Viewer,
  staff: Pick<Staff, 'id' | 'type'>,
): PermissionDeniedError | null {
  if (!isManagerOrOwner(viewer)) return new PermissionDeniedError('delete', 'Staff');
  if (staff.type === StaffType.OWNER)
    return new PermissionDeniedError(
      'delete',
      'Staff',
      'Delete denied: the account owner cannot be deleted',
    );
  if (staff.id === viewer.id)
    return new PermissionDeniedError(
      'delete',
      'Staff',
      'Delete denied: you cannot delete yourself',
    );
  if (!managesStaff(viewer, staff))
    return new PermissionDeniedError(
      'delete',
      'Staff',
      'Delete denied: only the owner may delete managers',
    );
  return null;
}

export function mayDeleteStaff(viewer: Viewer, staff: Pick<Staff, 'id' | 'type'>): boolean {
  return staffDeletionDenial(viewer, staff) === null;
}

export function assertMayDeleteStaff(viewer: Viewer, staff: Pick<Staff, 'id' | 'type'>): void {
  const denial = staffDeletionDenial(viewer, staff);
  if (denial) throw denial;
}

/** What a staff member may change on their own record. */
const SELF_EDITABLE: ReadonlySet<string> = new Set([
  'firstName',
  'lastName',
  'emailAddress',
  'timeZone',
  'password',
]);

/**
 * The refusal of an update of `staff` with `changes` (the record's fields by name; `password`
 * counts whenever given), or null. Only real changes count: legacy clients PUT back the whole
 * record they read. A staff member edits the profile fields of their own record; the owner and
 * managers the records they manage (`managesStaff`), and only the owner makes managers. The owner
 * stays an active owner, and nobody disables themselves.
 */
function staffUpdateDenial(
  viewer: Viewer,
  staff: Pick<Staff, 'id' | 'type'>,
  changes: Readonly<Record<string, unknown>>,
): PermissionDeniedError | null {
  const changed = Object.keys(changes).filter(
    (k) => changes[k] !== undefined && (k === 'password' || changes[k] !== Reflect.get(staff, k)),
  );
  if (!isManagerOrOwner(viewer)) {
    if (staff.id !== viewer.id || changed.some((k) => !SELF_EDITABLE.has(k)))
      return new PermissionDeniedError('update', 'Staff');
    return null;
  }
  if (!isOwner(viewer)) {
    const promotes = changed.includes('type') && changes.type === StaffType.MANAGER;
    if (
      !managesStaff(viewer, staff) ||
      promotes ||
      (staff.id === viewer.id && changed.includes('type'))
    )
      return new PermissionDeniedError(
        'update',
        'Staff',
        'Update denied: only the owner may manage managers',
      );
  }
  if (staff.type === StaffType.OWNER && (changed.includes('type') || changes.active === false))
    return new PermissionDeniedError(
      'update',
      'Staff',
      'Update denied: the owner stays an active owner',
    );
  if (staff.id === viewer.id && changes.active === false)
    return new PermissionDeniedError(
      'update',
      'Staff',
      'Update denied: you cannot disable yourself',
    );
  return null;
}

export function mayUpdateStaff(
  viewer: Viewer,
  staff: Pick<Staff, 'id' | 'type'>,
  changes: Readonly<Record<string, unknown>>,
): boolean {
  return staffUpdateDenial(viewer, staff, changes) === null;
}

export function assertMayUpdateStaff(
  viewer: Viewer,
  staff: Pick<Staff, 'id' | 'type'>,
  changes: Readonly<Record<string, unknown>>,
): void {
  const denial = staffUpdateDenial(viewer, staff, changes);
  if (denial) throw denial;
}
