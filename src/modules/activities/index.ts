export { Activity } from './activity.entity';
export { ActivityService } from './activity.service';
export { ActivityResolver } from './graphql/activity.resolver';
export { ProjectActivitiesResolver } from './graphql/project-activities.resolver';
export { primeProjectActivities } from './activity.loaders';
