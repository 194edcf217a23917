import { isManagerOrOwner, type Viewer } from '../../core/viewer';
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
