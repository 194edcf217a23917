import {
  COMMON_ORDER_VALUES,
  FILTER_DESCRIPTIONS,
  filterTypeDescription,
  CompanyRef,
  ProjectRef,
  ShiftRef,
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

@InputType({ description: filterTypeDescription('shifts') })
export class ShiftFilter {
  @Field(() => [ShiftFilter], { nullable: true, description: FILTER_DESCRIPTIONS.and })
  and?: ShiftFilter[];
  @Field(() => [ShiftFilter], { nullable: true, description: FILTER_DESCRIPTIONS.or })
  or?: ShiftFilter[];
  @Field(() => ShiftFilter, { nullable: true, description: FILTER_DESCRIPTIONS.not })
  not?: ShiftFilter;
  @Field(() => DateTimeFilter, { nullable: true, description: 'When it was created.' })
  createdAt?: DateTimeFilter;
  @Field(() => DateTimeFilter, {
    nullable: true,
    description:
      'When it last changed. Incremental sync: `{ gte: <watermark> }` finds what changed since (docs/sync.md).',
  })
  updatedAt?: DateTimeFilter;
  @Field(() => IDFilter, { nullable: true, description: "The shift's uuid." })
  id?: IDFilter;
  @Field(() => IntFilter, { nullable: true, description: "The shift's integer id." })
  legacyId?: IntFilter;
  @Field(() => DateTimeFilter, { nullable: true, description: 'When the shift started.' })
  start?: DateTimeFilter;
  @Field(() => DateTimeFilter, {
    nullable: true,
    description: 'When the shift stopped; `isNull: true` selects running shifts.',
  })
  stop?: DateTimeFilter;
  @Field(() => StringFilter, { nullable: true, description: "The shift's notes." })
  notes?: StringFilter;
  @Field(() => StringFilter, { nullable: true, description: "The shift's IANA time zone name." })
  timeZone?: StringFilter;
  @Field(() => BooleanFilter, { nullable: true, description: 'Whether the shift is billable.' })
  billable?: BooleanFilter;
  @Field(() => IDFilter, { nullable: true, description: "The uuid of the shift's project." })
  projectId?: IDFilter;
  @Field(() => IntFilter, { nullable: true, description: "The integer id of the shift's project." })
  projectLegacyId?: IntFilter;
  @Field(() => IDFilter, { nullable: true, description: 'The uuid of the user who worked.' })
  userId?: IDFilter;
  @Field(() => IntFilter, { nullable: true, description: 'The integer id of the user who worked.' })
  userLegacyId?: IntFilter;
  @Field(() => IDFilter, {
    nullable: true,
    description: "The uuid of the shift's activity (`isNull: true`: shifts without one).",
  })
  activityId?: IDFilter;
  @Field(() => IntFilter, {
    nullable: true,
    description: "The integer id of the shift's activity.",
  })
  activityLegacyId?: IntFilter;
  @Field(() => StringFilter, {
    nullable: true,
    description: 'Where the shift came from (`externalHref`).',
  })
  externalHref?: StringFilter;
}

export const SHIFT_FILTER_FIELDS: FilterFields = {
  createdAt: 'createdAt',
  updatedAt: 'updatedAt',
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
  UPDATED_AT = 'updatedAt',
}
registerEnumType(ShiftOrderField, {
  name: 'ShiftOrderField',
  description: 'What shifts can be sorted by.',
  valuesConfig: {
    ...COMMON_ORDER_VALUES,
    START: { description: 'By start.' },
    STOP: { description: 'By stop (running shifts, with no stop, last ascending).' },
    NOTES: { description: 'By notes (text).' },
    BILLABLE: { description: 'By `billable` (false first, ascending).' },
    TIME_ZONE: { description: 'By time zone name.' },
    PROJECT_ID: { description: "By the uuid of the shift's project." },
    USER_ID: { description: 'By the uuid of the user who worked.' },
    ACTIVITY_ID: { description: "By the uuid of the shift's activity." },
    EXTERNAL_HREF: { description: 'By `externalHref`.' },
  },
});
export const ShiftOrder = OrderInput(ShiftOrderField, 'ShiftOrder');

@InputType({ description: 'Omitted fields keep their value on update.' })
export class ShiftInput {
  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'When the shift started; required on create unless `localStartAsString` is given.',
  })
  start?: Date;
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
  @Field(() => String, {
    nullable: true,
    description: "IANA zone; the user's zone when omitted on create.",
  })
  timeZone?: string;
  @Field(() => String, {
    nullable: true,
    description: 'Free-text notes, at most 10,000 characters.',
  })
  notes?: string | null;
  @Field(() => Boolean, {
    nullable: true,
    description: "The project's billableByDefault when omitted.",
  })
  billable?: boolean;
  @Field(() => [String], {
    nullable: true,
    description:
      "The shift's tags; at most 50 of up to 64 characters. None when omitted on create.",
  })
  tagList?: string[];
  @Field(() => String, {
    nullable: true,
    description:
      'Where the shift came from, when created on an external site; at most 2048 characters.',
  })
  externalHref?: string | null;
  @Field(() => ID, {
    nullable: true,
    description: "One of the project's activities (uuid); null: none.",
  })
  activityId?: string | null;
  @Field(() => Int, {
    nullable: true,
    description: "One of the project's activities (integer id); give this or `activityId`.",
  })
  activityLegacyId?: number | null;
  @Field(() => ID, { nullable: true, description: 'Moves the shift to another project (uuid).' })
  projectId?: string;
  @Field(() => Int, {
    nullable: true,
    description: 'Moves the shift to another project (integer id).',
  })
  projectLegacyId?: number;
  @Field(() => ID, {
    nullable: true,
    description:
      'The user who worked (uuid); the caller when omitted on create. Only owners and managers may name another user.',
  })
  userId?: string;
  @Field(() => Int, {
    nullable: true,
    description: 'The user who worked (integer id); give this or `userId`.',
  })
  userLegacyId?: number;
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

@InputType({ description: 'Changes a shift (its user, or an owner or manager).' })
export class UpdateShiftInput {
  @Field(() => ShiftRef, { description: 'The shift to change.' })
  shift!: ShiftRef;
  @Field(() => ProjectRef, {
    nullable: true,
    description: 'Only if the shift belongs to this project.',
  })
  inProject?: ProjectRef | null;
  @Field(() => ShiftInput, { description: 'The fields to change; omitted ones keep their value.' })
  patch!: ShiftInput;
}

@InputType({ description: 'Deletes a shift (its user, or an owner or manager).' })
export class DeleteShiftInput {
  @Field(() => ShiftRef, { description: 'The shift to delete.' })
  shift!: ShiftRef;
  @Field(() => ProjectRef, {
    nullable: true,
    description: 'Only if the shift belongs to this project.',
  })
  inProject?: ProjectRef | null;
}
