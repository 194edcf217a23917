import { Entity, Enum, ManyToOne, Property, type Ref } from '@mikro-orm/core';
import { Field, Float, ObjectType } from 'type-graphql';
import { z } from 'zod';
import { Declared, Node, Visibility } from '../common';
import { fields } from '../writes';
import { TenantEntity } from '../accounts';
import { Staff } from '../staff';

@ObjectType({ description: 'A client company; it groups projects.', implements: Node })
@Entity({ tableName: 'companies' })
export class Company extends TenantEntity<'visibility'> {
  @Field(() => String, { description: "The company's name." })
  @Property({ type: 'string', length: 255 })
  @Declared({
    filter: true,
    order: 'NAME',
    input: fields.requiredText(),
    legacy: { json: 'name', xml: true },
  })
  name!: string;

  @Field(() => Visibility, {
    description:
      'Who sees the company: PUBLIC everyone in the account, PRIVATE the owner and its creator, CUSTOM those and the users in `users`.',
  })
  @Enum({ items: () => Visibility })
  @Declared({
    filter: true,
    order: 'VISIBILITY',
    input: z.enum(Visibility),
    legacy: { json: 'visibility', xml: true },
  })
  visibility: Visibility = Visibility.PRIVATE;

  @ManyToOne(() => Staff, { ref: true, nullable: true, deleteRule: 'set null' })
  createdBy: Ref<Staff> | null = null;

  // In the order of the legacy XML company's elements (docs/xml-api.md), which the declarations keep.
  @Field(() => String, {
    nullable: true,
    description: "The company's web site.",
  })
  @Property({ type: 'string', length: 255, nullable: true })
  @Declared({
    filter: true,
    order: 'WEBSITE',
    input: fields.text().nullable(),
    legacy: { json: 'website', xml: true },
  })
  website: string | null = null;

  @Field(() => String, {
    nullable: true,
    description: "The company's main phone number.",
  })
  @Property({ type: 'string', length: 255, nullable: true })
  @Declared({
    filter: true,
    order: 'MAIN_PHONE',
    input: fields.text().nullable(),
    legacy: { json: 'main_phone', xml: true },
  })
  mainPhone: string | null = null;

  @Field(() => String, {
    nullable: true,
    description: "The company's fax number.",
  })
  @Property({ type: 'string', length: 255, nullable: true })
  @Declared({
    filter: true,
    order: 'FAX_PHONE',
    input: fields.text().nullable(),
    legacy: { json: 'fax_phone', xml: true },
  })
  faxPhone: string | null = null;

  @Field(() => String, {
    nullable: true,
    description: "The street address of the company's main office.",
  })
  @Property({ type: 'string', length: 255, nullable: true })
  @Declared({
    filter: true,
    order: 'MAIN_ADDRESS',
    input: fields.text().nullable(),
    legacy: { json: 'main_address', xml: true },
  })
  mainAddress: string | null = null;

  @Field(() => String, {
    nullable: true,
    description: "The city of the company's main office.",
  })
  @Property({ type: 'string', length: 255, nullable: true })
  @Declared({
    filter: true,
    order: 'MAIN_CITY',
    input: fields.text().nullable(),
    legacy: { json: 'main_city', xml: true },
  })
  mainCity: string | null = null;

  @Field(() => String, {
    nullable: true,
    description: "The state or region of the company's main office.",
  })
  @Property({ type: 'string', length: 255, nullable: true })
  @Declared({
    filter: true,
    order: 'MAIN_STATE',
    input: fields.text().nullable(),
    legacy: { json: 'main_state', xml: true },
  })
  mainState: string | null = null;

  @Field(() => String, {
    nullable: true,
    description: "The postcode of the company's main office.",
  })
  @Property({ type: 'string', length: 255, nullable: true })
  @Declared({
    filter: true,
    order: 'MAIN_POSTCODE',
    input: fields.text().nullable(),
    legacy: { json: 'main_postcode', xml: true },
  })
  mainPostcode: string | null = null;

  @Field(() => String, {
    nullable: true,
    description: "The country of the company's main office.",
  })
  @Property({ type: 'string', length: 255, nullable: true })
  @Declared({
    filter: true,
    order: 'MAIN_COUNTRY',
    input: fields.text().nullable(),
    legacy: { json: 'main_country', xml: true },
  })
  mainCountry: string | null = null;

