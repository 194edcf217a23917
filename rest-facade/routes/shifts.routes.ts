import { z } from 'zod';
import { text } from '../json/input-fields';
import type { JsonRoute } from '../json/json-format';
import {
  createRoute,
  deleteRoute,
  inProject,
  inProjectRef,
  listRoute,
  showRoute,
  updateRoute,
  type JsonResource,
} from '../json/json-routes';
import type { ShiftFieldsFragment, ShiftOrderField } from '../operations/generated';
import { wireObject, type JsonMembers } from '../json/json-members';
import { legacyFields, type WireOf } from './legacy-fields';

/** A shift as every shift operation answers it (fragment ShiftFields). */
export type ShiftNode = ShiftFieldsFragment;

/** The shift's fields as declared (`legacy` of the Shift entity's fields). */
export const SHIFT = legacyFields('Shift');

export const shiftWire = z
  .object({ ...SHIFT.jsonShape, time_zone_offset: z.number().int().nullable() })
  .strict()
  .meta({ id: 'Shift' });

/**
 * Wall times a client writes instead of `start` and `stop`, in the shift's own zone; no answer
 * carries them.
 */
const wallTimes = {
  local_start_as_string: { to: 'localStartAsString', kind: text },
  local_stop_as_string: { to: 'localStopAsString', kind: text },
};

export const shiftColumns = SHIFT.columns;

/** A shift's JSON object: its declared fields, then its zone's offset and its user's uuid. */
const shiftMembers: JsonMembers = [
  ...SHIFT.members,
  { key: 'time_zone_offset', path: ['timeZoneOffset'] },
  { key: 'user_uuid', path: ['user', 'id'] },
];

export const renderShift = (s: ShiftNode) =>
  wireObject(shiftMembers, s) as WireOf<typeof shiftWire>;

export const shiftResource: JsonResource<
  ShiftNode,
  WireOf<typeof shiftWire>,
  ShiftOrderField,
  'shift'
> = {
  key: 'shift',
  named: (value) => ({ shift: value }),
  entity: 'Shift',
  legacyEntity: 'Shift',
  wire: shiftWire,
  render: renderShift,
  members: shiftMembers,
  createFields: { ...SHIFT.createFields, ...wallTimes },
  updateFields: { ...SHIFT.updateFields, ...wallTimes },
  columns: SHIFT.columns,
};

export const shiftJsonRoutes: JsonRoute[] = [
  listRoute(shiftResource, '/shifts', 'ListShifts', 'List the shifts the caller can see'),
  createRoute(shiftResource, '/shifts', 'CreateShift', 'Create a shift; without stop it runs'),
  showRoute(shiftResource, '/shifts/:uuid', 'ShowShift', 'Show a shift'),
  updateRoute(
    shiftResource,
    '/shifts/:uuid',
    'UpdateShift',
    'Update a shift; omitted fields are kept',
  ),
  deleteRoute(shiftResource, '/shifts/:uuid', 'DeleteShift', 'Delete a shift'),
  listRoute(
    shiftResource,
    '/projects/:project_uuid/shifts',
    'ListShifts',
    "List a project's shifts",
    inProject,
  ),
  createRoute(
    shiftResource,
    '/projects/:project_uuid/shifts',
    'CreateShift',
    'Create a shift on a project',
    inProject,
  ),
  showRoute(
    shiftResource,
    '/projects/:project_uuid/shifts/:uuid',
    'ShowShift',
    'Show a shift of a project',
    inProject,
  ),
  updateRoute(
    shiftResource,
    '/projects/:project_uuid/shifts/:uuid',
    'UpdateShift',
    'Update a shift of a project',
    inProjectRef,
  ),
  deleteRoute(
    shiftResource,
    '/projects/:project_uuid/shifts/:uuid',
    'DeleteShift',
    'Delete a shift of a project',
    inProjectRef,
  ),
];
