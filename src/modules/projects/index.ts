/**
 * Projects: the entity, its members and visibility policy, the service, loaders and GraphQL,
 * including Company.projects.
 * Imports accounts, staff and companies. Other modules and the layers above use nothing of it but
 * what this file exports.
 */
export { ProjectMember } from './project-member.entity';
export { Project } from './project.entity';
export {
  assertMayWriteProject,
  isProjectUuidVisible,
  mayWriteProjects,
  projectVisibilitySql,
  projectVisibilityWhere,
} from './project.policy';
export { ProjectService } from './project.service';
export { primeVisibleProjects, visibleProject } from './project.loaders';
export type { NewProject, ProjectChanges } from './project.changes';
