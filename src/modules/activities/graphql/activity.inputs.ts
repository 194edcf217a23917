import { Field, ID, InputType, Int } from 'type-graphql';
import type { ActivityChanges, NewActivity } from '../activity.changes';
import {
  ActivityRef,
  DeclaredInput,
  EntityFilter,
  EntityOrder,
  ProjectRef,
  withDeclaredInputs,
} from '../../common';
import { Activity } from '../activity.entity';

export const ActivityFilter = EntityFilter(Activity, 'ActivityFilter', 'activities');
export type ActivityFilter = InstanceType<typeof ActivityFilter>;
export const { input: ActivityOrder } = EntityOrder(Activity, 'ActivityOrder', 'activities');

@InputType({ description: 'Omitted fields keep their value on update.' })
export class ActivityInput implements ActivityChanges {
  // Added by withDeclaredInputs (below), described as the output field.
  name?: string;
}

withDeclaredInputs(ActivityInput, Activity);

@InputType({
  description:
    'A new activity of a project (owners and managers). Give the project by `projectId` or `projectLegacyId`.',
})
export class CreateActivityInput extends ActivityInput implements NewActivity {
  @DeclaredInput(Activity, { nullable: false })
  override name!: string;

  @Field(() => ID, {
    nullable: true,
    description: 'A uuid of your choice; generated when omitted.',
  })
  id?: string | null;
  @Field(() => ID, {
    nullable: true,
    description: "The activity's project (uuid); give this or `projectLegacyId`.",
  })
  projectId?: string;
  @Field(() => Int, {
    nullable: true,
    description: "The activity's project (integer id); give this or `projectId`.",
  })
  projectLegacyId?: number;
}

@InputType({ description: 'Renames an activity (owners and managers).' })
export class UpdateActivityInput {
  @Field(() => ActivityRef, { description: 'The activity to change.' })
  activity!: ActivityRef;
  @Field(() => ProjectRef, {
    nullable: true,
    description: 'Only if the activity belongs to this project.',
  })
  inProject?: ProjectRef | null;
  @Field(() => ActivityInput, {
    description: 'The fields to change; omitted ones keep their value.',
  })
  patch!: ActivityInput;
}

@InputType({ description: 'Deletes an activity (owners and managers).' })
export class DeleteActivityInput {
  @Field(() => ActivityRef, { description: 'The activity to delete.' })
  activity!: ActivityRef;
  @Field(() => ProjectRef, {
    nullable: true,
    description: 'Only if the activity belongs to this project.',
  })
  inProject?: ProjectRef | null;
}