  @Field(() => String, {
    nullable: true,
    description: "The contact person's salutation (Mr, Ms, Dr, ...).",
  })
  @Property({ type: 'string', length: 255, nullable: true })
  @Declared({
    filter: true,
    order: 'CONTACT_SALUTATION',
    input: fields.text().nullable(),
    legacy: { json: 'contact_salutation', xml: true },
  })
  contactSalutation: string | null = null;

  @Field(() => String, {
    nullable: true,
    description: "The contact person's first name.",
  })
  @Property({ type: 'string', length: 255, nullable: true })
  @Declared({
    filter: true,
    order: 'CONTACT_FIRST_NAME',
    input: fields.text().nullable(),
    legacy: { json: 'contact_first_name', xml: true },
  })
  contactFirstName: string | null = null;

  @Field(() => String, {
    nullable: true,
    description: "The contact person's last name.",
  })
  @Property({ type: 'string', length: 255, nullable: true })
  @Declared({
    filter: true,
    order: 'CONTACT_LAST_NAME',
    input: fields.text().nullable(),
    legacy: { json: 'contact_last_name', xml: true },
  })
  contactLastName: string | null = null;

  @Field(() => String, {
    nullable: true,
    description: "The contact person's e-mail address.",
  })
  @Property({ type: 'string', length: 255, nullable: true })
  @Declared({
    filter: true,
    order: 'CONTACT_EMAIL_ADDRESS',
    input: fields.text().nullable(),
    legacy: { json: 'contact_email_address', xml: true },
  })
  contactEmailAddress: string | null = null;

  @Field(() => String, {
    nullable: true,
    description: "The contact person's position in the company.",
  })
  @Property({ type: 'string', length: 255, nullable: true })
  @Declared({
    filter: true,
    order: 'CONTACT_POSITION',
    input: fields.text().nullable(),
    legacy: { json: 'contact_position' },
  })
  contactPosition: string | null = null;

  @Field(() => String, {
    nullable: true,
    description: "The contact person's home phone number.",
  })
  @Property({ type: 'string', length: 255, nullable: true })
  @Declared({
    filter: true,
    order: 'CONTACT_HOME_PHONE',
    input: fields.text().nullable(),
    legacy: { json: 'contact_home_phone', xml: true },
  })
  contactHomePhone: string | null = null;

  @Field(() => String, {
    nullable: true,
    description: "The contact person's mobile phone number.",
  })
  @Property({ type: 'string', length: 255, nullable: true })
  @Declared({
    filter: true,
    order: 'CONTACT_MOBILE_PHONE',
    input: fields.text().nullable(),
    legacy: { json: 'contact_mobile_phone', xml: true },
  })
  contactMobilePhone: string | null = null;

  @Field(() => String, {
    nullable: true,
    description: 'Free-text notes.',
  })
  @Property({ type: 'text', nullable: true })
  @Declared({
    filter: true,
    order: 'NOTES',
    input: fields.text(10_000).nullable(),
    legacy: { json: 'notes', xml: true },
  })
  notes: string | null = null;

  @Field(() => Float, {
    nullable: true,
    description:
      'Longitude of the main office in degrees (-180 to 180, east positive): as given, or looked up from the address like `latitude`; null when neither.',
  })
  @Property({ type: 'double', nullable: true })
  @Declared({
    filter: true,
    order: 'LONGITUDE',
    input: z.number().min(-180).max(180).nullable(),
    legacy: { json: 'longitude', xml: true, xmlReadOnly: true },
  })
  longitude: number | null = null;

  @Field(() => Float, {
    nullable: true,
    description:
      'Latitude of the main office in degrees (-90 to 90, north positive): as given, or looked up from the address when both coordinates are left empty and the street, city, state, postcode and country are all filled; null when neither.',
  })
  @Property({ type: 'double', nullable: true })
  @Declared({
    filter: true,
    order: 'LATITUDE',
    input: z.number().min(-90).max(90).nullable(),
    legacy: { json: 'latitude', xml: true, xmlReadOnly: true },
  })
  latitude: number | null = null;
}
