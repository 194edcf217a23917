import { Field, ID, InputType, Int, registerEnumType } from 'type-graphql';
import {
  ActivityRef,
  ProjectRef,
  DateTimeFilter,
  COMMON_ORDER_VALUES,
  FILTER_DESCRIPTIONS,
  filterTypeDescription,
  IDFilter,
  IntFilter,
  StringFilter,
  OrderInput,
  type FilterFields,
} from '../../common';

@InputType({ description: filterTypeDescription('activities') })
export class ActivityFilter {
  @Field(() => [ActivityFilter], { nullable: true, description: FILTER_DESCRIPTIONS.and })
  and?: ActivityFilter[];
  @Field(() => [ActivityFilter], { nullable: true, description: FILTER_DESCRIPTIONS.or })
  or?: ActivityFilter[];
  @Field(() => ActivityFilter, { nullable: true, description: FILTER_DESCRIPTIONS.not })
  not?: ActivityFilter;
  @Field(() => DateTimeFilter, { nullable: true, description: 'When it was created.' })
  createdAt?: DateTimeFilter;
  @Field(() => DateTimeFilter, {
    nullable: true,
    description:
      'When it last changed. Incremental sync: `{ gte: <watermark> }` finds what changed since (docs/sync.md).',
  })
  updatedAt?: DateTimeFilter;
  @Field(() => IDFilter, { nullable: true, description: "The activity's uuid." })
  id?: IDFilter;
  @Field(() => IntFilter, { nullable: true, description: "The activity's integer id." })
  legacyId?: IntFilter;
  @Field(() => StringFilter, { nullable: true, description: "The activity's name." })
  name?: StringFilter;
  @Field(() => IDFilter, { nullable: true, description: "The uuid of the activity's project." })
  projectId?: IDFilter;
  @Field(() => IntFilter, {
    nullable: true,
    description: "The integer id of the activity's project.",
  })
  projectLegacyId?: IntFilter;
}

export const ACTIVITY_FILTER_FIELDS: FilterFields = {
  createdAt: 'createdAt',
  updatedAt: 'updatedAt',
  id: 'uuid',
  legacyId: 'id',
  name: 'name',
  projectId: 'project.uuid',
  projectLegacyId: 'project.id',
};

export enum ActivityOrderField {
  LEGACY_ID = 'id',
  ID = 'uuid',
  NAME = 'name',
  CREATED_AT = 'createdAt',
  UPDATED_AT = 'updatedAt',
}
registerEnumType(ActivityOrderField, {
  name: 'ActivityOrderField',
  description: 'What activities can be sorted by.',
  valuesConfig: { ...COMMON_ORDER_VALUES, NAME: { description: 'By name.' } },
});
export const ActivityOrder = OrderInput(ActivityOrderField, 'ActivityOrder');

@InputType({ description: 'Omitted fields keep their value on update.' })
export class ActivityInput {
  @Field(() => String, {
    nullable: true,
    description: "The activity's name; not blank, at most 255 characters.",
  })
  name?: string;
}

@InputType({
  description:
    'A new activity of a project (owners and managers). Give the project by `projectId` or `projectLegacyId`.',
})
export class CreateActivityInput extends ActivityInput {
  @Field(() => String, { description: "The activity's name; not blank, at most 255 characters." })
  override name!: string;

  @Field(() => ID, {
    nullable: true,
    description: 'A uuid of your choice; generated when omitted.',
  })
  id?: string | null;
  @Field(() => ID, {
    nullable: true,
    description: "The activity's project (uuid); give this or `projectLegacyId`.",
  })
  projectId?: string;
  @Field(() => Int, {
    nullable: true,
    description: "The activity's project (integer id); give this or `projectId`.",
  })
  projectLegacyId?: number;
}

@InputType({ description: 'Renames an activity (owners and managers).' })
export class UpdateActivityInput {
  @Field(() => ActivityRef, { description: 'The activity to change.' })
  activity!: ActivityRef;
  @Field(() => ProjectRef, {
    nullable: true,
    description: 'Only if the activity belongs to this project.',
  })
  inProject?: ProjectRef | null;
  @Field(() => ActivityInput, {
    description: 'The fields to change; omitted ones keep their value.',
  })
  patch!: ActivityInput;
}

@InputType({ description: 'Deletes an activity (owners and managers).' })
export class DeleteActivityInput {
  @Field(() => ActivityRef, { description: 'The activity to delete.' })
  activity!: ActivityRef;
  @Field(() => ProjectRef, {
    nullable: true,
    description: 'Only if the activity belongs to this project.',
  })
  inProject?: ProjectRef | null;
}
