import { z } from 'zod';
import { password } from '../json/input-fields';
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
import type { StaffFieldsFragment, StaffOrderField } from '../operations/generated';
import { legacyFields, type WireOf } from './legacy-fields';

/** A staff member as every staff operation answers it (fragment StaffFields). */
export type StaffNode = StaffFieldsFragment;

/** The staff member's fields as declared (`legacy` of the Staff entity's fields). */
export const STAFF = legacyFields('Staff');

const staffWire = z.object(STAFF.jsonShape).strict().meta({ id: 'Staff' });

/** Write-only: accepted on create and update, never rendered. */
export const passwordField = { password: { to: 'password', kind: password } };

export const staffColumns = STAFF.columns;

export const staffResource: JsonResource<
  StaffNode,
  WireOf<typeof staffWire>,
  StaffOrderField,
  'staff'
> = {
  key: 'staff',
  named: (value) => ({ staff: value }),
  entity: 'Staff',
  legacyEntity: 'User',
  wire: staffWire,
  render: STAFF.json,
  createFields: { ...STAFF.createFields, ...passwordField },
  updateFields: { ...STAFF.updateFields, ...passwordField },
  columns: STAFF.columns,
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
