import { Entity, Enum, ManyToOne, Property, type Ref } from '@mikro-orm/core';
import { Field, Float, ObjectType } from 'type-graphql';
import { Node, Visibility } from '../common';
import { TenantEntity } from '../accounts';
import { Staff } from '../staff';

@ObjectType({ description: 'A client company; it groups projects.', implements: Node })
@Entity({ tableName: 'companies' })
export class Company extends TenantEntity<'visibility'> {
  @Field(() => String)
  @Property({ type: 'string', length: 255 })
  name!: string;

  @Field(() => Visibility)
  @Enum({ items: () => Visibility })
  visibility: Visibility = Visibility.PRIVATE;

  @ManyToOne(() => Staff, { ref: true, nullable: true, deleteRule: 'set null' })
  createdBy: Ref<Staff> | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 255, nullable: true })
  contactSalutation: string | null = null;
  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 255, nullable: true })
  contactFirstName: string | null = null;
  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 255, nullable: true })
  contactLastName: string | null = null;
  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 255, nullable: true })
  contactEmailAddress: string | null = null;
  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 255, nullable: true })
  contactPosition: string | null = null;
  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 255, nullable: true })
  contactHomePhone: string | null = null;
  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 255, nullable: true })
  contactMobilePhone: string | null = null;
  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 255, nullable: true })
  website: string | null = null;
  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 255, nullable: true })
  mainPhone: string | null = null;
  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 255, nullable: true })
  faxPhone: string | null = null;
  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 255, nullable: true })
  mainAddress: string | null = null;
  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 255, nullable: true })
  mainCity: string | null = null;
  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 255, nullable: true })
  mainState: string | null = null;
  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 255, nullable: true })
  mainPostcode: string | null = null;
  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 255, nullable: true })
  mainCountry: string | null = null;
  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  notes: string | null = null;
  @Field(() => Float, { nullable: true })
  @Property({ type: 'double', nullable: true })
  latitude: number | null = null;
  @Field(() => Float, { nullable: true })
  @Property({ type: 'double', nullable: true })
  longitude: number | null = null;
}
