import { Field, ID, InputType, Int, registerEnumType } from 'type-graphql';
import { EntityFilter, EntityOrder, StaffRef } from '../../common';
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

@InputType({
  description: 'A new user (owners and managers); only the owner creates managers.',
})
export class CreateStaffInput implements NewStaff {
  @Field(() => ID, {
    nullable: true,
    description: 'A uuid of your choice; generated when omitted.',
  })
  id?: string | null;
  @Field(() => String, { description: 'Not blank, without ":"; unique in the service (any case).' })
  login!: string;
  @Field(() => String, { description: 'Write-only; at least 8 characters.' })
  password!: string;
  @Field(() => String, {
    nullable: true,
    description: 'The first name; empty when omitted on create.',
  })
  firstName?: string;
  @Field(() => String, {
    nullable: true,
    description: 'The last name; empty when omitted on create.',
  })
  lastName?: string;
  @Field(() => String, {
    nullable: true,
    description: 'The e-mail address (or empty); empty when omitted on create.',
  })
  emailAddress?: string;
  @Field(() => String, { nullable: true, description: 'IANA time zone; UTC when omitted.' })
  timeZone?: string;
  @Field(() => AssignableStaffType, {
    nullable: true,
    description:
      'The role; STAFF when omitted on create. Only the owner makes or changes managers.',
  })
  type?: AssignableStaffType;
  @Field(() => Boolean, {
    nullable: true,
    description:
      "Whether the user may sign in; true when omitted on create. Enabling a user counts against the plan's staff maximum.",
  })
  active?: boolean;
  @Field(() => Int, {
    nullable: true,
    description: "The user's hourly rate in cents; not negative.",
  })
  hourlyRateCents?: number | null;
  @Field(() => Int, {
    nullable: true,
    description:
      "What an hour of the user's work costs, in cents (owner and managers); not negative.",
  })
  costRateCents?: number | null;
}

@InputType({ description: 'Omitted fields keep their value.' })
export class StaffInput implements StaffChanges {
  @Field(() => String, {
    nullable: true,
    description: 'Not blank, without ":"; unique in the service (any case).',
  })
  login?: string;
  @Field(() => String, { nullable: true, description: 'Write-only; takes effect at once.' })
  password?: string;
  @Field(() => String, {
    nullable: true,
    description: 'The first name; empty when omitted on create.',
  })
  firstName?: string;
  @Field(() => String, {
    nullable: true,
    description: 'The last name; empty when omitted on create.',
  })
  lastName?: string;
  @Field(() => String, {
    nullable: true,
    description: 'The e-mail address (or empty); empty when omitted on create.',
  })
  emailAddress?: string;
  @Field(() => String, {
    nullable: true,
    description: 'IANA time zone name.',
  })
  timeZone?: string;
  @Field(() => AssignableStaffType, {
    nullable: true,
    description:
      'The role; STAFF when omitted on create. Only the owner makes or changes managers.',
  })
  type?: AssignableStaffType;
  @Field(() => Boolean, {
    nullable: true,
    description:
      "Whether the user may sign in; true when omitted on create. Enabling a user counts against the plan's staff maximum.",
  })
  active?: boolean;
  @Field(() => Int, {
    nullable: true,
    description: "The user's hourly rate in cents; not negative.",
  })
  hourlyRateCents?: number | null;
  @Field(() => Int, {
    nullable: true,
    description:
      "What an hour of the user's work costs, in cents (owner and managers); not negative.",
  })
  costRateCents?: number | null;
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
