import { z } from 'zod';
import { boolean, tagList, text, timestamp, uuid } from '../json/input-fields';
import type { JsonRoute } from '../json/json-format';
import {
  createRoute,
  deleteRoute,
  inProject,
  listRoute,
  showRoute,
  updateRoute,
  type JsonResource,
} from '../json/json-routes';
import type { ColumnTable } from '../query/columns';
import { dateTime, uuidField, wireTime, type Ref } from './wire-types';

export interface ShiftNode {
  id: string;
  legacyId: number;
  start: string;
  stop: string | null;
  notes: string | null;
  timeZone: string;
  timeZoneOffset: number | null;
  billable: boolean;
  tagList: string[];
  externalHref: string | null;
  project: Ref;
  user: Ref & { login: string };
  activity: Ref | null;
}

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

const updateFields = {
  start: { to: 'start', kind: timestamp },
  stop: { to: 'stop', kind: timestamp },
  notes: { to: 'notes', kind: text },
  time_zone: { to: 'timeZone', kind: text },
  billable: { to: 'billable', kind: boolean },
  project_uuid: { to: 'projectId', kind: uuid },
  user_uuid: { to: 'userId', kind: uuid },
  tag_list: { to: 'tagList', kind: tagList },
  local_start_as_string: { to: 'localStartAsString', kind: text },
  local_stop_as_string: { to: 'localStopAsString', kind: text },
  activity_uuid: { to: 'activityId', kind: uuid },
  external_href: { to: 'externalHref', kind: text },
} as const;

export const shiftColumns: ColumnTable = {
  uuid: { filter: 'id', type: 'uuid', order: 'ID' },
  start: { filter: 'start', type: 'timestamp', order: 'START' },
  stop: { filter: 'stop', type: 'timestamp', order: 'STOP' },
  notes: { filter: 'notes', type: 'string', order: 'NOTES' },
  time_zone: { filter: 'timeZone', type: 'string', order: 'TIME_ZONE' },
  billable: { filter: 'billable', type: 'boolean', order: 'BILLABLE' },
  project_uuid: { filter: 'projectId', type: 'uuid', order: 'PROJECT_ID' },
  user_uuid: { filter: 'userId', type: 'uuid', order: 'USER_ID' },
  activity_uuid: { filter: 'activityId', type: 'uuid', order: 'ACTIVITY_ID' },
  external_href: { filter: 'externalHref', type: 'string', order: 'EXTERNAL_HREF' },
};

export const renderShift = (s: ShiftNode): z.infer<typeof shiftWire> => ({
  uuid: s.id,
  start: wireTime(s.start),
  stop: s.stop === null ? null : wireTime(s.stop),
  notes: s.notes,
  time_zone: s.timeZone,
  time_zone_offset: s.timeZoneOffset,
  billable: s.billable,
  project_uuid: s.project.id,
  user_uuid: s.user.id,
  tag_list: s.tagList,
  activity_uuid: s.activity?.id ?? null,
  external_href: s.externalHref,
});

export const shiftResource: JsonResource<z.infer<typeof shiftWire>> = {
  key: 'shift',
  entity: 'Shift',
  legacyEntity: 'Shift',
  wire: shiftWire,
  render: renderShift,
  createFields: { uuid: { to: 'id', kind: uuid }, ...updateFields },
  updateFields,
  columns: shiftColumns,
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
    inProject,
  ),
  deleteRoute(
    shiftResource,
    '/projects/:project_uuid/shifts/:uuid',
    'DeleteShift',
    'Delete a shift of a project',
    inProject,
  ),
];
