import type { RequestContext } from '../../core/request-context';
import type { ConnectionShape, OrderSpec } from '../../core/list-shapes';
import {
  loadById,
  primeById,
  childPage,
  type ChildList,
  declaredWhere,
  type PageRequest,
} from '../paging';
import { then, type MaybePromise } from '../../core/loaders';
import { Company } from '../companies';
import type { Staff } from '../staff';
import { ProjectMember } from './project-member.entity';
import { Project } from './project.entity';
import { isProjectVisible, projectVisibilityWhere } from './project.policy';

/**
 * A project by row id (a shift's), or null when the caller may not see it, as `project(id:)` would
 * refuse it: the project policy's rule (isProjectVisible) over the row, which comes from the
 * request's rows by id (often read already, by the list that names the project). Batched per
 * request, and answers at once for ids a batch or `primeVisibleProjects` has decided.
 */
export function visibleProject(
  ctx: RequestContext,
  projectId: number,
): MaybePromise<Project | null> {
  return ctx.loaders.load('visibleProject', projectId, visibleProjects(ctx));
}

/** Decides ahead, in one batch, which of these projects the caller sees (a list of shifts' projects). */
export function primeVisibleProjects(
  ctx: RequestContext,
  projectIds: Iterable<number>,
): Promise<void> {
  return ctx.loaders.prime('visibleProject', projectIds, visibleProjects(ctx));
}

const visibleProjects = (ctx: RequestContext) => async (ids: readonly number[]) => {
  await primeById(ctx, Project, ids);
  return Promise.all(
    ids.map(async (id) => {
      // Foreign keys keep a shift's project while the shift exists; a mutation's answer is read
      // after its commit, by when another request may have deleted the project: not visible.
      const project = await loadById(ctx, Project, id);
      return project && (await isProjectVisible(ctx, project)) ? project : null;
    }),
  );
};

/** The users listed for CUSTOM visibility, in the order they were added. */
export function projectUsers(ctx: RequestContext, projectId: number): MaybePromise<Staff[]> {
  return then(
    ctx.loaders.children('projectUsers', projectId, membersOf(ctx), (m) => m.project.id),
    (members) => members.map((m) => m.user.getEntity()),
  );
}

const membersOf = (ctx: RequestContext) => (ids: readonly number[]) =>
  ctx.em.find(
    ProjectMember,
    { project: { $in: [...ids] } },
    { populate: ['user'], orderBy: { id: 'asc' } },
  );

/** Reads ahead the rows of a list of projects' companies (their uuids). */
export const readCompanies = (ctx: RequestContext, projects: readonly Project[]) =>
  primeById(
    ctx,
    Company,
    projects.map((p) => p.company.id),
  );

/** Reads ahead the users listed for CUSTOM visibility of a list of projects. */
export const readProjectUsers = (ctx: RequestContext, projects: readonly Project[]) =>
  ctx.loaders.primeChildren(
    'projectUsers',
    projects.map((p) => p.id),
    membersOf(ctx),
    (m) => m.project.id,
  );

/**
 * One company's page of the projects the caller sees (`Company.projects`): the projects of every
 * company of the request in one query, with what their nodes select (`page.nodeFields`)
 * read ahead in one batch each.
 */
export async function companyProjects(
  ctx: RequestContext,
  companyId: number,
  page: PageRequest,
  filter: object | undefined,
  order: OrderSpec[] | undefined,
): Promise<ConnectionShape<Project>> {
  const list = await companyProjectList(ctx, filter, order);
  return childPage(
    ctx,
    list,
    `companyProjects:${JSON.stringify([filter, order])}`,
    companyId,
    page,
  );
}

/** The projects `Company.projects` lists, of any company, before paging (reads compiled to SQL page it too). */
export async function companyProjectList(
  ctx: RequestContext,
  filter: object | undefined,
  order: OrderSpec[] | undefined,
): Promise<ChildList<Project>> {
  return {
    entity: 'Project',
    entityClass: Project,
    parent: 'company',
    where: {
      $and: [
        declaredWhere(ctx.viewer, 'Project', Project, filter, order),
        await projectVisibilityWhere(ctx),
      ],
    },
    order,
  };
}
