import { randomUUID } from 'node:crypto';
import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Node } from '../common';
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { DateTimeISOResolver } from '../common';

/** A tenant: the account owner's organisation, with the limits of its plan. */
@ObjectType({ description: "The caller's account and the limits of its plan.", implements: Node })
@Entity({ tableName: 'accounts' })
export class Account {
  [OptionalProps]?: 'uuid' | 'nearlyOverdueRatio' | 'createdAt' | 'updatedAt';

  @Field(() => Int, { name: 'legacyId' })
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Field(() => ID, { name: 'id' })
  @Property({ type: 'uuid', unique: true })
  uuid: string = randomUUID();

  @Field(() => String)
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
    description: 'Share of a time limit after which a project is nearly overdue.',
  })
  @Property({ type: 'double', default: 0.9 })
  nearlyOverdueRatio: number = 0.9;

  @Field(() => DateTimeISOResolver, { description: 'When the account was opened.' })
  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Field(() => DateTimeISOResolver, { description: 'When the account last changed.' })
  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
