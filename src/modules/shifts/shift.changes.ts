/**
 * What the shift and punch services take to make or change a shift, as plain types: the GraphQL
 * inputs implement them, so the service serves every interface the same shape and imports nothing
 * of GraphQL.
 */

/** A change to a shift: omitted fields keep their value. */
export interface ShiftChanges {
  start?: Date;
  stop?: Date | null;
  localStartAsString?: string | null;
  localStopAsString?: string | null;
  timeZone?: string;
  notes?: string | null;
  billable?: boolean;
  tagList?: string[];
  externalHref?: string | null;
  activityId?: string | null;
  activityLegacyId?: number | null;
  projectId?: string;
  projectLegacyId?: number;
  userId?: string;
  userLegacyId?: number;
}

/** A new shift; `id` is a uuid of the caller's choice. */
export interface NewShift extends ShiftChanges {
  id?: string | null;
}

/** What the running shift starts with; the project and its company are named beside it. */
export interface PunchInFields {
  activityId?: string | null;
  activityLegacyId?: number | null;
  notes?: string | null;
  tagList?: string[] | null;
}
