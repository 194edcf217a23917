import { z } from 'zod';
import { boolean, tagList, text, timestamp, uuid } from '../json/input-fields';
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
import { resourceTables, type ResourceFields } from '../json/resource-fields';
import type { ShiftFieldsFragment, ShiftOrderField } from '../operations/generated';
import { dateTime, uuidField, wireTime } from './wire-types';

/** A shift as every shift operation answers it (fragment ShiftFields). */
export type ShiftNode = ShiftFieldsFragment;

export const shiftWire = z
  .object({
    uuid: uuidField,
    start: dateTime,
    stop: dateTime.nullable(),
    notes: z.string().nullable(),
    time_zone: z.string(),
    time_zone_offset: z.number().int().nullable(),
    billable: z.boolean(),
    project_uuid: uuidField,
    user_uuid: uuidField,
    tag_list: z.array(z.string()),
    activity_uuid: uuidField.nullable(),
    external_href: z.string().nullable(),
  })
  .strict()
  .meta({ id: 'Shift' });

/** The fields clients write and query, once each (resource-fields.ts); XML shares some rows. */
export const SHIFT_FIELDS = {
  start: { to: 'start', kind: timestamp, column: { type: 'timestamp', order: 'START' } },
  stop: { to: 'stop', kind: timestamp, column: { type: 'timestamp', order: 'STOP' } },
  notes: { to: 'notes', kind: text, column: { type: 'string', order: 'NOTES' } },
  time_zone: { to: 'timeZone', kind: text, column: { type: 'string', order: 'TIME_ZONE' } },
  billable: { to: 'billable', kind: boolean, column: { type: 'boolean', order: 'BILLABLE' } },
  project_uuid: { to: 'projectId', kind: uuid, column: { type: 'uuid', order: 'PROJECT_ID' } },
  user_uuid: { to: 'userId', kind: uuid, column: { type: 'uuid', order: 'USER_ID' } },
  tag_list: { to: 'tagList', kind: tagList },
  local_start_as_string: { to: 'localStartAsString', kind: text },
  local_stop_as_string: { to: 'localStopAsString', kind: text },
  activity_uuid: { to: 'activityId', kind: uuid, column: { type: 'uuid', order: 'ACTIVITY_ID' } },
  external_href: {
    to: 'externalHref',
    kind: text,
    column: { type: 'string', order: 'EXTERNAL_HREF' },
  },
} as const satisfies ResourceFields<ShiftOrderField>;

const shiftTables = resourceTables(
  { to: 'id', kind: uuid, column: { type: 'uuid', order: 'ID' } },
  SHIFT_FIELDS,
);

export const shiftColumns = shiftTables.columns;

export const renderShift = (s: ShiftNode): z.infer<typeof shiftWire> => ({
  uuid: s.id,
  start: wireTime(s.start),
  stop: s.stop === null ? null : wireTime(s.stop),
  notes: s.notes,
  time_zone: s.timeZone,
  time_zone_offset: s.timeZoneOffset,
  billable: s.billable,
  project_uuid: s.projectId,
  user_uuid: s.user.id,
  tag_list: s.tagList,
  activity_uuid: s.activityId,
  external_href: s.externalHref,
});

export const shiftResource: JsonResource<
  ShiftNode,
  z.infer<typeof shiftWire>,
  ShiftOrderField,
  'shift'
> = {
  key: 'shift',
  named: (value) => ({ shift: value }),
  entity: 'Shift',
  legacyEntity: 'Shift',
  wire: shiftWire,
  render: renderShift,
  ...shiftTables,
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
