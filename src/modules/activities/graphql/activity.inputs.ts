import { Field, ID, InputType, Int, registerEnumType } from 'type-graphql';
import {
  DateTimeFilter,
  IDFilter,
  IntFilter,
  StringFilter,
  OrderInput,
  type FilterFields,
} from '../../common';

@InputType()
export class ActivityFilter {
  @Field(() => [ActivityFilter], { nullable: true }) and?: ActivityFilter[];
  @Field(() => [ActivityFilter], { nullable: true }) or?: ActivityFilter[];
  @Field(() => ActivityFilter, { nullable: true }) not?: ActivityFilter;
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
  @Field(() => IDFilter, { nullable: true }) projectId?: IDFilter;
  @Field(() => IntFilter, { nullable: true }) projectLegacyId?: IntFilter;
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
registerEnumType(ActivityOrderField, { name: 'ActivityOrderField' });
export const ActivityOrder = OrderInput(ActivityOrderField, 'ActivityOrder');

@InputType({ description: 'Omitted fields keep their value on update.' })
export class ActivityInput {
  @Field(() => String, { nullable: true }) name?: string;
}

@InputType()
export class CreateActivityInput extends ActivityInput {
  @Field(() => ID, {
    nullable: true,
    description: 'A uuid of your choice; generated when omitted.',
  })
  id?: string | null;
  @Field(() => ID, { nullable: true }) projectId?: string;
  @Field(() => Int, { nullable: true }) projectLegacyId?: number;
}
