import { Field, ID, InputType, Int, registerEnumType } from 'type-graphql';
import {
  CompanyRef,
  ProjectRef,
  COMMON_ORDER_VALUES,
  FILTER_DESCRIPTIONS,
  filterTypeDescription,
  BooleanFilter,
  DateTimeFilter,
  IDFilter,
  IntFilter,
  StringFilter,
  VisibilityFilter,
  OrderInput,
  Visibility,
  type FilterFields,
} from '../../common';

@InputType({ description: filterTypeDescription('projects') })
export class ProjectFilter {
  @Field(() => [ProjectFilter], { nullable: true, description: FILTER_DESCRIPTIONS.and })
  and?: ProjectFilter[];
  @Field(() => [ProjectFilter], { nullable: true, description: FILTER_DESCRIPTIONS.or })
  or?: ProjectFilter[];
  @Field(() => ProjectFilter, { nullable: true, description: FILTER_DESCRIPTIONS.not })
  not?: ProjectFilter;
  @Field(() => DateTimeFilter, { nullable: true, description: 'When it was created.' })
  createdAt?: DateTimeFilter;
  @Field(() => DateTimeFilter, {
    nullable: true,
    description:
      'When it last changed. Incremental sync: `{ gte: <watermark> }` finds what changed since (docs/sync.md).',
  })
  updatedAt?: DateTimeFilter;
  @Field(() => IDFilter, { nullable: true, description: "The project's uuid." })
  id?: IDFilter;
  @Field(() => IntFilter, { nullable: true, description: "The project's integer id." })
  legacyId?: IntFilter;
  @Field(() => StringFilter, { nullable: true, description: "The project's name." })
  name?: StringFilter;
  @Field(() => BooleanFilter, {
    nullable: true,
    description: 'Whether the project can be punched in to.',
  })
  active?: BooleanFilter;
  @Field(() => VisibilityFilter, { nullable: true, description: "The project's visibility." })
  visibility?: VisibilityFilter;
  @Field(() => IDFilter, { nullable: true, description: "The uuid of the project's company." })
  companyId?: IDFilter;
  @Field(() => IntFilter, {
    nullable: true,
    description: "The integer id of the project's company.",
  })
  companyLegacyId?: IntFilter;
  @Field(() => IntFilter, {
    nullable: true,
    description: 'The time limit in seconds (null: none).',
  })
  timeLimit?: IntFilter;
  @Field(() => StringFilter, { nullable: true, description: 'The time limit as entered.' })
  timeLimitString?: StringFilter;
  @Field(() => StringFilter, { nullable: true, description: "The project's notes." })
  notes?: StringFilter;
  @Field(() => StringFilter, {
    nullable: true,
    description: 'The rate as entered; owners and managers only (READ_DENIED for a staff member).',
  })
  hourlyRate?: StringFilter;
  @Field(() => IntFilter, {
    nullable: true,
    description:
      'The hourly rate in cents; owners and managers only (READ_DENIED for a staff member).',
  })
  hourlyRateCents?: IntFilter;
  @Field(() => BooleanFilter, {
    nullable: true,
    description: 'Whether new shifts on the project are billable by default.',
  })
  billableByDefault?: BooleanFilter;
}

export const PROJECT_FILTER_FIELDS: FilterFields = {
  createdAt: 'createdAt',
  updatedAt: 'updatedAt',
  id: 'uuid',
  legacyId: 'id',
  name: 'name',
  active: 'active',
  visibility: 'visibility',
  companyId: 'company.uuid',
  companyLegacyId: 'company.id',
  timeLimit: 'timeLimit',
  timeLimitString: 'timeLimitString',
  notes: 'notes',
  hourlyRate: 'hourlyRate',
  hourlyRateCents: 'hourlyRateCents',
  billableByDefault: 'billableByDefault',
};

export enum ProjectOrderField {
  LEGACY_ID = 'id',
  ID = 'uuid',
  NAME = 'name',
  ACTIVE = 'active',
  VISIBILITY = 'visibility',
  COMPANY_ID = 'company.uuid',
  TIME_LIMIT = 'timeLimit',
  TIME_LIMIT_STRING = 'timeLimitString',
  NOTES = 'notes',
  HOURLY_RATE = 'hourlyRate',
  HOURLY_RATE_CENTS = 'hourlyRateCents',
  BILLABLE_BY_DEFAULT = 'billableByDefault',
  CREATED_AT = 'createdAt',
  UPDATED_AT = 'updatedAt',
}
registerEnumType(ProjectOrderField, {
  name: 'ProjectOrderField',
  description: 'What projects can be sorted by.',
  valuesConfig: {
    ...COMMON_ORDER_VALUES,
    NAME: { description: 'By name.' },
    ACTIVE: { description: 'By `active` (false first, ascending).' },
    VISIBILITY: { description: 'By visibility.' },
    COMPANY_ID: { description: "By the uuid of the project's company." },
    TIME_LIMIT: { description: 'By time limit in seconds.' },
    TIME_LIMIT_STRING: { description: 'By the time limit as entered (text).' },
    NOTES: { description: 'By notes (text).' },
    HOURLY_RATE: {
      description: 'By the rate as entered (text); owners and managers only (READ_DENIED).',
    },
    HOURLY_RATE_CENTS: {
      description: 'By hourly rate in cents; owners and managers only (READ_DENIED).',
    },
    BILLABLE_BY_DEFAULT: { description: 'By `billableByDefault` (false first, ascending).' },
  },
});
export const ProjectOrder = OrderInput(ProjectOrderField, 'ProjectOrder');

