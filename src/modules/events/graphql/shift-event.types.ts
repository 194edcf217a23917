import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver } from '../../common';
import { SHIFT_EVENT_KINDS, type ShiftEventKind } from '../../shifts';

/** The GraphQL enum of shift event kinds, built from the one list in shift-events.ts. */
export const ShiftEventKindEnum = Object.fromEntries(
  SHIFT_EVENT_KINDS.map((kind) => [kind, kind]),
) as { [K in ShiftEventKind]: K };
registerEnumType(ShiftEventKindEnum, {
  name: 'ShiftEventKind',
  description:
    'What happened to a shift: a punch in or out, or a shift created, updated or deleted.',
});

@ObjectType('ShiftSnapshot', {
  description: 'A shift as it was when the event happened (before a deletion, for SHIFT_DELETED).',
})
export class ShiftSnapshotType {
  @Field(() => ID) id!: string;
  @Field(() => Int) legacyId!: number;
  @Field(() => ID) projectId!: string;
  @Field(() => Int) projectLegacyId!: number;
  @Field(() => ID) companyId!: string;
  @Field(() => ID) userId!: string;
  @Field(() => Int) userLegacyId!: number;
  @Field(() => ID, { nullable: true }) activityId!: string | null;
  @Field(() => DateTimeISOResolver) start!: string;
  @Field(() => DateTimeISOResolver, { nullable: true }) stop!: string | null;
  @Field(() => String) timeZone!: string;
  @Field(() => Boolean) billable!: boolean;
  @Field(() => String, {
    nullable: true,
    description: 'Null also when too long to travel between server processes.',
  })
  notes!: string | null;
  @Field(() => [String]) tagList!: string[];
}

/**
 * Something that happened to a shift. `shift`, `deletedShiftId` and `project` are ShiftEventResolver's:
 * the objects the queries return, read when the event is sent, so a client cache that normalises
 * by type and id (Apollo's `Shift:<id>`) updates itself from the event.
 */
@ObjectType('ShiftEvent', { description: 'Something that happened to a shift.' })
export class ShiftEventType {
  @Field(() => ShiftEventKindEnum) kind!: ShiftEventKind;
  @Field(() => DateTimeISOResolver) occurredAt!: string;
  @Field(() => ShiftSnapshotType, {
    description:
      'The shift as it was at the event (before a deletion, for SHIFT_DELETED), whoever may see its project.',
  })
  snapshot!: ShiftSnapshotType;
}
