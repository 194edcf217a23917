/**
 * Projects: the entity, its members and visibility policy, the service, loaders and GraphQL,
 * including Company.projects.
 * Imports accounts, staff and companies. Other modules and the layers above use nothing of it but
 * what this file exports.
 */
import type { ModuleDefinition } from '../../core/module-definition';
import { Project } from './project.entity';
import { ProjectMember } from './project-member.entity';
import { ProjectDefaultTagsTextMigration } from './migrations/20261128000000-project-default-tags-text.migration';
import { ProjectCodeMigration } from './migrations/20261209000000-project-code.migration';
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

/** What the module adds to the process (entities and migrations); src/modules/index.ts lists it. */
export const PROJECTS_MODULE = {
  name: 'projects',
  entities: [Project, ProjectMember],
  migrations: [
    { name: '20261128000000-project-default-tags-text', class: ProjectDefaultTagsTextMigration },
    { name: '20261209000000-project-code', class: ProjectCodeMigration },
  ],
} as const satisfies ModuleDefinition;
