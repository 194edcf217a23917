/** The role of a user (registered as the GraphQL enum `StaffType` in modules/common/enums.ts). */
export enum StaffType {
  OWNER = 'owner',
  MANAGER = 'manager',
  STAFF = 'staff',
}

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

/** The columns of `users` a viewer is made of, as the OAuth token queries select them. */
export const VIEWER_COLUMNS =
  'u.id as user_id, u.uuid as user_uuid, u.login, u.type, u.active, u.account_id';

export interface ViewerRow {
  user_id: number;
  user_uuid: string;
  login: string;
  type: StaffType;
  active: boolean;
  account_id: number;
}

export function viewerFromRow(row: ViewerRow): Viewer {
  return {
    id: row.user_id,
    uuid: row.user_uuid,
    login: row.login,
    type: row.type,
    accountId: row.account_id,
  };
}
