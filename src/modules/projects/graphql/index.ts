/**
 * The GraphQL side of projects: the project resolvers, Company.projects, and the projects a staff
 * deletion cascades to. The schema assembly (src/graphql/schema.ts) imports it, and so may another
 * module's graphql/ folder that extends these types; nothing else does.
 */
import { ProjectResolver } from './project.resolver';
import { CompanyProjectsResolver } from './company-projects.resolver';
import { StaffCascadeProjectsResolver } from './staff-cascade.resolver';
import type { ResolverRegistration } from '../../../core/module-definition';
import type { ProjectService } from '../project.service';
import { lookupOf, rootList, type ListRegistration } from '../../paging/graphql';
import { companyProjectList } from '../project.loaders';

/** Built once per schema from the services they use. */
export const PROJECT_RESOLVERS: readonly ResolverRegistration<{ projects: ProjectService }>[] = [
  [ProjectResolver, (s) => new ProjectResolver(s.projects)],
  [CompanyProjectsResolver, () => new CompanyProjectsResolver()],
  [StaffCascadeProjectsResolver, (s) => new StaffCascadeProjectsResolver(s.projects)],
];

/** What the root list pages, by its resolver's service method; its lookup reads one row of it. */
const projectList = (s: { projects: ProjectService }) =>
  rootList(s.projects.listSource.bind(s.projects), 'company');

/** The lists reads compiled to SQL answer, by their resolver's service method. */
export const PROJECT_LISTS: readonly ListRegistration<{ projects: ProjectService }>[] = [
  ['Query.projects', projectList],
  ['Query.project', (s) => lookupOf(projectList(s), 'Project')],
  ['Company.projects', () => (ctx, args) => companyProjectList(ctx, args.filter, args.order)],
];
