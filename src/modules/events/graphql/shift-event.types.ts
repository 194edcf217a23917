import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver } from '../../common';
import { SHIFT_EVENT_KINDS, type ShiftEvent, type ShiftEventKind } from '../../shifts';

/** The GraphQL enum of shift event kinds, built from the one list in shift-events.ts. */
export const ShiftEventKindEnum = Object.fromEntries(
  SHIFT_EVENT_KINDS.map((kind) => [kind, kind]),
) as { [K in ShiftEventKind]: K };
registerEnumType(ShiftEventKindEnum, {
  name: 'ShiftEventKind',
  description:
    'What happened to a shift: a punch in or out, or a shift created, updated or deleted.',
  valuesConfig: {
    PUNCHED_IN: { description: 'A punch-in started the shift.' },
    PUNCHED_OUT: { description: 'A punch-out stopped the shift.' },
    SHIFT_CREATED: { description: 'The shift was created.' },
    SHIFT_UPDATED: { description: 'The shift was changed.' },
    SHIFT_DELETED: { description: 'The shift was deleted.' },
  },
});

@ObjectType('ShiftSnapshot', {
  description:
    'A shift as it was when the event happened (before a deletion, for SHIFT_DELETED): a value with no `id` of its own, so a cache keeps it apart from the Shift (`shiftId`).',
})
export class ShiftSnapshotType {
  @Field(() => ID, {
    description: "The shift's `id` (the Shift object's, as `node(id:)` reads it).",
  })
  shiftId!: string;
  @Field(() => Int, { description: "The shift's integer id." }) legacyId!: number;
  @Field(() => ID, { description: "The uuid of the shift's project." }) projectId!: string;
  @Field(() => Int, { description: "The integer id of the shift's project." })
  projectLegacyId!: number;
  @Field(() => ID, { description: "The uuid of the project's company." }) companyId!: string;
  @Field(() => ID, { description: 'The uuid of the user who worked the shift.' }) userId!: string;
  @Field(() => Int, { description: 'The integer id of the user who worked the shift.' })
  userLegacyId!: number;
  @Field(() => ID, { nullable: true, description: "The uuid of the shift's activity, if any." })
  activityId!: string | null;
  @Field(() => DateTimeISOResolver, { description: 'When the shift started.' }) start!: string;
  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'When the shift stopped; null while it runs.',
  })
  stop!: string | null;
  @Field(() => String, { description: 'The IANA time zone the shift was worked in.' })
  timeZone!: string;
  @Field(() => Boolean, { description: 'Whether the shift is billable.' }) billable!: boolean;
  @Field(() => String, {
    nullable: true,
    description: 'Null also when too long to travel between server processes.',
  })
  notes!: string | null;
  @Field(() => [String], { description: "The shift's tags." }) tagList!: string[];
}

/** The snapshot as GraphQL answers it: the shift's own id is `shiftId` there. */
export function snapshotType({ id, ...rest }: ShiftEvent['shift']): ShiftSnapshotType {
  return { shiftId: id, ...rest };
}

/**
 * Something that happened to a shift. `shift`, `deletedShiftId` and `project` are ShiftEventResolver's:
 * the objects the queries return, read when the event is sent, so a client cache that normalises
 * by type and id (Apollo's `Shift:<id>`) updates itself from the event.
 */
@ObjectType('ShiftEvent', { description: 'Something that happened to a shift.' })
export class ShiftEventType {
  @Field(() => ShiftEventKindEnum, { description: 'What happened.' }) kind!: ShiftEventKind;
  @Field(() => DateTimeISOResolver, {
    description: 'When it happened (when its change committed).',
  })
  occurredAt!: string;
  @Field(() => ShiftSnapshotType, {
    description:
      'The shift as it was at the event (before a deletion, for SHIFT_DELETED), whoever may see its project.',
  })
  snapshot!: ShiftSnapshotType;
}
