import { z } from 'zod';
import { text, uuid } from '../json/input-fields';
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
import { resourceTables } from '../json/resource-fields';
import type { ActivityFieldsFragment, ActivityOrderField } from '../operations/generated';
import { uuidField } from './wire-types';

/** An activity as every activity operation answers it (fragment ActivityFields). */
export type ActivityNode = ActivityFieldsFragment;

export const activityWire = z
  .object({ uuid: uuidField, name: z.string(), project_uuid: uuidField })
  .strict()
  .meta({ id: 'Activity' });

const activityTables = resourceTables(
  { to: 'id', kind: uuid, column: { type: 'uuid', order: 'ID' } },
  { name: { to: 'name', kind: text, column: { type: 'string', order: 'NAME' } } },
);

export const activityColumns = activityTables.columns;

export const renderActivity = (a: ActivityNode): z.infer<typeof activityWire> => ({
  uuid: a.id,
  name: a.name,
  project_uuid: a.project.id,
});

export const activityResource: JsonResource<
  ActivityNode,
  z.infer<typeof activityWire>,
  ActivityOrderField,
  'activity'
> = {
  key: 'activity',
  named: (value) => ({ activity: value }),
  entity: 'Activity',
  legacyEntity: 'Project',
  wire: activityWire,
  render: renderActivity,
  ...activityTables,
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
    inProjectRef,
  ),
  deleteRoute(
    activityResource,
    '/projects/:project_uuid/activities/:uuid',
    'DeleteActivity',
    'Delete an activity',
    inProjectRef,
  ),
];
