/**
 * What the staff service takes to make or change a user, as plain types: every interface (the
 * GraphQL inputs implement them, the CLI's demo seed builds them) hands the service the same shape.
 */

/** The roles that may be given; the owner is made with the account. */
export enum AssignableStaffType {
  MANAGER = 'manager',
  STAFF = 'staff',
}

/** A change to a user: omitted fields keep their value. */
export interface StaffChanges {
  login?: string;
  password?: string;
  firstName?: string;
  lastName?: string;
  emailAddress?: string;
  timeZone?: string;
  type?: AssignableStaffType;
  active?: boolean;
  hourlyRateCents?: number | null;
  costRateCents?: number | null;
}

/** A new user: a login and a password; `id` is a uuid of the caller's choice. */
export interface NewStaff extends StaffChanges {
  id?: string | null;
  login: string;
  password: string;
}
