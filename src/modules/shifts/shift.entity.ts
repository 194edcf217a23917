import { ArrayType, Entity, ManyToOne, Property, type Ref } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { z } from 'zod';
import { DateTimeISOResolver, Declared, DeclaredReference, Node } from '../common';
import { offsetSecondsAt, timeZoneField } from '../../core/zone-names';
import { fields } from '../writes';
import { ComputedSql, ReadsColumns } from '../paging/graphql';
import { Activity } from '../activities';
import { TenantEntity } from '../accounts';
import { Project } from '../projects';
import { Staff } from '../staff';

@ObjectType({
  implements: Node,
  description: 'A span of time a user worked on a project; running while `stop` is null.',
})
@Entity({ tableName: 'shifts' })
export class Shift extends TenantEntity<
  'timeZone' | 'billable' | 'tagList' | 'running' | 'projectLegacyId' | 'activityLegacyId'
> {
  // The fields of the legacy XML shift come in its order (docs/xml-api.md).
  @Field(() => DateTimeISOResolver, { description: 'When the work started (UTC).' })
  @Property({ type: 'timestamptz' })
  @Declared({
    filter: 'When the shift started.',
    order: 'START',
    input: fields.instant(),
    legacy: { json: 'start', xml: true },
  })
  start!: Date;

  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'When the work stopped (UTC), after `start`; null while the shift is running.',
  })
  @Property({ type: 'timestamptz', nullable: true })
  @Declared({
    filter: 'When the shift stopped; `isNull: true` selects running shifts.',
    order: 'STOP',
    input: fields.instant().nullable(),
    legacy: { json: 'stop', xml: true },
  })
  stop: Date | null = null;

  @Field(() => String, { description: 'The IANA time zone the shift was worked in.' })
  @Property({ type: 'string', length: 64 })
  @Declared({
    filter: "The shift's IANA time zone name.",
    order: 'TIME_ZONE',
    input: timeZoneField(),
    legacy: { json: 'time_zone', xml: true },
  })
  timeZone: string = 'UTC';

  @Field(() => String, {
    nullable: true,
    description: 'Free-text notes; a punch-out appends its notes on a new line.',
  })
  @Property({ type: 'text', nullable: true })
  @Declared({
    filter: "The shift's notes.",
    order: 'NOTES',
    input: fields.text(10_000).nullable(),
    legacy: { json: 'notes', xml: true },
  })
  notes: string | null = null;

  @ManyToOne(() => Project, { ref: true, deleteRule: 'cascade' })
  @DeclaredReference({
    id: 'projectId',
    legacyId: 'projectLegacyId',
    of: "the shift's project",
    order: 'PROJECT_ID',
    legacy: { id: { json: 'project_uuid' }, legacyId: { xml: 'project_id' } },
  })
  project!: Ref<Project>;

  @ManyToOne(() => Staff, { ref: true, deleteRule: 'cascade' })
  @DeclaredReference({
    id: 'userId',
    legacyId: 'userLegacyId',
    of: 'the user who worked',
    order: 'USER_ID',
    legacy: { id: { json: 'user_uuid' }, legacyId: { xml: 'user_id' } },
  })
  user!: Ref<Staff>;

  @Field(() => Boolean, {
    description:
      "Whether the time is billed: counted in reports' `billableSeconds` and `amountCents`.",
  })
  @Property({ type: 'boolean' })
  @Declared({
    filter: 'Whether the shift is billable.',
    order: 'BILLABLE',
    input: z.boolean(),
    legacy: { json: 'billable' },
  })
  billable: boolean = true;

  @Field(() => [String], {
    description: "The shift's tags; a punch-in starts with the project's `defaultTags`.",
  })
  @Property({ type: ArrayType })
  @Declared({ input: fields.tags(), legacy: { json: 'tag_list', xml: 'taglist' } })
  tagList: string[] = [];

  @ManyToOne(() => Activity, { ref: true, nullable: true, deleteRule: 'set null' })
  @DeclaredReference({
    id: 'activityId',
    legacyId: 'activityLegacyId',
    of: "the shift's activity (`isNull: true`: shifts without one)",
    order: 'ACTIVITY_ID',
    legacy: { id: { json: 'activity_uuid' } },
  })
  activity: Ref<Activity> | null = null;

  @Field(() => String, {
    nullable: true,
    description: 'Where the shift came from, when created on an external site.',
  })
  @Property({ type: 'string', length: 2048, nullable: true })
  @Declared({
    filter: 'Where the shift came from (`externalHref`).',
    order: 'EXTERNAL_HREF',
    input: fields.text(2048).nullable(),
    legacy: { json: 'external_href' },
  })
  externalHref: string | null = null;

  // Derived fields as getters rather than field resolvers: plain fields skip type-graphql's
  // resolver wrapper, which on a list of a thousand shifts costs more than the values.
  @ReadsColumns(Shift, 'timeZone', 'start')
  // Minutes, as the zone data of Intl gives them; PostgreSQL's tz data names the same zones.
  @ComputedSql(
    Shift,
    ({ column: c }) =>
      `(round(extract(epoch from (${c('start')} at time zone ${c('timeZone')}) - (${c('start')} at time zone 'UTC')) / 60) * 60)::int`,
  )
  @Field(() => Int, {
    nullable: true,
    description:
      'The offset from UTC of `timeZone` at `start`, in seconds (east positive); null for a zone the service no longer knows.',
  })
  get timeZoneOffset(): number | null {
    return offsetSecondsAt(this.timeZone, this.start);
  }

  @ReadsColumns(Shift, 'stop')
  @ComputedSql(Shift, (r) => `${r.column('stop')} is null`)
  @Field(() => Boolean, { description: 'True while `stop` is null.' })
  get running(): boolean {
    return this.stop === null;
  }

  // Which project and activity the shift is on, by integer id, whoever may see them (an id
  // reveals nothing); the uuids and the objects are ShiftResolver's.
  @ReadsColumns(Shift)
  @Field(() => Int, { description: "The integer id of the shift's project." })
  get projectLegacyId(): number {
    return this.project.id;
  }

  @ReadsColumns(Shift)
  @Field(() => Int, { nullable: true, description: "The integer id of the shift's activity." })
  get activityLegacyId(): number | null {
    return this.activity?.id ?? null;
  }
}
