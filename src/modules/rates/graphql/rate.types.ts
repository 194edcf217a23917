import { Field, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver, ProjectRef, StaffRef } from '../../common';
import { RateKind, type RateChange, type RateEntry } from '../rate.service';

registerEnumType(RateKind, {
  name: 'RateKind',
  description: 'Which rate: what an hour bills, or what it costs.',
  valuesConfig: {
    BILLABLE: { description: "What an hour bills: a project's, else its user's." },
    COST: { description: "What an hour of a user's work costs the account." },
  },
});

@ObjectType({ description: 'An entry of a rate history: a rate in force until the next entry.' })
export class Rate implements RateEntry {
  @Field(() => Int, { description: 'The integer id of the entry (for `deleteRate`).' })
  id!: number;

  @Field(() => RateKind, { description: 'Billable or cost.' })
  kind!: RateKind;

  @Field(() => Int, {
    nullable: true,
    description:
      "Cents an hour, in the account's currency; null: no rate from then on (a project's shifts bill at their users' rates).",
  })
  cents!: number | null;

  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description:
      'The instant the rate takes effect: shifts starting from then are priced by it. Null: since always (the rate a project or user was created with).',
  })
  effectiveFrom!: Date | null;
}

@InputType({
  description:
    'A rate in force from an instant, for a project or a user (exactly one). An entry from the same instant is replaced.',
})
export class SetRateInput {
  @Field(() => ProjectRef, { nullable: true, description: 'The project (a billable rate).' })
  project?: ProjectRef | null;

  @Field(() => StaffRef, { nullable: true, description: 'The user (a billable or cost rate).' })
  user?: StaffRef | null;

  @Field(() => RateKind, {
    defaultValue: RateKind.BILLABLE,
    description: 'Billable (the default) or, for a user, cost.',
  })
  kind?: RateKind;

  @Field(() => Int, {
    nullable: true,
    description: 'Cents an hour, not negative; null: no rate from then on.',
  })
  cents!: number | null;

  @Field(() => DateTimeISOResolver, {
    description:
      'From when: shifts starting at or after it are priced by this rate until the next entry; a past instant reprices them.',
  })
  effectiveFrom!: Date;
}

@InputType({ description: 'An entry of a rate history to remove.' })
export class DeleteRateInput {
  @Field(() => Int, { description: 'The integer id of the entry.' })
  id!: number;
}

export const PROJECT_OF_RATE =
  "The project whose history it is, as it is now (its `rates`, and `hourlyRateCents` and `hourlyRate` when the rate in force now changed); null for a user's rate.";
export const STAFF_OF_RATE =
  "The user whose history it is, as they are now (their `rates`, and `hourlyRateCents` or `costRateCents` when the rate in force now changed); null for a project's rate.";

@ObjectType({ description: 'What setting a rate changed.' })
export class SetRatePayload {
  @Field(() => Rate, { description: 'The entry as written.' })
  rate!: Rate;

  /** Whose history it is, for `project` and `staff` (RatePayloadResolver), read after the change. */
  change!: RateChange;
}

@ObjectType({ description: 'What removing a rate changed.' })
export class DeleteRatePayload {
  @Field(() => Int, { description: 'The id of the removed entry.' })
  deletedRateId!: number;

  @Field(() => Rate, { description: 'The entry as it was.' })
  rate!: Rate;

  change!: RateChange;
}
