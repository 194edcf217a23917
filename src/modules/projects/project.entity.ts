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

  @Field(() => String)
  @Property({ type: 'string', length: 255 })
  name!: string;

  @Field(() => Boolean, { description: 'Whether the project can be punched in to.' })
  @Property({ type: 'boolean' })
  active: boolean = true;

  @Field(() => Visibility)
  @Enum({ items: () => Visibility })
  visibility: Visibility = Visibility.PRIVATE;

  @ManyToOne(() => Staff, { ref: true, nullable: true, deleteRule: 'set null' })
  createdBy: Ref<Staff> | null = null;

  @Field(() => Int, { nullable: true, description: 'Time limit in seconds.' })
  @Property({ type: 'integer', nullable: true })
  timeLimit: number | null = null;

  @Field(() => String, { nullable: true, description: 'Text form of the time limit, as entered.' })
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

  @Field(() => [String])
  @Property({ type: ArrayType })
  tagList: string[] = [];

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  notes: string | null = null;

  // The money of a project (rates, invoice amount) is exposed by ProjectResolver under the
  // project policy's rule (mayReadProjectMoney): the owner's and the managers'.
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
