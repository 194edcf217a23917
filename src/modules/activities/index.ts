/**
 * Activities of a project: the entity, the service, loaders and GraphQL, including
 * Project.activities. Imports projects. Other modules and the layers above use nothing of it but
 * what this file exports.
 */
import type { ModuleDefinition } from '../../core/module-definition';
import { Activity } from './activity.entity';
export { Activity } from './activity.entity';
export { ActivityService } from './activity.service';
export { assertMayWriteActivity, mayWriteActivities } from './activity.policy';
export type { ActivityChanges, NewActivity } from './activity.changes';

/** What the module adds to the process (entities); src/modules/index.ts lists it. */
export const ACTIVITIES_MODULE = {
  name: 'activities',
  entities: [Activity],
} as const satisfies ModuleDefinition;
