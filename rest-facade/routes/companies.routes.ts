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
import type { ColumnTable } from '../query/columns';
import { lower, uuidField, withOwner, type Ref } from './wire-types';

export type Visibility = 'PUBLIC' | 'PRIVATE' | 'CUSTOM';

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
type ContactNode = Record<(typeof CONTACT_FIELDS)[number][1], string | null>;

export interface CompanyNode extends ContactNode {
  id: string;
  legacyId: number;
  name: string;
  visibility: Visibility;
  account: { owner: Ref };
  users: Ref[];
  longitude: number | null;
  latitude: number | null;
}

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

const updateFields = {
  name: { to: 'name', kind: text },
  visibility: { to: 'visibility', kind: VISIBILITY },
  user_uuids: { to: 'userIds', kind: uuidList },
  ...Object.fromEntries(
    CONTACT_FIELDS.map(([wire, graphql]) => [wire, { to: graphql, kind: text }]),
  ),
  longitude: { to: 'longitude', kind: decimal },
  latitude: { to: 'latitude', kind: decimal },
};

export const companyColumns: ColumnTable = {
  uuid: { filter: 'id', type: 'uuid', order: 'ID' },
  name: { filter: 'name', type: 'string', order: 'NAME' },
  visibility: { filter: 'visibility', type: VISIBILITY_COLUMN, order: 'VISIBILITY' },
  // The wire names are the GraphQL order values in lower case (`contact_first_name`).
  ...Object.fromEntries(
    CONTACT_FIELDS.map(([wire, graphql]) => [
      wire,
      { filter: graphql, type: 'string' as const, order: wire.toUpperCase() },
    ]),
  ),
  longitude: { filter: 'longitude', type: 'float', order: 'LONGITUDE' },
  latitude: { filter: 'latitude', type: 'float', order: 'LATITUDE' },
};

export const companyResource: JsonResource<z.infer<typeof companyWire>> = {
  key: 'company',
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
  createFields: { uuid: { to: 'id', kind: uuid }, ...updateFields },
  updateFields,
  columns: companyColumns,
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
