import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../../core/request-context';
import type { MaybePromise } from '../../../core/loaders';
import { ReadsAhead } from '../../paging';
import { listComplexity, ReadsColumns, RowsSql } from '../../paging/graphql';
import { Project } from '../../projects';
import { Activity } from '../activity.entity';
import { projectActivities, readProjectActivities } from '../activity.loaders';

/** What activities add to a project: its activities (read ahead for a list of projects). */
@Resolver(() => Project)
export class ProjectActivitiesResolver {
  @ReadsAhead(Project, readProjectActivities)
  @ReadsColumns(Project)
  @RowsSql(
    Project,
    () => Activity,
    (p, a) => `${a.column('project')} = ${p.column('id')}`,
    (_p, a) => `${a.column('name')}, ${a.column('id')}`,
  )
  @FieldResolver(() => [Activity], {
    description: 'Every activity of the project, by name.',
    complexity: listComplexity(20),
  })
  activities(@Root() project: Project, @Ctx() ctx: RequestContext): MaybePromise<Activity[]> {
    return projectActivities(ctx, project.id);
  }
}
