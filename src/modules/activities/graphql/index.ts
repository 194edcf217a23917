/**
 * The GraphQL side of activities: the activity resolvers, Project.activities, and the delete
 * payload shifts/graphql adds the cascade to. The schema assembly (src/graphql/schema.ts) imports
 * it, and so may another module's graphql/ folder that extends these types; nothing else does.
 */
import { ActivityResolver } from './activity.resolver';
import { ProjectActivitiesResolver } from './project-activities.resolver';
import type { ResolverRegistration } from '../../../core/module-definition';
import type { ActivityService } from '../activity.service';
import { lookupOf, rootList, type ListRegistration } from '../../paging/graphql';

export { DeleteActivityPayload } from './activity.payloads';

/** Built once per schema from the services they use. */
export const ACTIVITY_RESOLVERS: readonly ResolverRegistration<{ activities: ActivityService }>[] =
  [
    [ActivityResolver, (s) => new ActivityResolver(s.activities)],
    [ProjectActivitiesResolver, () => new ProjectActivitiesResolver()],
  ];

/** What the root list pages, by its resolver's service method; its lookup reads one row of it. */
const activityList = (s: { activities: ActivityService }) =>
  rootList(s.activities.listSource.bind(s.activities), 'project');

/** The lists reads compiled to SQL answer, by their resolver's service method. */
export const ACTIVITY_LISTS: readonly ListRegistration<{ activities: ActivityService }>[] = [
  ['Query.activities', activityList],
  ['Query.activity', (s) => lookupOf(activityList(s), 'Activity')],
];
