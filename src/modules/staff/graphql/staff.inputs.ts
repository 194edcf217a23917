import { Field, ID, InputType, registerEnumType } from 'type-graphql';
import {
  DeclaredInput,
  EntityFilter,
  EntityOrder,
  StaffRef,
  withDeclaredInputs,
} from '../../common';
import { AssignableStaffType, type NewStaff, type StaffChanges } from '../staff.changes';
import { Staff } from '../staff.entity';

export const StaffFilter = EntityFilter(Staff, 'StaffFilter', 'users');
export type StaffFilter = InstanceType<typeof StaffFilter>;
export const { input: StaffOrder } = EntityOrder(Staff, 'StaffOrder', 'users');

registerEnumType(AssignableStaffType, {
  name: 'AssignableStaffType',
  description: 'The roles a user can be given; the owner is made with the account.',
  valuesConfig: {
    MANAGER: {
      description:
        'Manages companies, projects, activities, shifts and staff members; only the owner makes one.',
    },
    STAFF: { description: 'Logs and sees their own shifts on the projects they can see.' },
  },
});

const LOGIN = 'Without ":"; unique in the service (any case).';

@InputType({ description: 'Omitted fields keep their value.' })
export class StaffInput implements StaffChanges {
  @DeclaredInput(Staff, LOGIN)
  login?: string;
  @Field(() => String, { nullable: true, description: 'Write-only; takes effect at once.' })
  password?: string;
  @DeclaredInput(Staff, 'The first name; empty when omitted on create.')
  firstName?: string;
  @DeclaredInput(Staff, 'The last name; empty when omitted on create.')
  lastName?: string;
  @DeclaredInput(Staff, 'The e-mail address (or empty); empty when omitted on create.')
  emailAddress?: string;
  @DeclaredInput(Staff, 'IANA time zone name.')
  timeZone?: string;
  // Of the roles a user can be given (the declared input admits no other).
  @Field(() => AssignableStaffType, {
    nullable: true,
    description:
      'The role; STAFF when omitted on create. Only the owner makes or changes managers.',
  })
  type?: AssignableStaffType;
  @DeclaredInput(
    Staff,
    "Whether the user may sign in; true when omitted on create. Enabling a user counts against the plan's staff maximum.",
  )
  active?: boolean;
  @DeclaredInput(Staff, "The user's hourly rate in cents.")
  hourlyRateCents?: number | null;
  @DeclaredInput(Staff, "What an hour of the user's work costs, in cents (owner and managers).")
  costRateCents?: number | null;
}

withDeclaredInputs(StaffInput, Staff);

@InputType({
  description: 'A new user (owners and managers); only the owner creates managers.',
})
export class CreateStaffInput extends StaffInput implements NewStaff {
  @Field(() => ID, {
    nullable: true,
    description: 'A uuid of your choice; generated when omitted.',
  })
  id?: string | null;
  @DeclaredInput(Staff, { description: LOGIN, nullable: false })
  override login!: string;
  @Field(() => String, { description: 'Write-only; at least 8 characters.' })
  override password!: string;
  @DeclaredInput(Staff, 'IANA time zone; UTC when omitted.')
  override timeZone?: string;
}

@InputType({ description: 'Changes a user (the user, or an owner or manager).' })
export class UpdateStaffInput {
  @Field(() => StaffRef, { description: 'The user to change.' })
  staff!: StaffRef;
  @Field(() => StaffInput, { description: 'The fields to change; omitted ones keep their value.' })
  patch!: StaffInput;
}

/** The input of a mutation that names one user and nothing else. */
function StaffActionInput(name: string, description: string) {
  @InputType(name, { description })
  class Input {
    @Field(() => StaffRef, { description: 'The user.' })
    staff!: StaffRef;
  }
  return Input;
}

export const DeleteStaffInput = StaffActionInput(
  'DeleteStaffInput',
  'Deletes a user (owners and managers).',
);
export const EnableStaffInput = StaffActionInput(
  'EnableStaffInput',
  'Lets a user sign in again (owners and managers).',
);
export const DisableStaffInput = StaffActionInput(
  'DisableStaffInput',
  'Stops a user signing in (owners and managers).',
);
/** Any of the three: they have one shape. */
export type StaffActionInput = InstanceType<typeof DeleteStaffInput>;
