import {
  CompanyRef,
  ProjectRef,
  DateTimeISOResolver,
  BooleanFilter,
  DateTimeFilter,
  IDFilter,
  IntFilter,
  StringFilter,
  OrderInput,
  type FilterFields,
} from '../../common';
import { Field, ID, InputType, Int, registerEnumType } from 'type-graphql';

@InputType()
export class ShiftFilter {
  @Field(() => [ShiftFilter], { nullable: true }) and?: ShiftFilter[];
  @Field(() => [ShiftFilter], { nullable: true }) or?: ShiftFilter[];
  @Field(() => ShiftFilter, { nullable: true }) not?: ShiftFilter;
  @Field(() => IDFilter, { nullable: true }) id?: IDFilter;
  @Field(() => IntFilter, { nullable: true }) legacyId?: IntFilter;
  @Field(() => DateTimeFilter, { nullable: true }) start?: DateTimeFilter;
  @Field(() => DateTimeFilter, { nullable: true }) stop?: DateTimeFilter;
  @Field(() => StringFilter, { nullable: true }) notes?: StringFilter;
  @Field(() => StringFilter, { nullable: true }) timeZone?: StringFilter;
  @Field(() => BooleanFilter, { nullable: true }) billable?: BooleanFilter;
  @Field(() => IDFilter, { nullable: true }) projectId?: IDFilter;
  @Field(() => IntFilter, { nullable: true }) projectLegacyId?: IntFilter;
  @Field(() => IDFilter, { nullable: true }) userId?: IDFilter;
  @Field(() => IntFilter, { nullable: true }) userLegacyId?: IntFilter;
  @Field(() => IDFilter, { nullable: true }) activityId?: IDFilter;
  @Field(() => IntFilter, { nullable: true }) activityLegacyId?: IntFilter;
  @Field(() => StringFilter, { nullable: true }) externalHref?: StringFilter;
}

export const SHIFT_FILTER_FIELDS: FilterFields = {
  id: 'uuid',
  legacyId: 'id',
  start: 'start',
  stop: 'stop',
  notes: 'notes',
  timeZone: 'timeZone',
  billable: 'billable',
  projectId: 'project.uuid',
  projectLegacyId: 'project.id',
  userId: 'user.uuid',
  userLegacyId: 'user.id',
  activityId: 'activity.uuid',
  activityLegacyId: 'activity.id',
  externalHref: 'externalHref',
};

export enum ShiftOrderField {
  LEGACY_ID = 'id',
  ID = 'uuid',
  START = 'start',
  STOP = 'stop',
  NOTES = 'notes',
  BILLABLE = 'billable',
  TIME_ZONE = 'timeZone',
  PROJECT_ID = 'project.uuid',
  USER_ID = 'user.uuid',
  ACTIVITY_ID = 'activity.uuid',
  EXTERNAL_HREF = 'externalHref',
  CREATED_AT = 'createdAt',
}
registerEnumType(ShiftOrderField, { name: 'ShiftOrderField' });
export const ShiftOrder = OrderInput(ShiftOrderField, 'ShiftOrder');

@InputType({ description: 'Omitted fields keep their value on update.' })
export class ShiftInput {
  @Field(() => DateTimeISOResolver, { nullable: true }) start?: Date;
  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'Null or omitted on create: the shift is running.',
  })
  stop?: Date | null;
  @Field(() => String, {
    nullable: true,
    description: "Human-readable wall time in the shift's zone; overrides start.",
  })
  localStartAsString?: string | null;
  @Field(() => String, {
    nullable: true,
    description: "Human-readable wall time in the shift's zone; overrides stop.",
  })
  localStopAsString?: string | null;
  @Field(() => String, { nullable: true, description: "IANA zone; the user's zone when omitted." })
  timeZone?: string;
  @Field(() => String, { nullable: true }) notes?: string | null;
  @Field(() => Boolean, {
    nullable: true,
    description: "The project's billableByDefault when omitted.",
  })
  billable?: boolean;
  @Field(() => [String], { nullable: true }) tagList?: string[];
  @Field(() => String, { nullable: true }) externalHref?: string | null;
  @Field(() => ID, { nullable: true }) activityId?: string | null;
  @Field(() => Int, { nullable: true }) activityLegacyId?: number | null;
  @Field(() => ID, { nullable: true, description: 'Moves the shift to another project (uuid).' })
  projectId?: string;
  @Field(() => Int, {
    nullable: true,
    description: 'Moves the shift to another project (integer id).',
  })
  projectLegacyId?: number;
  @Field(() => ID, { nullable: true, description: 'The user who worked; the caller when omitted.' })
  userId?: string;
  @Field(() => Int, { nullable: true }) userLegacyId?: number;
}

@InputType({
  description:
    'A new shift: running when `stop` is omitted or null. Give the project by `projectId` or `projectLegacyId`, and `start` or `localStartAsString`.',
})
export class CreateShiftInput extends ShiftInput {
  @Field(() => ID, {
    nullable: true,
    description: 'A uuid of your choice; generated when omitted.',
  })
  id?: string | null;

  // Redeclared for its description: on create the project is the shift's, not a move.
  @Field(() => ID, {
    nullable: true,
    description: "The shift's project (uuid); give this or `projectLegacyId`.",
  })
  override projectId?: string;

  @Field(() => Int, {
    nullable: true,
    description: "The shift's project (integer id); give this or `projectId`.",
  })
  override projectLegacyId?: number;
}

/** What the running shift starts with; the project and its company are named beside it. */
export class PunchInFields {
  activityId?: string | null;
  activityLegacyId?: number | null;
  notes?: string | null;
  tagList?: string[] | null;
}

@InputType({ description: 'Starts a running shift for the caller on a project.' })
export class PunchInInput implements PunchInFields {
  @Field(() => ProjectRef, { description: 'The project to punch in to.' })
  project!: ProjectRef;

  @Field(() => CompanyRef, {
    nullable: true,
    description: 'Only if the project belongs to this company.',
  })
  inCompany?: CompanyRef | null;

  @Field(() => ID, {
    nullable: true,
    description: "The running shift's activity (uuid); one of the project's activities.",
  })
  activityId?: string | null;

  @Field(() => Int, {
    nullable: true,
    description: "The running shift's activity (integer id); give this or `activityId`.",
  })
  activityLegacyId?: number | null;

  @Field(() => String, { nullable: true, description: "The running shift's notes." })
  notes?: string | null;

  @Field(() => [String], {
    nullable: true,
    description: "Tags of the running shift, added to the project's default tags.",
  })
  tagList?: string[] | null;
}

@InputType({ description: "Stops the caller's running shift on a project." })
export class PunchOutInput {
  @Field(() => ProjectRef, { description: 'The project to punch out of.' })
  project!: ProjectRef;

  @Field(() => CompanyRef, {
    nullable: true,
    description: 'Only if the project belongs to this company.',
  })
  inCompany?: CompanyRef | null;

  @Field(() => String, {
    nullable: true,
    description: "Appended to the stopped shift's notes on a line of their own.",
  })
  notes?: string | null;
}
