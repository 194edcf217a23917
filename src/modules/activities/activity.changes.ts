/**
 * What the activity service takes to make or change an activity, as plain types: the GraphQL inputs
 * implement them, so the service serves every interface the same shape and imports nothing of
 * GraphQL.
 */

/** A change to an activity: omitted fields keep their value. */
export interface ActivityChanges {
  name?: string;
}

/** A new activity of a project (by uuid or integer id); `id` is a uuid of the caller's choice. */
export interface NewActivity extends ActivityChanges {
  name: string;
  id?: string | null;
  projectId?: string;
  projectLegacyId?: number;
}
