import { ArrayType, Entity, Enum, ManyToOne, Property, type Ref } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { Node, Visibility } from '../common';
import { TenantEntity } from '../accounts';
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
  company!: Ref<Company>;

  @Field(() => String, { description: "The project's name." })
  @Property({ type: 'string', length: 255 })
  name!: string;

  @Field(() => Boolean, { description: 'Whether the project can be punched in to.' })
  @Property({ type: 'boolean' })
  active: boolean = true;

  @Field(() => Visibility, {
    description:
      "Who sees the project (whatever its company's visibility): PUBLIC everyone in the account, PRIVATE the owner and its creator, CUSTOM those and the users in `users`.",
  })
  @Enum({ items: () => Visibility })
  visibility: Visibility = Visibility.PRIVATE;

  @ManyToOne(() => Staff, { ref: true, nullable: true, deleteRule: 'set null' })
  createdBy: Ref<Staff> | null = null;

  @Field(() => Int, {
    nullable: true,
    description:
      "The time budget of the project in seconds (of every user's shifts); null: no limit. Set directly or read from `timeLimitString`.",
  })
  @Property({ type: 'integer', nullable: true })
  timeLimit: number | null = null;

  @Field(() => String, {
    nullable: true,
    description:
      'The time limit as entered ("12h", "2h 30m", "1:30"); it fills `timeLimit` when that is not given.',
  })
  @Property({ type: 'string', length: 255, nullable: true })
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
  notes: string | null = null;

  // The money of a project (rates, invoice amount) is exposed by ProjectResolver under the
  // account's money rule (mayReadMoney).
  @Property({ type: 'string', length: 255, nullable: true })
  hourlyRate: string | null = null;

  @Property({ type: 'integer', nullable: true })
  hourlyRateCents: number | null = null;

  @Property({ type: 'integer', nullable: true })
  invoiceAmountCents: number | null = null;

  @Field(() => Boolean, {
    description: 'The default of `billable` for new shifts on this project.',
  })
  @Property({ type: 'boolean' })
  billableByDefault: boolean = true;
}
