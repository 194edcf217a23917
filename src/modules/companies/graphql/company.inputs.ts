import { Field, Float, ID, InputType, Int, registerEnumType } from 'type-graphql';
import {
  CompanyRef,
  COMMON_ORDER_VALUES,
  FILTER_DESCRIPTIONS,
  filterTypeDescription,
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

@InputType({ description: filterTypeDescription('companies') })
export class CompanyFilter {
  @Field(() => [CompanyFilter], { nullable: true, description: FILTER_DESCRIPTIONS.and })
  and?: CompanyFilter[];
  @Field(() => [CompanyFilter], { nullable: true, description: FILTER_DESCRIPTIONS.or })
  or?: CompanyFilter[];
  @Field(() => CompanyFilter, { nullable: true, description: FILTER_DESCRIPTIONS.not })
  not?: CompanyFilter;
  @Field(() => DateTimeFilter, { nullable: true, description: 'When it was created.' })
  createdAt?: DateTimeFilter;
  @Field(() => DateTimeFilter, {
    nullable: true,
    description:
      'When it last changed. Incremental sync: `{ gte: <watermark> }` finds what changed since (docs/sync.md).',
  })
  updatedAt?: DateTimeFilter;
  @Field(() => IDFilter, { nullable: true, description: "The company's uuid." })
  id?: IDFilter;
  @Field(() => IntFilter, { nullable: true, description: "The company's integer id." })
  legacyId?: IntFilter;
  @Field(() => StringFilter, { nullable: true, description: "The company's name." })
  name?: StringFilter;
  @Field(() => VisibilityFilter, { nullable: true, description: "The company's visibility." })
  visibility?: VisibilityFilter;
  @Field(() => StringFilter, {
    nullable: true,
    description: "The contact person's salutation (Mr, Ms, Dr, ...).",
  })
  contactSalutation?: StringFilter;
  @Field(() => StringFilter, { nullable: true, description: "The contact person's first name." })
  contactFirstName?: StringFilter;
  @Field(() => StringFilter, { nullable: true, description: "The contact person's last name." })
  contactLastName?: StringFilter;
  @Field(() => StringFilter, {
    nullable: true,
    description: "The contact person's e-mail address.",
  })
  contactEmailAddress?: StringFilter;
  @Field(() => StringFilter, {
    nullable: true,
    description: "The contact person's position in the company.",
  })
  contactPosition?: StringFilter;
  @Field(() => StringFilter, {
    nullable: true,
    description: "The contact person's home phone number.",
  })
  contactHomePhone?: StringFilter;
  @Field(() => StringFilter, {
    nullable: true,
    description: "The contact person's mobile phone number.",
  })
  contactMobilePhone?: StringFilter;
  @Field(() => StringFilter, { nullable: true, description: "The company's web site." })
  website?: StringFilter;
  @Field(() => StringFilter, { nullable: true, description: "The company's main phone number." })
  mainPhone?: StringFilter;
  @Field(() => StringFilter, { nullable: true, description: "The company's fax number." })
  faxPhone?: StringFilter;
  @Field(() => StringFilter, {
    nullable: true,
    description: "The street address of the company's main office.",
  })
  mainAddress?: StringFilter;
  @Field(() => StringFilter, {
    nullable: true,
    description: "The city of the company's main office.",
  })
  mainCity?: StringFilter;
  @Field(() => StringFilter, {
    nullable: true,
    description: "The state or region of the company's main office.",
  })
  mainState?: StringFilter;
  @Field(() => StringFilter, {
    nullable: true,
    description: "The postcode of the company's main office.",
  })
  mainPostcode?: StringFilter;
  @Field(() => StringFilter, {
    nullable: true,
    description: "The country of the company's main office.",
  })
  mainCountry?: StringFilter;
  @Field(() => StringFilter, { nullable: true, description: 'Free-text notes.' })
  notes?: StringFilter;
  @Field(() => FloatFilter, { nullable: true, description: 'The latitude of the main office.' })
  latitude?: FloatFilter;
  @Field(() => FloatFilter, { nullable: true, description: 'The longitude of the main office.' })
  longitude?: FloatFilter;
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
registerEnumType(CompanyOrderField, {
  name: 'CompanyOrderField',
  description: 'What companies can be sorted by.',
  valuesConfig: {
    ...COMMON_ORDER_VALUES,
    NAME: { description: 'By name.' },
    VISIBILITY: { description: 'By visibility.' },
    LATITUDE: { description: 'By latitude.' },
    LONGITUDE: { description: 'By longitude.' },
    ...Object.fromEntries(
      COMPANY_TEXT_FIELDS.map((field) => [
        orderValueOf(field),
        { description: `By \`${field}\`.` },
      ]),
    ),
  },
});
export const CompanyOrder = OrderInput(CompanyOrderField, 'CompanyOrder');

@InputType({ description: 'Omitted fields keep their value on update.' })
export class CompanyInput {
  @Field(() => String, {
    nullable: true,
    description: "The company's name; not blank, at most 255 characters.",
  })
  name?: string;
  @Field(() => Visibility, {
    nullable: true,
    description:
      'Who sees the company: PUBLIC everyone in the account, PRIVATE the owner and its creator, CUSTOM those and the listed users. PRIVATE when omitted on create.',
  })
  visibility?: Visibility;
  @Field(() => [ID], { nullable: true, description: 'Users of CUSTOM visibility, by uuid.' })
  userIds?: string[] | null;
  @Field(() => [Int], { nullable: true, description: 'Users of CUSTOM visibility, by integer id.' })
  userLegacyIds?: number[] | null;
  @Field(() => String, {
    nullable: true,
    description: "The contact person's salutation (Mr, Ms, Dr, ...).",
  })
  contactSalutation?: string | null;
  @Field(() => String, {
    nullable: true,
    description: "The contact person's first name.",
  })
  contactFirstName?: string | null;
  @Field(() => String, {
    nullable: true,
    description: "The contact person's last name.",
  })
  contactLastName?: string | null;
  @Field(() => String, {
    nullable: true,
    description: "The contact person's e-mail address.",
  })
  contactEmailAddress?: string | null;
  @Field(() => String, {
    nullable: true,
    description: "The contact person's position in the company.",
  })
  contactPosition?: string | null;
  @Field(() => String, {
    nullable: true,
    description: "The contact person's home phone number.",
  })
  contactHomePhone?: string | null;
  @Field(() => String, {
    nullable: true,
    description: "The contact person's mobile phone number.",
  })
  contactMobilePhone?: string | null;
  @Field(() => String, {
    nullable: true,
    description: "The company's web site.",
  })
  website?: string | null;
  @Field(() => String, {
    nullable: true,
    description: "The company's main phone number.",
  })
  mainPhone?: string | null;
  @Field(() => String, {
    nullable: true,
    description: "The company's fax number.",
  })
  faxPhone?: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'The street address of the main office.',
  })
  mainAddress?: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'The city of the main office.',
  })
  mainCity?: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'The state or region of the main office.',
  })
  mainState?: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'The postcode of the main office.',
  })
  mainPostcode?: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'The country of the main office.',
  })
  mainCountry?: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'Free-text notes, at most 10,000 characters.',
  })
  notes?: string | null;
  @Field(() => Float, {
    nullable: true,
    description:
      'Degrees, -90 to 90 (north positive). When both are left empty and all five address fields are filled, a save that sets the address looks them up.',
  })
  latitude?: number | null;
  @Field(() => Float, {
    nullable: true,
    description: 'Degrees, -180 to 180 (east positive); looked up like `latitude`.',
  })
  longitude?: number | null;
}

@InputType({ description: 'A new company (owners and managers).' })
export class CreateCompanyInput extends CompanyInput {
  @Field(() => String, { description: "The company's name; not blank, at most 255 characters." })
  override name!: string;

  @Field(() => ID, {
    nullable: true,
    description: 'A uuid of your choice; generated when omitted.',
  })
  id?: string | null;
}

@InputType({ description: 'Changes a company (owners and managers).' })
export class UpdateCompanyInput {
  @Field(() => CompanyRef, { description: 'The company to change.' })
  company!: CompanyRef;
  @Field(() => CompanyInput, {
    description: 'The fields to change; omitted ones keep their value.',
  })
  patch!: CompanyInput;
}

@InputType({ description: 'Deletes a company with its projects, activities and shifts.' })
export class DeleteCompanyInput {
  @Field(() => CompanyRef, { description: 'The company to delete.' })
  company!: CompanyRef;
}
