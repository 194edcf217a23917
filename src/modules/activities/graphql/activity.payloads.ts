import { Field, ID, Int, ObjectType } from 'type-graphql';
import type { Cascaded } from '../../writes';
import { cascadeDescriptions as d } from '../../writes/graphql';
import { Activity } from '../activity.entity';

@ObjectType({ description: 'What creating an activity changed.' })
export class CreateActivityPayload {
  @Field(() => Activity, { description: 'The new activity.' })
  activity!: Activity;
}

@ObjectType({ description: 'What updating an activity changed.' })
export class UpdateActivityPayload {
  @Field(() => Activity, { description: 'The activity as it is now.' })
  activity!: Activity;
}

@ObjectType({
  description:
    'What deleting an activity changed: its shifts lose the activity (`updatedShifts`), each sending SHIFT_UPDATED.',
})
export class DeleteActivityPayload {
  @Field(() => ID, {
    description: 'The uuid of the deleted activity: remove it from a client cache.',
  })
  deletedActivityId!: string;
  @Field(() => Activity, { description: 'The activity as it was before the deletion.' })
  activity!: Activity;
  @Field(() => Int, { description: d.count('shifts') })
  updatedShiftCount!: number;
  /** The shifts it detached, for `updatedShifts` (added by the shifts module). */
  shifts!: Cascaded;
}
