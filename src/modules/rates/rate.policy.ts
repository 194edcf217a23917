import { PermissionDeniedError } from '../../core/errors';
import { isManagerOrOwner, type Viewer } from '../../core/viewer';
import { managesStaff, mayReadStaff, type Staff } from '../staff';

/**
 * Whose rate history a caller reads (money aside: accounts' mayReadMoney and mayReadCosts): a
 * user's is part of their record, so exactly where the record may be read (staff's mayReadStaff).
 * Other people's rates are the owner's and the managers' whatever the account's setting.
 */
export function mayReadRatesOf(viewer: Viewer, userId: number): boolean {
  return mayReadStaff(viewer, { id: userId });
}

/** Who writes rate histories at all: the owner and the managers, who set rates. */
export function maySetRates(viewer: Viewer): boolean {
  return isManagerOrOwner(viewer);
}

/** Refuses a write of a rate (setting one: `update`; removing one: `delete`) `maySetRates` denies. */
export function assertMaySetRates(viewer: Viewer, act: 'update' | 'delete'): void {
  if (!maySetRates(viewer)) throw new PermissionDeniedError(act, 'Rate');
}

/**
 * Whose rates a caller sets: as for the user's other fields (staff's managesStaff), managers are
 * the owner's to manage, and so is the owner. A project's rates are set by whoever may set rates
 * and see the project.
 */
export function maySetRateOf(viewer: Viewer, user: Pick<Staff, 'id' | 'type'>): boolean {
  return maySetRates(viewer) && managesStaff(viewer, user);
}

export function assertMaySetRateOf(viewer: Viewer, user: Pick<Staff, 'id' | 'type'>): void {
  assertMaySetRates(viewer, 'update');
  if (!maySetRateOf(viewer, user))
    throw new PermissionDeniedError(
      'update',
      'Rate',
      'Update denied: only the owner sets the rates of managers and the owner',
    );
}
