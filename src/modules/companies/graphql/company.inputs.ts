import { Field, Float, ID, InputType, Int, registerEnumType } from 'type-graphql';
import {
  FloatFilter,
  DateTimeFilter,
  IDFilter,
  IntFilter,
  StringFilter,
  VisibilityFilter,
  OrderInput,
  Visibility,
  type FilterFields,
} from '../../common';

const CONTACT_FIELDS = [
  'contactSalutation',
  'contactFirstName',
  'contactLastName',
  'contactEmailAddress',
  'contactPosition',
  'contactHomePhone',
  'contactMobilePhone',
  'website',
  'mainPhone',
  'faxPhone',
  'mainAddress',
  'mainCity',
  'mainState',
  'mainPostcode',
  'mainCountry',
] as const;
export const COMPANY_TEXT_FIELDS = [...CONTACT_FIELDS, 'notes'] as const;

@InputType()
export class CompanyFilter {
  @Field(() => [CompanyFilter], { nullable: true }) and?: CompanyFilter[];
  @Field(() => [CompanyFilter], { nullable: true }) or?: CompanyFilter[];
  @Field(() => CompanyFilter, { nullable: true }) not?: CompanyFilter;
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
  @Field(() => VisibilityFilter, { nullable: true }) visibility?: VisibilityFilter;
  @Field(() => StringFilter, { nullable: true }) contactSalutation?: StringFilter;
  @Field(() => StringFilter, { nullable: true }) contactFirstName?: StringFilter;
  @Field(() => StringFilter, { nullable: true }) contactLastName?: StringFilter;
  @Field(() => StringFilter, { nullable: true }) contactEmailAddress?: StringFilter;
  @Field(() => StringFilter, { nullable: true }) contactPosition?: StringFilter;
  @Field(() => StringFilter, { nullable: true }) contactHomePhone?: StringFilter;
  @Field(() => StringFilter, { nullable: true }) contactMobilePhone?: StringFilter;
  @Field(() => StringFilter, { nullable: true }) website?: StringFilter;
  @Field(() => StringFilter, { nullable: true }) mainPhone?: StringFilter;
  @Field(() => StringFilter, { nullable: true }) faxPhone?: StringFilter;
  @Field(() => StringFilter, { nullable: true }) mainAddress?: StringFilter;
  @Field(() => StringFilter, { nullable: true }) mainCity?: StringFilter;
  @Field(() => StringFilter, { nullable: true }) mainState?: StringFilter;
  @Field(() => StringFilter, { nullable: true }) mainPostcode?: StringFilter;
  @Field(() => StringFilter, { nullable: true }) mainCountry?: StringFilter;
  @Field(() => StringFilter, { nullable: true }) notes?: StringFilter;
  @Field(() => FloatFilter, { nullable: true }) latitude?: FloatFilter;
  @Field(() => FloatFilter, { nullable: true }) longitude?: FloatFilter;
}

export const COMPANY_FILTER_FIELDS: FilterFields = {
  createdAt: 'createdAt',
  updatedAt: 'updatedAt',
  id: 'uuid',
  legacyId: 'id',
  name: 'name',
  visibility: 'visibility',
  latitude: 'latitude',
  longitude: 'longitude',
  ...Object.fromEntries(COMPANY_TEXT_FIELDS.map((f) => [f, f])),
};

/** `contactFirstName` → `CONTACT_FIRST_NAME`, the order value of a text field. */
const orderValueOf = (field: string): string =>
  field.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase();

/** Every filterable field orders too, the text fields included (so does the legacy `order`). */
export const CompanyOrderField = {
  LEGACY_ID: 'id',
  ID: 'uuid',
  NAME: 'name',
  VISIBILITY: 'visibility',
  LATITUDE: 'latitude',
  LONGITUDE: 'longitude',
  CREATED_AT: 'createdAt',
  UPDATED_AT: 'updatedAt',
  ...Object.fromEntries(COMPANY_TEXT_FIELDS.map((field) => [orderValueOf(field), field])),
};
registerEnumType(CompanyOrderField, { name: 'CompanyOrderField' });
export const CompanyOrder = OrderInput(CompanyOrderField, 'CompanyOrder');

@InputType({ description: 'Omitted fields keep their value on update.' })
export class CompanyInput {
  @Field(() => String, { nullable: true }) name?: string;
  @Field(() => Visibility, { nullable: true }) visibility?: Visibility;
  @Field(() => [ID], { nullable: true, description: 'Users of CUSTOM visibility, by uuid.' })
  userIds?: string[] | null;
  @Field(() => [Int], { nullable: true, description: 'Users of CUSTOM visibility, by integer id.' })
  userLegacyIds?: number[] | null;
  @Field(() => String, { nullable: true }) contactSalutation?: string | null;
  @Field(() => String, { nullable: true }) contactFirstName?: string | null;
  @Field(() => String, { nullable: true }) contactLastName?: string | null;
  @Field(() => String, { nullable: true }) contactEmailAddress?: string | null;
  @Field(() => String, { nullable: true }) contactPosition?: string | null;
  @Field(() => String, { nullable: true }) contactHomePhone?: string | null;
  @Field(() => String, { nullable: true }) contactMobilePhone?: string | null;
  @Field(() => String, { nullable: true }) website?: string | null;
  @Field(() => String, { nullable: true }) mainPhone?: string | null;
  @Field(() => String, { nullable: true }) faxPhone?: string | null;
  @Field(() => String, { nullable: true }) mainAddress?: string | null;
  @Field(() => String, { nullable: true }) mainCity?: string | null;
  @Field(() => String, { nullable: true }) mainState?: string | null;
  @Field(() => String, { nullable: true }) mainPostcode?: string | null;
  @Field(() => String, { nullable: true }) mainCountry?: string | null;
  @Field(() => String, { nullable: true }) notes?: string | null;
  @Field(() => Float, { nullable: true }) latitude?: number | null;
  @Field(() => Float, { nullable: true }) longitude?: number | null;
}

@InputType()
export class CreateCompanyInput extends CompanyInput {
  @Field(() => ID, {
    nullable: true,
    description: 'A uuid of your choice; generated when omitted.',
  })
  id?: string | null;
}
