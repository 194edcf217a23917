import { Field, ID, Int, ObjectType } from 'type-graphql';
import type { DeletionCascade } from '../../writes';
import { cascadeDescriptions as d } from '../../writes/graphql';
import { Staff } from '../staff.entity';

/** The payload of a mutation that changes one user and nothing else. */
function StaffPayload(name: string, description: string) {
  @ObjectType(name, { description })
  class Payload {
    @Field(() => Staff, { description: 'The user as they are now.' })
    staff!: Staff;
  }
  return Payload;
}

export const CreateStaffPayload = StaffPayload('CreateStaffPayload', 'What adding a user changed.');
export const UpdateStaffPayload = StaffPayload(
  'UpdateStaffPayload',
  'What updating a user changed.',
);
export const EnableStaffPayload = StaffPayload(
  'EnableStaffPayload',
  'What enabling a user changed.',
);
export const DisableStaffPayload = StaffPayload(
  'DisableStaffPayload',
  'What disabling a user changed.',
);
/** Any of the four: they have one shape. */
export type StaffPayload = InstanceType<typeof CreateStaffPayload>;

@ObjectType({
  description:
    'What deleting a user changed: their shifts are gone too, and the projects and companies they worked on, belonged to or created changed (`updatedProjects`, `updatedCompanies`).',
})
export class DeleteStaffPayload {
  @Field(() => ID, {
    description: 'The uuid of the deleted user: remove them from a client cache.',
  })
  deletedStaffId!: string;
  @Field(() => Staff, { description: 'The user as they were before the deletion.' })
  staff!: Staff;
  @Field(() => [ID], {
    description: `${d.deletedIds('shifts of the user')} Each also sent SHIFT_DELETED (subscription, webhooks).`,
  })
  deletedShiftIds!: readonly string[];
  @Field(() => Int, { description: d.count('shifts') })
  deletedShiftCount!: number;
  @Field(() => Int, { description: d.count('projects') })
  updatedProjectCount!: number;
  @Field(() => Int, { description: d.count('companies') })
  updatedCompanyCount!: number;
  /** For the fields other modules add (`updatedProjects`, `updatedCompanies`). */
  cascade!: DeletionCascade;
}
