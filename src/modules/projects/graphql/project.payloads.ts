import { Field, ID, Int, ObjectType } from 'type-graphql';
import { cascadeDescriptions as d } from '../../writes/graphql';
import { Project } from '../project.entity';

@ObjectType({ description: 'What creating a project changed.' })
export class CreateProjectPayload {
  @Field(() => Project, { description: 'The new project.' })
  project!: Project;
}

@ObjectType({ description: 'What updating a project changed.' })
export class UpdateProjectPayload {
  @Field(() => Project, { description: 'The project as it is now.' })
  project!: Project;
}

@ObjectType({
  description: 'What deleting a project changed: its activities and shifts are gone too.',
})
export class DeleteProjectPayload {
  @Field(() => ID, {
    description: 'The uuid of the deleted project: remove it from a client cache.',
  })
  deletedProjectId!: string;
  @Field(() => Project, { description: 'The project as it was before the deletion.' })
  project!: Project;
  @Field(() => [ID], { description: d.deletedIds('activities') })
  deletedActivityIds!: readonly string[];
  @Field(() => Int, { description: d.count('activities') })
  deletedActivityCount!: number;
  @Field(() => [ID], {
    description: `${d.deletedIds('shifts')} Each also sent SHIFT_DELETED (subscription, webhooks).`,
  })
  deletedShiftIds!: readonly string[];
  @Field(() => Int, { description: d.count('shifts') })
  deletedShiftCount!: number;
}
