import { PermissionDeniedError } from '../../core/errors';
import { isManagerOrOwner, type Viewer } from '../../core/viewer';

/**
 * Who creates, changes and deletes activities: the owner and the managers, on the projects they
 * see. Who sees an activity is its project's rule (projects' projectVisibilityWhere), so this
 * module keeps only the write rule.
 */
export function mayWriteActivities(viewer: Viewer): boolean {
  return isManagerOrOwner(viewer);
}

export function assertMayWriteActivity(viewer: Viewer, act: 'create' | 'update' | 'delete'): void {
  if (!mayWriteActivities(viewer)) throw new PermissionDeniedError(act, 'Activity');
}
