/**
 * Activities of a project: the entity, the service, loaders and GraphQL, including
 * Project.activities. Imports projects. Other modules and the layers above use nothing of it but
 * what this file exports.
 */
export { Activity } from './activity.entity';
export { ActivityService } from './activity.service';
export { assertMayWriteActivity, mayWriteActivities } from './activity.policy';
export type { ActivityChanges, NewActivity } from './activity.changes';
