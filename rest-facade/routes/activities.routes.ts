import { z } from 'zod';
import { text, uuid } from '../json/input-fields';
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
import { uuidField, type Ref } from './wire-types';

export interface ActivityNode {
  id: string;
  legacyId: number;
  name: string;
  project: Ref;
}

export const activityWire = z
  .object({ uuid: uuidField, name: z.string(), project_uuid: uuidField })
  .strict()
  .meta({ id: 'Activity' });

export const activityColumns: ColumnTable = {
  uuid: { filter: 'id', type: 'uuid', order: 'ID' },
  name: { filter: 'name', type: 'string', order: 'NAME' },
};

export const renderActivity = (a: ActivityNode): z.infer<typeof activityWire> => ({
  uuid: a.id,
  name: a.name,
  project_uuid: a.project.id,
});

export const activityResource: JsonResource<z.infer<typeof activityWire>> = {
  key: 'activity',
  entity: 'Activity',
  legacyEntity: 'Project',
  wire: activityWire,
  render: renderActivity,
  createFields: { uuid: { to: 'id', kind: uuid }, name: { to: 'name', kind: text } },
  updateFields: { name: { to: 'name', kind: text } },
  columns: activityColumns,
};

export const activityJsonRoutes: JsonRoute[] = [
  listRoute(
    activityResource,
    '/projects/:project_uuid/activities',
    'ListActivities',
    "List a project's activities",
    inProject,
  ),
  createRoute(
    activityResource,
    '/projects/:project_uuid/activities',
    'CreateActivity',
    'Create an activity of a project',
    inProject,
  ),
  showRoute(
    activityResource,
    '/projects/:project_uuid/activities/:uuid',
    'ShowActivity',
    'Show an activity of a project',
    inProject,
  ),
  updateRoute(
    activityResource,
    '/projects/:project_uuid/activities/:uuid',
    'UpdateActivity',
    'Rename an activity',
    inProject,
  ),
  deleteRoute(
    activityResource,
    '/projects/:project_uuid/activities/:uuid',
    'DeleteActivity',
    'Delete an activity',
    inProject,
  ),
];
