import type { RequestContext } from '../../core/request-context';
import type { MaybePromise } from '../../core/loaders';
import { findRows } from '../paging';
import type { Project } from '../projects';
import { Activity } from './activity.entity';

/** The activities of a project, by name; the activities of every project of the request in one query. */
export function projectActivities(
  ctx: RequestContext,
  projectId: number,
): MaybePromise<Activity[]> {
  return ctx.loaders.children(
    'projectActivities',
    projectId,
    activitiesOf(ctx),
    (a) => a.project.id,
  );
}

const activitiesOf = (ctx: RequestContext) => (ids: readonly number[]) =>
  findRows(
    ctx.em,
    Activity,
    {},
    { anyOf: { property: 'project', ids }, orderBy: [{ name: 'asc' }, { id: 'asc' }] },
  );

/** Reads ahead the activities of a list of projects (what `Project.activities` answers from). */
export function readProjectActivities(
  ctx: RequestContext,
  projects: readonly Project[],
): Promise<void> {
  return ctx.loaders.primeChildren(
    'projectActivities',
    projects.map((p) => p.id),
    activitiesOf(ctx),
    (a) => a.project.id,
  );
}
