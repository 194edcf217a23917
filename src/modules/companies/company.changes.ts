/**
 * What the company service takes to make or change a company, as plain types: the GraphQL inputs
 * implement them, so the service serves every interface the same shape and imports nothing of
 * GraphQL.
 */
import type { Visibility } from '../common';

/** A change to a company: omitted fields keep their value. */
export interface CompanyChanges {
  name?: string;
  visibility?: Visibility;
  userIds?: string[] | null;
  userLegacyIds?: number[] | null;
  contactSalutation?: string | null;
  contactFirstName?: string | null;
  contactLastName?: string | null;
  contactEmailAddress?: string | null;
  contactPosition?: string | null;
  contactHomePhone?: string | null;
  contactMobilePhone?: string | null;
  website?: string | null;
  mainPhone?: string | null;
  faxPhone?: string | null;
  mainAddress?: string | null;
  mainCity?: string | null;
  mainState?: string | null;
  mainPostcode?: string | null;
  mainCountry?: string | null;
  notes?: string | null;
  latitude?: number | null;
  longitude?: number | null;
}

/** A new company; `id` is a uuid of the caller's choice. */
export interface NewCompany extends CompanyChanges {
  name: string;
  id?: string | null;
}
