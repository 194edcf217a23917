import { z } from 'zod';
import { decimal, oneOf, text, uuid, uuidList } from '../json/input-fields';
import type { JsonRoute } from '../json/json-format';
import {
  createRoute,
  deleteRoute,
  listRoute,
  showRoute,
  updateRoute,
  type JsonResource,
} from '../json/json-routes';
import { resourceTables, type ResourceFields } from '../json/resource-fields';
import type { CompanyFieldsFragment, CompanyOrderField } from '../operations/generated';
import { lower, upper, uuidField, withOwner } from './wire-types';

export const VISIBILITY = oneOf({ public: 'PUBLIC', private: 'PRIVATE', custom: 'CUSTOM' });
export const VISIBILITY_COLUMN = {
  enum: { public: 'PUBLIC', private: 'PRIVATE', custom: 'CUSTOM' },
} as const;

/** The text fields of a company: wire name (both legacy interfaces) and GraphQL name. */
export const CONTACT_FIELDS = [
  ['contact_salutation', 'contactSalutation'],
  ['contact_first_name', 'contactFirstName'],
  ['contact_last_name', 'contactLastName'],
  ['contact_email_address', 'contactEmailAddress'],
  ['contact_position', 'contactPosition'],
  ['contact_home_phone', 'contactHomePhone'],
  ['contact_mobile_phone', 'contactMobilePhone'],
  ['website', 'website'],
  ['main_phone', 'mainPhone'],
  ['fax_phone', 'faxPhone'],
  ['main_address', 'mainAddress'],
  ['main_city', 'mainCity'],
  ['main_state', 'mainState'],
  ['main_postcode', 'mainPostcode'],
  ['main_country', 'mainCountry'],
  ['notes', 'notes'],
] as const;

type ContactWire = Record<(typeof CONTACT_FIELDS)[number][0], string | null>;

/** A company as every company operation answers it (fragment CompanyFields). */
export type CompanyNode = CompanyFieldsFragment;

const companyWire = z
  .object({
    uuid: uuidField,
    name: z.string(),
    visibility: z.enum(['public', 'private', 'custom']),
    user_uuids: z.array(uuidField),
    ...(Object.fromEntries(CONTACT_FIELDS.map(([wire]) => [wire, z.string().nullable()])) as Record<
      keyof ContactWire,
      z.ZodNullable<z.ZodString>
    >),
    longitude: z.number().nullable(),
    latitude: z.number().nullable(),
  })
  .strict()
  .meta({ id: 'Company' });

/** The fields clients write and query, once each (resource-fields.ts); XML shares some rows. */
export const COMPANY_FIELDS = {
  name: { to: 'name', kind: text, column: { type: 'string', order: 'NAME' } },
  visibility: {
    to: 'visibility',
    kind: VISIBILITY,
    column: { type: VISIBILITY_COLUMN, order: 'VISIBILITY' },
  },
  user_uuids: { to: 'userIds', kind: uuidList },
  // The wire names are the GraphQL order values in lower case (`contact_first_name`).
  ...Object.fromEntries(
    CONTACT_FIELDS.map(([wire, graphql]) => [
      wire,
      { to: graphql, kind: text, column: { type: 'string' as const, order: upper(wire) } },
    ]),
  ),
  longitude: { to: 'longitude', kind: decimal, column: { type: 'float', order: 'LONGITUDE' } },
  latitude: { to: 'latitude', kind: decimal, column: { type: 'float', order: 'LATITUDE' } },
} satisfies ResourceFields<CompanyOrderField>;

const companyTables = resourceTables(
  { to: 'id', kind: uuid, column: { type: 'uuid', order: 'ID' } },
  COMPANY_FIELDS,
);

export const companyColumns = companyTables.columns;

export const companyResource: JsonResource<
  CompanyNode,
  z.infer<typeof companyWire>,
  CompanyOrderField,
  'company'
> = {
  key: 'company',
  named: (value) => ({ company: value }),
  entity: 'Company',
  legacyEntity: 'Company',
  wire: companyWire,
  render: (c: CompanyNode) => ({
    uuid: c.id,
    name: c.name,
    visibility: lower(c.visibility),
    user_uuids: withOwner(c.account.owner, c.users).map((user) => user.id),
    ...(Object.fromEntries(
      CONTACT_FIELDS.map(([wire, graphql]) => [wire, c[graphql]]),
    ) as ContactWire),
    longitude: c.longitude,
    latitude: c.latitude,
  }),
  ...companyTables,
};

export const companyJsonRoutes: JsonRoute[] = [
  listRoute(
    companyResource,
    '/companies',
    'ListCompanies',
    'List the companies the caller can see',
  ),
  createRoute(companyResource, '/companies', 'CreateCompany', 'Create a company'),
  showRoute(companyResource, '/companies/:uuid', 'ShowCompany', 'Show a company'),
  updateRoute(
    companyResource,
    '/companies/:uuid',
    'UpdateCompany',
    'Update a company; omitted fields are kept',
  ),
  deleteRoute(
    companyResource,
    '/companies/:uuid',
    'DeleteCompany',
    'Delete a company with its projects',
  ),
];
