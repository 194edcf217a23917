import { isManagerOrOwner, type Viewer } from '../../core/viewer';

/**
 * Who reads money: rates, costs and the amounts that follow from them. The owner's and the
 * managers' (they set rates, docs/permissions.md); for a staff member every money field answers
 * null, and a report no amount, which would give a rate away (amount × 3600 / billable seconds).
 * The one rule every module's money fields go by.
 */
export function mayReadMoney(viewer: Viewer): boolean {
  return isManagerOrOwner(viewer);
}