@InputType({ description: 'Omitted fields keep their value on update.' })
export class ProjectInput {
  @Field(() => String, {
    nullable: true,
    description: "The project's name; not blank, at most 255 characters.",
  })
  name?: string;
  @Field(() => ID, { nullable: true, description: 'Moves the project to another company (uuid).' })
  companyId?: string;
  @Field(() => Int, {
    nullable: true,
    description: 'Moves the project to another company (integer id).',
  })
  companyLegacyId?: number;
  @Field(() => Boolean, {
    nullable: true,
    description: 'Whether the project can be punched in to; true when omitted on create.',
  })
  active?: boolean;
  @Field(() => Visibility, {
    nullable: true,
    description:
      "Who sees the project (whatever its company's visibility): PUBLIC everyone in the account, PRIVATE the owner and its creator, CUSTOM those and the listed users. PRIVATE when omitted on create.",
  })
  visibility?: Visibility;
  @Field(() => [ID], {
    nullable: true,
    description: 'Users of CUSTOM visibility, by uuid; replaces the list.',
  })
  userIds?: string[] | null;
  @Field(() => [Int], {
    nullable: true,
    description: 'Users of CUSTOM visibility, by integer id; replaces the list.',
  })
  userLegacyIds?: number[] | null;
  @Field(() => Int, { nullable: true, description: 'Seconds.' }) timeLimit?: number | null;
  @Field(() => String, {
    nullable: true,
    description:
      'The time limit as written ("12h", "2h 30m", "1:30"); fills `timeLimit` when that is omitted or null.',
  })
  timeLimitString?: string | null;
  @Field(() => [String], {
    nullable: true,
    description:
      'Tags copied onto each new running shift on punch-in; at most 50 of up to 64 characters. Give this or `defaultTagsText`.',
  })
  defaultTags?: string[];
  @Field(() => String, {
    nullable: true,
    description:
      'Comma-separated, kept as written; sets `defaultTags`. Give this or `defaultTags`.',
  })
  defaultTagsText?: string | null;
  @Field(() => [String], {
    nullable: true,
    description:
      'Tags of the project itself (shifts do not get them); at most 50 of up to 64 characters.',
  })
  tagList?: string[];
  @Field(() => String, {
    nullable: true,
    description: 'Free-text notes, at most 10,000 characters.',
  })
  notes?: string | null;
  @Field(() => String, {
    nullable: true,
    description:
      'The hourly rate as written ("$85", "$12.50"); fills `hourlyRateCents` when that is omitted or null.',
  })
  hourlyRate?: string | null;
  @Field(() => Int, {
    nullable: true,
    description: 'The hourly rate in cents; not negative.',
  })
  hourlyRateCents?: number | null;
  @Field(() => Int, {
    nullable: true,
    description: 'The amount invoiced for the project, in cents.',
  })
  invoiceAmountCents?: number | null;
  @Field(() => Boolean, {
    nullable: true,
    description:
      'The default of `billable` for new shifts on the project; true when omitted on create.',
  })
  billableByDefault?: boolean;
}

@InputType({
  description:
    'A new project of a company (owners and managers): give the company by `companyId` or `companyLegacyId`.',
})
export class CreateProjectInput extends ProjectInput {
  @Field(() => String, { description: "The project's name; not blank, at most 255 characters." })
  override name!: string;

  @Field(() => ID, {
    nullable: true,
    description: 'A uuid of your choice; generated when omitted.',
  })
  id?: string | null;

  // Redeclared for its description: on create the company is the project's, not a move.
  @Field(() => ID, {
    nullable: true,
    description: "The project's company (uuid); give this or `companyLegacyId`.",
  })
  override companyId?: string;

  @Field(() => Int, {
    nullable: true,
    description: "The project's company (integer id); give this or `companyId`.",
  })
  override companyLegacyId?: number;
}

@InputType({ description: 'Changes a project (owners and managers).' })
export class UpdateProjectInput {
  @Field(() => ProjectRef, { description: 'The project to change.' })
  project!: ProjectRef;
  @Field(() => CompanyRef, {
    nullable: true,
    description: 'Only if the project belongs to this company.',
  })
  inCompany?: CompanyRef | null;
  @Field(() => ProjectInput, {
    description: 'The fields to change; omitted ones keep their value.',
  })
  patch!: ProjectInput;
}

@InputType({ description: 'Deletes a project with its activities and shifts.' })
export class DeleteProjectInput {
  @Field(() => ProjectRef, { description: 'The project to delete.' })
  project!: ProjectRef;
  @Field(() => CompanyRef, {
    nullable: true,
    description: 'Only if the project belongs to this company.',
  })
  inCompany?: CompanyRef | null;
}
