import type { RequestContext } from '../../core/request-context';

/**
 * At most this many objects of one type a mutation's payload names among those its cascade
 * changed or deleted; the payload's count says how many there were in all (docs/graphql-api.md).
 * Events and webhooks go out for every one, however many.
 */
export const CASCADE_LIST_MAX = 1000;

/** Which shifts a deletion of another object takes with it (its foreign keys cascade). */
export type ShiftCascadeRoot =
  { readonly company: number } | { readonly project: number } | { readonly user: number };

/** Objects of one type a cascade reached, as far as the caller may see them. */
export interface Cascaded {
  /** Their uuids, at most CASCADE_LIST_MAX, oldest (by integer id) first. */
  readonly ids: readonly string[];
  /** How many there were. */
  readonly count: number;
}

/** What a deletion takes with it, each as far as the caller could see it. */
export interface DeletionCascade {
  /** The projects of a deleted company. */
  readonly projects: Cascaded;
  /** The activities of the deleted projects. */
  readonly activities: Cascaded;
  readonly shifts: Cascaded;
  /** The projects and companies left whose fields change: a deleted user's time, CUSTOM lists. */
  readonly touchedProjects: Cascaded;
  readonly touchedCompanies: Cascaded;
}

/**
 * What the services below `shifts` (staff, companies, projects, activities) tell of the shifts a
 * change of theirs reaches through a foreign key: each call records the shift events (SHIFT_DELETED,
 * SHIFT_UPDATED) for every shift concerned in the change's transaction, with a number of
 * statements that does not grow with the number of shifts, and answers what the mutation's
 * payload names. The shifts module implements it; `createServices` hands it to those services,
 * which cannot import shifts (it sits above them).
 */
export interface ShiftCascades {
  /**
   * Call inside the deleting transaction, before the delete: locks what the delete will take (so
   * no shift joins or leaves it meanwhile), records SHIFT_DELETED for each of its shifts, and
   * answers what will go.
   */
  deleting(tx: RequestContext, root: ShiftCascadeRoot): Promise<DeletionCascade>;
  /**
   * Call inside the deleting transaction, before the activity goes: detaches its shifts (their
   * `activity` becomes null), records SHIFT_UPDATED for each and answers them.
   */
  detachingActivity(tx: RequestContext, activityRowId: number): Promise<Cascaded>;
}
