import { randomUUID } from 'node:crypto';
import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Node } from '../common';
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { DateTimeISOResolver } from '../common';

/** A tenant: the account owner's organisation, with the limits of its plan. */
@ObjectType({ description: "The caller's account and the limits of its plan.", implements: Node })
@Entity({ tableName: 'accounts' })
export class Account {
  [OptionalProps]?:
    'uuid' | 'nearlyOverdueRatio' | 'currency' | 'staffSeeMoney' | 'createdAt' | 'updatedAt';

  @Field(() => Int, {
    name: 'legacyId',
    description: 'The integer identifier of the legacy XML API.',
  })
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Field(() => ID, {
    name: 'id',
    description: 'The UUID: the identifier of GraphQL and the JSON API.',
  })
  @Property({ type: 'uuid', unique: true })
  uuid: string = randomUUID();

  @Field(() => String, { description: "The account's name (the organisation's)." })
  @Property({ type: 'string', length: 255 })
  name!: string;

  @Field(() => Int, {
    nullable: true,
    description: 'Most active staff members besides the owner; null means no limit.',
  })
  @Property({ type: 'integer', nullable: true })
  staffMax: number | null = null;

  @Field(() => Int, {
    nullable: true,
    description: 'Most time that may be entered, in seconds; null means no limit.',
  })
  @Property({ type: 'integer', nullable: true })
  timeMaxSeconds: number | null = null;

  @Field(() => Float, {
    description:
      'Share of a time limit (0 < r ≤ 1, default 0.9) from which a project is `nearlyOverdue`.',
  })
  @Property({ type: 'double', default: 0.9 })
  nearlyOverdueRatio: number = 0.9;

  @Field(() => String, {
    description:
      'The ISO 4217 code of every amount and rate of the account (`USD` unless chosen at opening or changed by the owner).',
  })
  @Property({ type: 'string', length: 3, default: 'USD' })
  currency: string = 'USD';

  @Field(() => Boolean, {
    description:
      "Whether staff members see rates and amounts: project rates, their own rate, a report's amounts (false unless the owner turns it on). Costs, profits and other people's rates stay the owner's and the managers'.",
  })
  @Property({ type: 'boolean', default: false })
  staffSeeMoney: boolean = false;

  @Field(() => DateTimeISOResolver, { description: 'When the account was opened.' })
  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Field(() => DateTimeISOResolver, { description: 'When the account last changed.' })
  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
