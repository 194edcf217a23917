import { ArrayType, Entity, Enum, ManyToOne, Property, type Ref } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { z } from 'zod';
import { Declared, DeclaredReference, Node, Visibility } from '../common';
import { fields } from '../writes';
import { MONEY_RULE, TenantEntity } from '../accounts';
import { Company } from '../companies';
import { Staff } from '../staff';

@ObjectType({
  description: 'A project of a company; shifts are clocked against it.',
  implements: Node,
})
@Entity({ tableName: 'projects' })
export class Project extends TenantEntity<
  'active' | 'visibility' | 'defaultTags' | 'tagList' | 'billableByDefault'
> {
  // The fields of the legacy XML project come in its order (docs/xml-api.md); `code`, added since, last.
  @Field(() => String, { description: "The project's name." })
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
      "Who sees the project (whatever its company's visibility): PUBLIC everyone in the account, PRIVATE the owner and its creator, CUSTOM those and the users in `users`.",
  })
  @Enum({ items: () => Visibility })
  @Declared({
    filter: "The project's visibility.",
    order: 'VISIBILITY',
    input: z.enum(Visibility),
    legacy: { json: 'visibility', xml: true },
  })
  visibility: Visibility = Visibility.PRIVATE;

  @Field(() => Boolean, { description: 'Whether the project can be punched in to.' })
  @Property({ type: 'boolean' })
  @Declared({
    filter: true,
    order: 'ACTIVE',
    input: z.boolean(),
    legacy: { json: 'active', xml: true, as: 'string-boolean' },
  })
  active: boolean = true;

  @ManyToOne(() => Staff, { ref: true, nullable: true, deleteRule: 'set null' })
  createdBy: Ref<Staff> | null = null;

  @Field(() => Int, {
    nullable: true,
    description:
      "The time budget of the project in seconds (of every user's shifts); null: no limit. Set directly or read from `timeLimitString`.",
  })
  @Property({ type: 'integer', nullable: true })
  @Declared({
    filter: 'The time limit in seconds (null: none).',
    order: 'TIME_LIMIT',
    input: z.number().int().min(0).max(2_000_000_000).nullable(),
    legacy: { json: 'time_limit' },
  })
  timeLimit: number | null = null;

  @Field(() => String, {
    nullable: true,
    description:
      'The time limit as entered ("12h", "2h 30m", "1:30"); it fills `timeLimit` when that is not given.',
  })
  @Property({ type: 'string', length: 255, nullable: true })
  @Declared({
    filter: 'The time limit as entered.',
    order: 'TIME_LIMIT_STRING',
    input: fields.text().nullable(),
    legacy: { json: 'time_limit_string', xml: true },
  })
  timeLimitString: string | null = null;

  @Field(() => [String], {
    description:
      'Tags copied onto every new running shift on punch-in: those of `defaultTagsText`.',
  })
  @Property({ type: ArrayType })
  @Declared({ input: fields.tags() })
  defaultTags: string[] = [];

  @Field(() => String, {
    nullable: true,
    description:
      'The default tags exactly as written, comma-separated (the legacy `default_tags`); `defaultTags` are read from it.',
  })
  @Property({ type: 'text', nullable: true })
  @Declared({
    input: fields.text(4096).nullable(),
    legacy: { json: 'default_tags', xml: true, as: 'tag-text' },
  })
  defaultTagsText: string | null = null;

  @Field(() => String, { nullable: true, description: 'Free-text notes.' })
  @Property({ type: 'text', nullable: true })
  @Declared({
    filter: "The project's notes.",
    order: 'NOTES',
    input: fields.text(10_000).nullable(),
    legacy: { json: 'notes', xml: true },
  })
  notes: string | null = null;

  @ManyToOne(() => Company, { ref: true, deleteRule: 'cascade' })
  @DeclaredReference({
    id: 'companyId',
    legacyId: 'companyLegacyId',
    of: "the project's company",
    order: 'COMPANY_ID',
    legacy: { id: { json: 'company_uuid' }, legacyId: { xml: 'company_id' } },
  })
  company!: Ref<Company>;

  @Field(() => [String], {
    description:
      'Tags of the project itself; shifts do not get them (they get `defaultTags` on punch-in).',
  })
  @Property({ type: ArrayType })
  @Declared({
    input: fields.tags(),
    legacy: { json: 'tag_list', xml: 'taglist', as: 'comma-text' },
  })
  tagList: string[] = [];

  @Field(() => String, {
    nullable: true,
    description:
      'Text form of the rate with a currency symbol, as entered. Null for a staff member unless `Account.staffSeeMoney`, like every money field.',
  })
  @Property({ type: 'string', length: 255, nullable: true })
  @Declared({
    filter: 'The rate as entered.',
    order: 'HOURLY_RATE',
    read: MONEY_RULE,
    input: fields.text().nullable(),
    legacy: { json: 'hourly_rate' },
  })
  hourlyRate: string | null = null;

  @Field(() => Int, {
    nullable: true,
    description:
      'The hourly rate in cents. Null for a staff member unless `Account.staffSeeMoney`.',
  })
  @Property({ type: 'integer', nullable: true })
  @Declared({
    filter: 'The hourly rate in cents.',
    order: 'HOURLY_RATE_CENTS',
    read: MONEY_RULE,
    input: fields.cents().nullable(),
    legacy: { json: 'hourly_rate_cents' },
  })
  hourlyRateCents: number | null = null;

  @Field(() => Int, {
    nullable: true,
    description:
      'Amount invoiced for the project, in cents. Null for a staff member unless `Account.staffSeeMoney`.',
  })
  @Property({ type: 'integer', nullable: true })
  @Declared({
    read: MONEY_RULE,
    input: z.number().int().min(-2_000_000_000).max(2_000_000_000).nullable(),
    legacy: { json: 'invoice_amount', as: 'amount' },
  })
  invoiceAmountCents: number | null = null;

  @Field(() => Boolean, {
    description: 'The default of `billable` for new shifts on this project.',
  })
  @Property({ type: 'boolean' })
  @Declared({
    filter: 'Whether new shifts on the project are billable by default.',
    order: 'BILLABLE_BY_DEFAULT',
    input: z.boolean(),
    legacy: { json: 'billable_by_default' },
  })
  billableByDefault: boolean = true;

  @Field(() => String, {
    nullable: true,
    description:
      'A short code for invoices and exports ("ACME-01"): letters, digits, `-`, `_` and `.`, at most 32; unique within the account.',
  })
  @Property({ type: 'string', length: 32, nullable: true })
  @Declared({
    filter: true,
    order: 'CODE',
    input: fields.code().nullable(),
    legacy: { json: 'code', xml: true, whenSet: true },
  })
  code: string | null = null;
}
