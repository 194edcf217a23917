import type { Viewer } from '../../core/viewer';
import { isListedSnapshotVisible, type ListedSnapshot } from '../rule-forms';
import { isDeletedShiftVisible } from '../shifts';
import { mayReadStaff } from '../staff';

/** The GraphQL types whose deletions leave a tombstone (the sync migration's triggers). */
export type TombstonedType = 'Staff' | 'Company' | 'Project' | 'Activity' | 'Shift';

/** A tombstone as the sync migration writes it. */
export interface Tombstone {
  readonly id: number;
  readonly typename: TombstonedType;
  readonly uuid: string;
  readonly legacyId: number;
  readonly deletedAt: Date;
  /** A shift's user; a staff member's own id. */
  readonly userId: number | null;
  /** The company (of a company) or project (of a project, activity or shift) as it was. */
  readonly listed: ListedSnapshot | null;
}

/**
 * Whether the caller may learn of a deletion: exactly when they could have seen the object as it
 * was deleted, by each type's own rule (written once, in its module's policy), applied to what the
 * tombstone kept, since the rows the live rules read are gone.
 */
export function isTombstoneVisible(viewer: Viewer, tombstone: Tombstone): Promise<boolean> {
  const listed = tombstone.listed;
  const listedVisible = () =>
    listed ? isListedSnapshotVisible(viewer, listed) : Promise.resolve(false);
  switch (tombstone.typename) {
    case 'Staff':
      return Promise.resolve(mayReadStaff(viewer, { id: tombstone.legacyId }));
    case 'Shift':
      return isDeletedShiftVisible(viewer, { userId: tombstone.userId ?? 0 }, listedVisible);
    // Companies and projects by the rule of listed rows; activities exactly where their project.
    case 'Company':
    case 'Project':
    case 'Activity':
      return listedVisible();
  }
}
