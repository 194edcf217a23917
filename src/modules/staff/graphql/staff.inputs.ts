import { Field, ID, InputType, Int, registerEnumType } from 'type-graphql';
import {
  StaffRef,
  COMMON_ORDER_VALUES,
  FILTER_DESCRIPTIONS,
  filterTypeDescription,
  BooleanFilter,
  DateTimeFilter,
  IDFilter,
  IntFilter,
  StaffTypeFilter,
  StringFilter,
  OrderInput,
  type FilterFields,
} from '../../common';

@InputType({ description: filterTypeDescription('users') })
export class StaffFilter {
  @Field(() => [StaffFilter], { nullable: true, description: FILTER_DESCRIPTIONS.and })
  and?: StaffFilter[];
  @Field(() => [StaffFilter], { nullable: true, description: FILTER_DESCRIPTIONS.or })
  or?: StaffFilter[];
  @Field(() => StaffFilter, { nullable: true, description: FILTER_DESCRIPTIONS.not })
  not?: StaffFilter;
  @Field(() => DateTimeFilter, { nullable: true, description: 'When it was created.' })
  createdAt?: DateTimeFilter;
  @Field(() => DateTimeFilter, {
    nullable: true,
    description:
      'When it last changed. Incremental sync: `{ gte: <watermark> }` finds what changed since (docs/sync.md).',
  })
  updatedAt?: DateTimeFilter;
  @Field(() => IDFilter, { nullable: true, description: "The user's uuid." })
  id?: IDFilter;
  @Field(() => IntFilter, { nullable: true, description: "The user's integer id." })
  legacyId?: IntFilter;
  @Field(() => StringFilter, {
    nullable: true,
    description: 'The login (a staff member sees only their own record anyway).',
  })
  login?: StringFilter;
  @Field(() => StringFilter, { nullable: true, description: 'The first name.' })
  firstName?: StringFilter;
  @Field(() => StringFilter, { nullable: true, description: 'The last name.' })
  lastName?: StringFilter;
  @Field(() => StringFilter, { nullable: true, description: 'The e-mail address.' })
  emailAddress?: StringFilter;
  @Field(() => StringFilter, { nullable: true, description: "The user's IANA time zone name." })
  timeZone?: StringFilter;
  @Field(() => BooleanFilter, { nullable: true, description: 'Whether the user is enabled.' })
  active?: BooleanFilter;
  @Field(() => StaffTypeFilter, { nullable: true, description: "The user's role." })
  type?: StaffTypeFilter;
  @Field(() => IntFilter, { nullable: true, description: "The user's hourly rate in cents." })
  hourlyRateCents?: IntFilter;
}

export const STAFF_FILTER_FIELDS: FilterFields = {
  createdAt: 'createdAt',
  updatedAt: 'updatedAt',
  id: 'uuid',
  legacyId: 'id',
  login: 'login',
  firstName: 'firstName',
  lastName: 'lastName',
  emailAddress: 'emailAddress',
  timeZone: 'timeZone',
  active: 'active',
  type: 'type',
  hourlyRateCents: 'hourlyRateCents',
};

export enum StaffOrderField {
  LEGACY_ID = 'id',
  ID = 'uuid',
  LOGIN = 'login',
  FIRST_NAME = 'firstName',
  LAST_NAME = 'lastName',
  EMAIL_ADDRESS = 'emailAddress',
  TIME_ZONE = 'timeZone',
  ACTIVE = 'active',
  TYPE = 'type',
  HOURLY_RATE_CENTS = 'hourlyRateCents',
  CREATED_AT = 'createdAt',
  UPDATED_AT = 'updatedAt',
}
registerEnumType(StaffOrderField, {
  name: 'StaffOrderField',
  description: 'What users can be sorted by.',
  valuesConfig: {
    ...COMMON_ORDER_VALUES,
    LOGIN: { description: 'By login.' },
    FIRST_NAME: { description: 'By first name.' },
    LAST_NAME: { description: 'By last name.' },
    EMAIL_ADDRESS: { description: 'By e-mail address.' },
    TIME_ZONE: { description: 'By time zone name.' },
    ACTIVE: { description: 'By `active` (false first, ascending).' },
    TYPE: { description: 'By role.' },
    HOURLY_RATE_CENTS: { description: 'By hourly rate in cents.' },
  },
});
export const StaffOrder = OrderInput(StaffOrderField, 'StaffOrder');

/** The roles that may be given; the owner is made with the account. */
export enum AssignableStaffType {
  MANAGER = 'manager',
  STAFF = 'staff',
}
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
export class CreateStaffInput {
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
export class StaffInput {
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
