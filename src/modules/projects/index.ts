/**
 * Projects: the entity, its members and visibility policy, the service, loaders and GraphQL,
 * including Company.projects.
 * Imports accounts, staff and companies. Other modules and the layers above use nothing of it but
 * what this file exports.
 */
export { ProjectResolver } from './graphql/project.resolver';
export { ProjectMember } from './project-member.entity';
export { Project } from './project.entity';
export {
  isProjectUuidVisible,
  projectVisibilitySql,
  projectVisibilityWhere,
} from './project.policy';
export { ProjectService } from './project.service';
export { CompanyProjectsResolver } from './graphql/company-projects.resolver';
export { StaffCascadeProjectsResolver } from './graphql/staff-cascade.resolver';
export { primeVisibleProjects, visibleProject } from './project.loaders';
