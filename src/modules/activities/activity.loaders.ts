import type { RequestContext } from '../../core/request-context';
import type { MaybePromise } from '../../core/loaders';
import { findRows } from '../common';
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

/** Primes the field this module adds to a project (ProjectFieldPrimer): its activities. */
export async function primeProjectActivities(
  ctx: RequestContext,
  projects: readonly Project[],
  selected: ReadonlySet<string>,
): Promise<void> {
  if (!selected.has('activities')) return;
  await ctx.loaders.primeChildren(
    'projectActivities',
    projects.map((p) => p.id),
    activitiesOf(ctx),
    (a) => a.project.id,
  );
}
