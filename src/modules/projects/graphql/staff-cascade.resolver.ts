import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../../core/request-context';
import { inOrderOf } from '../../writes';
import { cascadeDescriptions } from '../../writes/graphql';
import { DeleteStaffPayload } from '../../staff/graphql';
import { Project } from '../project.entity';
import type { ProjectService } from '../project.service';

/** What projects add to deleting a user: the projects the deletion changed, as they are now. */
@Resolver(() => DeleteStaffPayload)
export class StaffCascadeProjectsResolver {
  constructor(private readonly projects: ProjectService) {}

  @FieldResolver(() => [Project], {
    description: cascadeDescriptions.objects(
      "projects (the user's time left their totals; their CUSTOM list or creator named the user)",
    ),
  })
  async updatedProjects(
    @Root() payload: DeleteStaffPayload,
    @Ctx() ctx: RequestContext,
  ): Promise<Project[]> {
    const ids = payload.cascade.touchedProjects.ids;
    return inOrderOf(ids, await this.projects.getMany(ctx, ids));
  }
}
