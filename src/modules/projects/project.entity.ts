import { ArrayType, Entity, Enum, ManyToOne, Property, type Ref } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { Declared, DeclaredReference, fields, Node, Visibility } from '../common';
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
  @ManyToOne(() => Company, { ref: true, deleteRule: 'cascade' })
  @DeclaredReference({
    id: 'companyId',
    legacyId: 'companyLegacyId',
    of: "the project's company",
    order: 'COMPANY_ID',
  })
  company!: Ref<Company>;

  @Field(() => String, { description: "The project's name." })
  @Property({ type: 'string', length: 255 })
  @Declared({ filter: true, order: 'NAME' })
  name!: string;

  @Field(() => String, {
    nullable: true,
    description:
      'A short code for invoices and exports ("ACME-01"): letters, digits, `-`, `_` and `.`, at most 32; unique within the account.',
  })
  @Property({ type: 'string', length: 32, nullable: true })
  @Declared({ filter: true, order: 'CODE', input: fields.code().nullable() })
  code: string | null = null;

  @Field(() => Boolean, { description: 'Whether the project can be punched in to.' })
  @Property({ type: 'boolean' })
  @Declared({ filter: true, order: 'ACTIVE' })
  active: boolean = true;

  @Field(() => Visibility, {
    description:
      "Who sees the project (whatever its company's visibility): PUBLIC everyone in the account, PRIVATE the owner and its creator, CUSTOM those and the users in `users`.",
  })
  @Enum({ items: () => Visibility })
  @Declared({ filter: "The project's visibility.", order: 'VISIBILITY' })
  visibility: Visibility = Visibility.PRIVATE;

  @ManyToOne(() => Staff, { ref: true, nullable: true, deleteRule: 'set null' })
  createdBy: Ref<Staff> | null = null;

  @Field(() => Int, {
    nullable: true,
    description:
      "The time budget of the project in seconds (of every user's shifts); null: no limit. Set directly or read from `timeLimitString`.",
  })
  @Property({ type: 'integer', nullable: true })
  @Declared({ filter: 'The time limit in seconds (null: none).', order: 'TIME_LIMIT' })
  timeLimit: number | null = null;

  @Field(() => String, {
    nullable: true,
    description:
      'The time limit as entered ("12h", "2h 30m", "1:30"); it fills `timeLimit` when that is not given.',
  })
  @Property({ type: 'string', length: 255, nullable: true })
  @Declared({ filter: 'The time limit as entered.', order: 'TIME_LIMIT_STRING' })
  timeLimitString: string | null = null;

  @Field(() => [String], {
    description:
      'Tags copied onto every new running shift on punch-in: those of `defaultTagsText`.',
  })
  @Property({ type: ArrayType })
  defaultTags: string[] = [];

  @Field(() => String, {
    nullable: true,
    description:
      'The default tags exactly as written, comma-separated (the legacy `default_tags`); `defaultTags` are read from it.',
  })
  @Property({ type: 'text', nullable: true })
  defaultTagsText: string | null = null;

  @Field(() => [String], {
    description:
      'Tags of the project itself; shifts do not get them (they get `defaultTags` on punch-in).',
  })
  @Property({ type: ArrayType })
  tagList: string[] = [];

  @Field(() => String, { nullable: true, description: 'Free-text notes.' })
  @Property({ type: 'text', nullable: true })
  @Declared({ filter: "The project's notes.", order: 'NOTES' })
  notes: string | null = null;

  @Field(() => String, {
    nullable: true,
    description:
      'Text form of the rate with a currency symbol, as entered. Null for a staff member unless `Account.staffSeeMoney`, like every money field.',
  })
  @Property({ type: 'string', length: 255, nullable: true })
  @Declared({ filter: 'The rate as entered.', order: 'HOURLY_RATE', read: MONEY_RULE })
  hourlyRate: string | null = null;

  @Field(() => Int, {
    nullable: true,
    description:
      'The hourly rate in cents. Null for a staff member unless `Account.staffSeeMoney`.',
  })
  @Property({ type: 'integer', nullable: true })
  @Declared({ filter: 'The hourly rate in cents.', order: 'HOURLY_RATE_CENTS', read: MONEY_RULE })
  hourlyRateCents: number | null = null;

  @Field(() => Int, {
    nullable: true,
    description:
      'Amount invoiced for the project, in cents. Null for a staff member unless `Account.staffSeeMoney`.',
  })
  @Property({ type: 'integer', nullable: true })
  @Declared({ read: MONEY_RULE })
  invoiceAmountCents: number | null = null;

  @Field(() => Boolean, {
    description: 'The default of `billable` for new shifts on this project.',
  })
  @Property({ type: 'boolean' })
  @Declared({
    filter: 'Whether new shifts on the project are billable by default.',
    order: 'BILLABLE_BY_DEFAULT',
  })
  billableByDefault: boolean = true;
}
