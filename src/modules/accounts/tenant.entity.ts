import { randomUUID } from 'node:crypto';
import { ManyToOne, OptionalProps, PrimaryKey, Property, type Ref } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { DateTimeISOResolver, Declared } from '../common';
import { Account } from './account.entity';

/**
 * Columns every tenant row carries: the integer id (the legacy XML identifier, exposed as
 * `legacyId`), the uuid (the JSON and GraphQL identifier, exposed as `id`) and the account that
 * scopes it. The `tenant` filter (db/orm-options.ts) adds `account_id = <caller's account>` to every
 * query of these entities.
 *
 * `Optional` names the subclass's own properties that have defaults, and its getters: with the
 * columns here, they may be left out of `em.create` (MikroORM reads them from `[OptionalProps]`).
 */
@ObjectType('TenantEntity')
export abstract class TenantEntity<Optional extends string = never> {
  [OptionalProps]?: 'uuid' | 'createdAt' | 'updatedAt' | Optional;

  @Field(() => Int, {
    name: 'legacyId',
    description: 'The integer identifier of the legacy XML API.',
  })
  @PrimaryKey({ type: 'integer', autoincrement: true })
  @Declared({
    name: 'legacyId',
    filter: 'The integer id.',
    order: 'LEGACY_ID',
    legacy: { xml: 'id' },
  })
  id!: number;

  @Field(() => ID, {
    name: 'id',
    description: 'The UUID: the identifier of GraphQL and the JSON API.',
  })
  @Property({ type: 'uuid', unique: true })
  @Declared({
    name: 'id',
    filter: 'The uuid.',
    order: 'ID',
    orderNote: 'in PostgreSQL uuid order',
    legacy: { json: 'uuid' },
  })
  uuid: string = randomUUID();

  @ManyToOne(() => Account, { ref: true, deleteRule: 'cascade' })
  account!: Ref<Account>;

  // The database sets `updated_at` on every insert and update, whatever wrote it (the sync
  // migration's trigger): these fields are what an app's incremental sync reads (docs/sync.md).
  @Field(() => DateTimeISOResolver, { description: 'When the row was created.' })
  @Property({ type: 'timestamptz' })
  @Declared({ filter: true, order: 'CREATED_AT' })
  createdAt: Date = new Date();

  @Field(() => DateTimeISOResolver, {
    description:
      'When the row last changed (the start of the changing transaction): what `updatedAt` filters compare, see docs/sync.md.',
  })
  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  @Declared({
    filter:
      'When it last changed. Incremental sync: `{ gte: <watermark> }` finds what changed since (docs/sync.md).',
    order: 'UPDATED_AT',
  })
  updatedAt: Date = new Date();
}
