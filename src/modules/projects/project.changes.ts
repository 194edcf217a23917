/**
 * What the project service takes to make or change a project, as plain types: the GraphQL inputs
 * implement them, so the service serves every interface the same shape and imports nothing of
 * GraphQL.
 */
import type { Visibility } from '../common';

/** A change to a project: omitted fields keep their value. */
export interface ProjectChanges {
  name?: string;
  companyId?: string;
  companyLegacyId?: number;
  active?: boolean;
  visibility?: Visibility;
  userIds?: string[] | null;
  userLegacyIds?: number[] | null;
  timeLimit?: number | null;
  timeLimitString?: string | null;
  defaultTags?: string[];
  defaultTagsText?: string | null;
  tagList?: string[];
  notes?: string | null;
  hourlyRate?: string | null;
  hourlyRateCents?: number | null;
  invoiceAmountCents?: number | null;
  billableByDefault?: boolean;
}

/** A new project; `id` is a uuid of the caller's choice. */
export interface NewProject extends ProjectChanges {
  name: string;
  id?: string | null;
}
