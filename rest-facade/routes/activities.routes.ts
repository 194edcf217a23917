import { z } from 'zod';
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
import { legacyFields, type WireOf } from './legacy-fields';
import type { ActivityFieldsFragment, ActivityOrderField } from '../operations/generated';
import { uuidField } from './wire-types';

/** An activity as every activity operation answers it (fragment ActivityFields). */
export type ActivityNode = ActivityFieldsFragment;

/** The activity's fields as declared (`legacy` of the Activity entity's fields). */
const ACTIVITY = legacyFields('Activity');

export const activityWire = z
  .object({ ...ACTIVITY.jsonShape, project_uuid: uuidField })
  .strict()
  .meta({ id: 'Activity' });

export const activityColumns = ACTIVITY.columns;

export const renderActivity = (a: ActivityNode): WireOf<typeof activityWire> => ({
  ...ACTIVITY.json(a),
  project_uuid: a.project.id,
});

export const activityResource: JsonResource<
  ActivityNode,
  WireOf<typeof activityWire>,
  ActivityOrderField,
  'activity'
> = {
  key: 'activity',
  named: (value) => ({ activity: value }),
  entity: 'Activity',
  legacyEntity: 'Project',
  wire: activityWire,
  render: renderActivity,
  createFields: ACTIVITY.createFields,
  updateFields: ACTIVITY.updateFields,
  columns: ACTIVITY.columns,
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
