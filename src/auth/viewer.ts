import { StaffType } from '../modules/common/enums';

/** The authenticated user a request acts as. */
export interface Viewer {
  readonly id: number;
  readonly uuid: string;
  readonly login: string;
  readonly type: StaffType;
  readonly accountId: number;
}

export function isOwner(viewer: Viewer): boolean {
  return viewer.type === StaffType.OWNER;
}

/** Owners and managers manage the account's staff, companies, projects and everyone's shifts. */
export function isManagerOrOwner(viewer: Viewer): boolean {
  return viewer.type === StaffType.OWNER || viewer.type === StaffType.MANAGER;
}
