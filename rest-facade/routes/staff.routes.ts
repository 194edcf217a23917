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
import { resourceTables, type ResourceFields } from '../json/resource-fields';
import type { StaffFieldsFragment, StaffOrderField } from '../operations/generated';
import { asStringBoolean, lower, stringBoolean, uuidField } from './wire-types';

/** A staff member as every staff operation answers it (fragment StaffFields). */
export type StaffNode = StaffFieldsFragment;

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

/** The fields clients write and query, once each (resource-fields.ts); XML shares some rows. */
export const STAFF_FIELDS = {
  login: { to: 'login', kind: text, column: { type: 'string', order: 'LOGIN' } },
  password: { to: 'password', kind: password },
  first_name: { to: 'firstName', kind: text, column: { type: 'string', order: 'FIRST_NAME' } },
  last_name: { to: 'lastName', kind: text, column: { type: 'string', order: 'LAST_NAME' } },
  email_address: {
    to: 'emailAddress',
    kind: text,
    column: { type: 'string', order: 'EMAIL_ADDRESS' },
  },
  time_zone: { to: 'timeZone', kind: text, column: { type: 'string', order: 'TIME_ZONE' } },
  active: { to: 'active', kind: boolean, column: { type: 'string-boolean', order: 'ACTIVE' } },
  // Only managers and staff are made or changed here; every type is listed and queried.
  type: {
    to: 'type',
    kind: oneOf({ manager: 'MANAGER', staff: 'STAFF' }),
    column: {
      type: { enum: { owner: 'OWNER', manager: 'MANAGER', staff: 'STAFF' } },
      order: 'TYPE',
    },
  },
  hourly_rate_cents: {
    to: 'hourlyRateCents',
    kind: integer,
    column: { type: 'integer', order: 'HOURLY_RATE_CENTS' },
  },
} as const satisfies ResourceFields<StaffOrderField>;

const staffTables = resourceTables(
  { to: 'id', kind: uuid, column: { type: 'uuid', order: 'ID' } },
  STAFF_FIELDS,
);

export const staffColumns = staffTables.columns;

/**
 * A personal field (login, e-mail address) of a record a staff route answers. GraphQL answers
 * them only to callers who may read the record (staff.policy.ts), and the staff routes answer only
 * such records (the list holds what the caller may read, a read of another record is refused), so
 * the value is always there; null would be a broken invariant, never something to render.
 */
export function readable<T>(value: T | null, field: string): T {
  if (value === null)
    throw new Error(`the staff field ${field} was withheld from a readable record`);
  return value;
}

export const staffResource: JsonResource<
  StaffNode,
  z.infer<typeof staffWire>,
  StaffOrderField,
  'staff'
> = {
  key: 'staff',
  named: (value) => ({ staff: value }),
  entity: 'Staff',
  legacyEntity: 'User',
  wire: staffWire,
  render: (s: StaffNode) => ({
    uuid: s.id,
    login: readable(s.login, 'login'),
    first_name: s.firstName,
    last_name: s.lastName,
    email_address: readable(s.emailAddress, 'emailAddress'),
    time_zone: s.timeZone,
    active: asStringBoolean(s.active),
    type: lower(s.type),
    hourly_rate_cents: s.hourlyRateCents,
  }),
  ...staffTables,
};

/** Enabling and disabling name the user of the path and answer them as they are now. */
const byUuid = ({ params }: { params: Readonly<Record<string, string>> }) => ({
  input: staffResource.named({ id: params.uuid }),
});

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
