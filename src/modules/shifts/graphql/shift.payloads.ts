import { Field, ID, ObjectType } from 'type-graphql';
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
  stoppedShifts!: readonly Shift[];
}

@ObjectType({ description: 'What punching out changed.' })
export class PunchOutPayload {
  @Field(() => Project, { description: 'The project punched out of: no longer running.' })
  project!: Project;

  @Field(() => Shift, { description: 'The shift the punch stopped.' })
  shift!: Shift;
}

/** What writing a shift changed: the shift, its project's totals, the running shift it stopped. */
// Named only as a base: no field returns it, so the schema leaves it out (as TenantEntity).
@ObjectType('ShiftWritePayload')
abstract class ShiftWritePayload {
  @Field(() => Shift, { description: 'The shift as written.' })
  shift!: Shift;

  @Field(() => Project, {
    nullable: true,
    description:
      "The shift's project, whose totals now count it (null when the caller may not see it).",
  })
  project!: Project | null;

  @Field(() => [Shift], {
    description:
      "The user's running shift that a running shift written here stopped (at its start), each with its project.",
  })
  stoppedShifts!: readonly Shift[];
}

@ObjectType({ description: 'What creating a shift changed.' })
export class CreateShiftPayload extends ShiftWritePayload {}

@ObjectType({ description: 'What updating a shift changed.' })
export class UpdateShiftPayload extends ShiftWritePayload {
  @Field(() => Project, {
    nullable: true,
    description:
      'The project the shift moved away from, whose totals lost it; null when it did not move (or the caller may not see that project).',
  })
  previousProject!: Project | null;
}

@ObjectType({ description: 'What deleting a shift changed.' })
export class DeleteShiftPayload {
  @Field(() => ID, { description: 'The uuid of the deleted shift: remove it from a client cache.' })
  deletedShiftId!: string;

  @Field(() => Shift, { description: 'The shift as it was before the deletion.' })
  shift!: Shift;

  @Field(() => Project, {
    nullable: true,
    description: "The shift's project, whose totals lost it (null when the caller may not see it).",
  })
  project!: Project | null;
}
