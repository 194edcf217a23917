import { z } from 'zod';
import { boolean, integer, oneOf, password, text, uuid } from '../json/input-fields';
import type { JsonRoute } from '../json/json-format';
import {
  actionRoute,
  createRoute,
  deleteRoute,
  listRoute,
  showRoute,
  updateRoute,
  type JsonResource,
} from '../json/json-routes';
import type { ColumnTable } from '../query/columns';
import { asStringBoolean, lower, stringBoolean, uuidField } from './wire-types';

export interface StaffNode {
  id: string;
  legacyId: number;
  login: string;
  firstName: string;
  lastName: string;
  emailAddress: string;
  timeZone: string;
  active: boolean;
  type: 'OWNER' | 'MANAGER' | 'STAFF';
  hourlyRateCents: number | null;
}

const staffWire = z
  .object({
    uuid: uuidField,
    login: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    email_address: z.string(),
    time_zone: z.string(),
    active: stringBoolean,
    type: z.enum(['owner', 'manager', 'staff']),
    hourly_rate_cents: z.number().int().nullable(),
  })
  .strict()
  .meta({ id: 'Staff' });

const updateFields = {
  login: { to: 'login', kind: text },
  password: { to: 'password', kind: password },
  first_name: { to: 'firstName', kind: text },
  last_name: { to: 'lastName', kind: text },
  email_address: { to: 'emailAddress', kind: text },
  time_zone: { to: 'timeZone', kind: text },
  active: { to: 'active', kind: boolean },
  type: { to: 'type', kind: oneOf({ manager: 'MANAGER', staff: 'STAFF' }) },
  hourly_rate_cents: { to: 'hourlyRateCents', kind: integer },
} as const;

export const staffColumns: ColumnTable = {
  uuid: { filter: 'id', type: 'uuid', order: 'ID' },
  login: { filter: 'login', type: 'string', order: 'LOGIN' },
  first_name: { filter: 'firstName', type: 'string', order: 'FIRST_NAME' },
  last_name: { filter: 'lastName', type: 'string', order: 'LAST_NAME' },
  email_address: { filter: 'emailAddress', type: 'string', order: 'EMAIL_ADDRESS' },
  time_zone: { filter: 'timeZone', type: 'string', order: 'TIME_ZONE' },
  active: { filter: 'active', type: 'string-boolean', order: 'ACTIVE' },
  type: {
    filter: 'type',
    type: { enum: { owner: 'OWNER', manager: 'MANAGER', staff: 'STAFF' } },
    order: 'TYPE',
  },
  hourly_rate_cents: { filter: 'hourlyRateCents', type: 'integer', order: 'HOURLY_RATE_CENTS' },
};

export const staffResource: JsonResource<z.infer<typeof staffWire>> = {
  key: 'staff',
  entity: 'Staff',
  legacyEntity: 'User',
  wire: staffWire,
  render: (s: StaffNode) => ({
    uuid: s.id,
    login: s.login,
    first_name: s.firstName,
    last_name: s.lastName,
    email_address: s.emailAddress,
    time_zone: s.timeZone,
    active: asStringBoolean(s.active),
    type: lower(s.type),
    hourly_rate_cents: s.hourlyRateCents,
  }),
  createFields: { uuid: { to: 'id', kind: uuid }, ...updateFields },
  updateFields,
  columns: staffColumns,
};

const byUuid = ({ params }: { params: Readonly<Record<string, string>> }) => ({ id: params.uuid });

export const staffJsonRoutes: JsonRoute[] = [
  listRoute(
    staffResource,
    '/staff',
    'ListStaff',
    'List the staff of the account, the caller included',
  ),
  createRoute(
    staffResource,
    '/staff',
    'CreateStaff',
    'Create a staff member (402 over the plan maximum)',
  ),
  showRoute(staffResource, '/staff/:uuid', 'ShowStaff', 'Show a staff member'),
  updateRoute(
    staffResource,
    '/staff/:uuid',
    'UpdateStaff',
    'Update a staff member; omitted fields are kept',
  ),
  deleteRoute(staffResource, '/staff/:uuid', 'DeleteStaff', 'Delete a staff member'),
  actionRoute(
    staffResource,
    '/staff/:uuid/enable',
    'EnableStaff',
    'Enable a staff member (402 over the plan maximum)',
    byUuid,
  ),
  actionRoute(
    staffResource,
    '/staff/:uuid/disable',
    'DisableStaff',
    'Disable a staff member',
    byUuid,
  ),
];
