import { Field, ObjectType } from 'type-graphql';
import { Project } from '../../projects';
import { Shift } from '../shift.entity';

// The payloads of the shift mutations hold every object the mutation changed, so a normalised
// client cache (Apollo, urql, Relay) updates itself from the answer without a refetch.

@ObjectType({ description: 'What punching in changed.' })
export class PunchInPayload {
  @Field(() => Project, {
    description: 'The project punched in to: now running, with the new shift as `currentShift`.',
  })
  project!: Project;

  @Field(() => Shift, { description: 'The running shift the punch started.' })
  shift!: Shift;

  @Field(() => [Shift], {
    description:
      "The caller's shifts the punch stopped (at the new shift's start), each with its project: punching in stops the caller's other running shift.",
  })
  stoppedShifts!: Shift[];
}

@ObjectType({ description: 'What punching out changed.' })
export class PunchOutPayload {
  @Field(() => Project, { description: 'The project punched out of: no longer running.' })
  project!: Project;

  @Field(() => Shift, { description: 'The shift the punch stopped.' })
  shift!: Shift;
}
