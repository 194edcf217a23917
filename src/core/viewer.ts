/** The role of a user (the GraphQL enum `StaffType`, registered in modules/common/graphql/enums.ts). */
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
  /** The account's setting: whether its staff members see rates and amounts (accounts' mayReadMoney). */
  readonly staffSeeMoney: boolean;
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
  'u.id as user_id, u.uuid as user_uuid, u.login, u.type, u.active, u.account_id, (select a.staff_see_money from accounts a where a.id = u.account_id) as staff_see_money';

export interface ViewerRow {
  user_id: number;
  user_uuid: string;
  login: string;
  type: StaffType;
  active: boolean;
  account_id: number;
  staff_see_money: boolean;
}

export function viewerFromRow(row: ViewerRow): Viewer {
  return {
    id: row.user_id,
    uuid: row.user_uuid,
    login: row.login,
    type: row.type,
    accountId: row.account_id,
    staffSeeMoney: row.staff_see_money,
  };
}
