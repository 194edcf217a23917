/**
 * The GraphQL side of activities: the activity resolvers, Project.activities, and the delete
 * payload shifts/graphql adds the cascade to. The schema assembly (src/graphql/schema.ts) imports
 * it, and so may another module's graphql/ folder that extends these types; nothing else does.
 */
import { ActivityResolver } from './activity.resolver';
import { ProjectActivitiesResolver } from './project-activities.resolver';
import type { ResolverRegistration } from '../../../core/module-definition';
import type { ActivityService } from '../activity.service';
import { optionalLocator } from '../../common';
import type { ListRegistration } from '../../paging/graphql';

export { DeleteActivityPayload } from './activity.payloads';

/** Built once per schema from the services they use. */
export const ACTIVITY_RESOLVERS: readonly ResolverRegistration<{ activities: ActivityService }>[] =
  [
    [ActivityResolver, (s) => new ActivityResolver(s.activities)],
    [ProjectActivitiesResolver, () => new ProjectActivitiesResolver()],
  ];

/** The lists reads compiled to SQL answer, by their resolver's service method. */
export const ACTIVITY_LISTS: readonly ListRegistration<{ activities: ActivityService }>[] = [
  [
    'Query.activities',
    (s) => (ctx, args) =>
      s.activities.listSource(
        ctx,
        args.filter,
        args.order,
        optionalLocator(args.projectId as string, args.projectLegacyId as number),
      ),
  ],
];
