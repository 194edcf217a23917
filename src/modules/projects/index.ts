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
export { joinPrimers, primeProjectFields, type ProjectFieldPrimer } from './project.loaders';
