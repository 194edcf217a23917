import { Field, ID, InputType, Int, registerEnumType } from 'type-graphql';
import {
  BooleanFilter,
  DateTimeFilter,
  IDFilter,
  IntFilter,
  StaffTypeFilter,
  StringFilter,
  OrderInput,
  type FilterFields,
} from '../../common';

@InputType()
export class StaffFilter {
  @Field(() => [StaffFilter], { nullable: true }) and?: StaffFilter[];
  @Field(() => [StaffFilter], { nullable: true }) or?: StaffFilter[];
  @Field(() => StaffFilter, { nullable: true }) not?: StaffFilter;
  @Field(() => DateTimeFilter, { nullable: true }) createdAt?: DateTimeFilter;
  @Field(() => DateTimeFilter, {
    nullable: true,
    description:
      'Incremental sync: `{ gte: <watermark> }` finds what changed since (docs/sync.md).',
  })
  updatedAt?: DateTimeFilter;
  @Field(() => IDFilter, { nullable: true }) id?: IDFilter;
  @Field(() => IntFilter, { nullable: true }) legacyId?: IntFilter;
  @Field(() => StringFilter, { nullable: true }) login?: StringFilter;
  @Field(() => StringFilter, { nullable: true }) firstName?: StringFilter;
  @Field(() => StringFilter, { nullable: true }) lastName?: StringFilter;
  @Field(() => StringFilter, { nullable: true }) emailAddress?: StringFilter;
  @Field(() => StringFilter, { nullable: true }) timeZone?: StringFilter;
  @Field(() => BooleanFilter, { nullable: true }) active?: BooleanFilter;
  @Field(() => StaffTypeFilter, { nullable: true }) type?: StaffTypeFilter;
  @Field(() => IntFilter, { nullable: true }) hourlyRateCents?: IntFilter;
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
registerEnumType(StaffOrderField, { name: 'StaffOrderField' });
export const StaffOrder = OrderInput(StaffOrderField, 'StaffOrder');

/** The roles that may be given; the owner is made with the account. */
export enum AssignableStaffType {
  MANAGER = 'manager',
  STAFF = 'staff',
}
registerEnumType(AssignableStaffType, { name: 'AssignableStaffType' });

@InputType()
export class CreateStaffInput {
  @Field(() => ID, {
    nullable: true,
    description: 'A uuid of your choice; generated when omitted.',
  })
  id?: string | null;
  // Nullable in the schema so that a missing value is a VALIDATION_FAILED naming the field.
  @Field(() => String, { nullable: true, description: 'Required.' }) login?: string;
  @Field(() => String, {
    nullable: true,
    description: 'Required; write-only; at least 8 characters.',
  })
  password?: string;
  @Field(() => String, { nullable: true }) firstName?: string;
  @Field(() => String, { nullable: true }) lastName?: string;
  @Field(() => String, { nullable: true }) emailAddress?: string;
  @Field(() => String, { nullable: true, description: 'IANA time zone; UTC when omitted.' })
  timeZone?: string;
  @Field(() => AssignableStaffType, { nullable: true }) type?: AssignableStaffType;
  @Field(() => Boolean, { nullable: true }) active?: boolean;
  @Field(() => Int, { nullable: true }) hourlyRateCents?: number | null;
}

@InputType({ description: 'Omitted fields keep their value.' })
export class UpdateStaffInput {
  @Field(() => String, { nullable: true }) login?: string;
  @Field(() => String, { nullable: true, description: 'Write-only; takes effect at once.' })
  password?: string;
  @Field(() => String, { nullable: true }) firstName?: string;
  @Field(() => String, { nullable: true }) lastName?: string;
  @Field(() => String, { nullable: true }) emailAddress?: string;
  @Field(() => String, { nullable: true }) timeZone?: string;
  @Field(() => AssignableStaffType, { nullable: true }) type?: AssignableStaffType;
  @Field(() => Boolean, { nullable: true }) active?: boolean;
  @Field(() => Int, { nullable: true }) hourlyRateCents?: number | null;
}
