import { Field, ID, InputType, Int, registerEnumType } from 'type-graphql';
import {
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

@InputType()
export class ProjectFilter {
  @Field(() => [ProjectFilter], { nullable: true }) and?: ProjectFilter[];
  @Field(() => [ProjectFilter], { nullable: true }) or?: ProjectFilter[];
  @Field(() => ProjectFilter, { nullable: true }) not?: ProjectFilter;
  @Field(() => DateTimeFilter, { nullable: true }) createdAt?: DateTimeFilter;
  @Field(() => DateTimeFilter, {
    nullable: true,
    description:
      'Incremental sync: `{ gte: <watermark> }` finds what changed since (docs/sync.md).',
  })
  updatedAt?: DateTimeFilter;
  @Field(() => IDFilter, { nullable: true }) id?: IDFilter;
  @Field(() => IntFilter, { nullable: true }) legacyId?: IntFilter;
  @Field(() => StringFilter, { nullable: true }) name?: StringFilter;
  @Field(() => BooleanFilter, { nullable: true }) active?: BooleanFilter;
  @Field(() => VisibilityFilter, { nullable: true }) visibility?: VisibilityFilter;
  @Field(() => IDFilter, { nullable: true }) companyId?: IDFilter;
  @Field(() => IntFilter, { nullable: true }) companyLegacyId?: IntFilter;
  @Field(() => IntFilter, { nullable: true }) timeLimit?: IntFilter;
  @Field(() => StringFilter, { nullable: true }) timeLimitString?: StringFilter;
  @Field(() => StringFilter, { nullable: true }) notes?: StringFilter;
  @Field(() => StringFilter, { nullable: true }) hourlyRate?: StringFilter;
  @Field(() => IntFilter, { nullable: true }) hourlyRateCents?: IntFilter;
  @Field(() => BooleanFilter, { nullable: true }) billableByDefault?: BooleanFilter;
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
registerEnumType(ProjectOrderField, { name: 'ProjectOrderField' });
export const ProjectOrder = OrderInput(ProjectOrderField, 'ProjectOrder');

@InputType({ description: 'Omitted fields keep their value on update.' })
export class ProjectInput {
  @Field(() => String, { nullable: true }) name?: string;
  @Field(() => ID, { nullable: true, description: 'Moves the project to another company (uuid).' })
  companyId?: string;
  @Field(() => Int, {
    nullable: true,
    description: 'Moves the project to another company (integer id).',
  })
  companyLegacyId?: number;
  @Field(() => Boolean, { nullable: true }) active?: boolean;
  @Field(() => Visibility, { nullable: true }) visibility?: Visibility;
  @Field(() => [ID], { nullable: true }) userIds?: string[] | null;
  @Field(() => [Int], { nullable: true }) userLegacyIds?: number[] | null;
  @Field(() => Int, { nullable: true, description: 'Seconds.' }) timeLimit?: number | null;
  @Field(() => String, { nullable: true }) timeLimitString?: string | null;
  @Field(() => [String], { nullable: true }) defaultTags?: string[];
  @Field(() => String, {
    nullable: true,
    description:
      'Comma-separated, kept as written; sets `defaultTags`. Give this or `defaultTags`.',
  })
  defaultTagsText?: string | null;
  @Field(() => [String], { nullable: true }) tagList?: string[];
  @Field(() => String, { nullable: true }) notes?: string | null;
  @Field(() => String, { nullable: true }) hourlyRate?: string | null;
  @Field(() => Int, { nullable: true }) hourlyRateCents?: number | null;
  @Field(() => Int, { nullable: true }) invoiceAmountCents?: number | null;
  @Field(() => Boolean, { nullable: true }) billableByDefault?: boolean;
}

@InputType()
export class CreateProjectInput extends ProjectInput {
  @Field(() => ID, {
    nullable: true,
    description: 'A uuid of your choice; generated when omitted.',
  })
  id?: string | null;
}
