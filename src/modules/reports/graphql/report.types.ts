import { SafeIntResolver } from 'graphql-scalars';
import { DateTimeISOResolver } from '../../common';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { ReportBucket, ReportDimension } from './report.inputs';
import type {
  ReportRefShape,
  ReportRowShape,
  ReportShape,
  ReportSumsShape,
  ReportUserShape,
} from '../report-result';

/*
 * Sums are SafeInt, not Int: GraphQL's Int stops at 2^31 - 1, which is 68 years of seconds or
 * 21 million in currency units, and a report over a whole account passes both (the benchmark
 * dataset holds about 7 billion seconds). SafeInt is an integer up to 2^53 - 1, exact in every
 * JSON reader, where a Float would invite fractions and a String arithmetic by hand.
 */

/*
 * The references of a report row have no `id` of their own: Relay keys its store by `id` alone,
 * so answering the project's id here would merge this value with the Project record. They name
 * the object they refer to (`nodeId`, `staffId`), and caches embed them in their row.
 */
@ObjectType({
  description:
    "A company, project or activity a report row is grouped by: a value embedded in its row, not the object itself (it has no `id`; `nodeId` is the object's).",
})
export class ReportRef implements ReportRefShape {
  @Field(() => ID, {
    description:
      'The `id` of the Company, Project or Activity referred to: `node(id:)` reads it (when the caller may see it).',
  })
  nodeId!: string;

  @Field(() => Int, { description: 'The integer id.' })
  legacyId!: number;

  @Field(() => String, {
    nullable: true,
    description:
      'Null for a company, project or activity the caller may not see (a PUBLIC project of a PRIVATE company; their own shift on a PRIVATE project), as `Project.company` and `Shift.project` are null there.',
  })
  name!: string | null;
}

@ObjectType({
  description:
    "The user a report row is grouped by: a value embedded in its row (no `id`; `staffId` is the Staff object's).",
})
export class ReportUser implements ReportUserShape {
  @Field(() => ID, { description: 'The `id` of the Staff member: `node(id:)` reads it.' })
  staffId!: string;

  @Field(() => Int, { description: 'The integer id.' })
  legacyId!: number;

  @Field(() => String, { description: "The user's login." })
  login!: string;

  @Field(() => String, { description: "The user's first name." })
  firstName!: string;

  @Field(() => String, { description: "The user's last name." })
  lastName!: string;
}

@ObjectType({ description: 'Sums of time and money: a value, with no `id`.' })
export class ReportSums implements ReportSumsShape {
  @Field(() => SafeIntResolver, {
    description: 'Seconds worked, rounded to the nearest second (halves away from zero).',
  })
  seconds!: number;

  @Field(() => SafeIntResolver, {
    description: 'The billable part of `seconds`, rounded the same way.',
  })
  billableSeconds!: number;

  @Field(() => SafeIntResolver, {
    nullable: true,
    description:
      "Billable seconds × the hourly rate in force when each shift started / 3600, in the minor unit of `Report.currency` as ISO 4217 defines it (cents of EUR, whole yen of JPY, thousandths of BHD; the `Cents` of the name covers them all): the project's rate when it has one, else the user's (their histories: `Project.rates`, `Staff.rates`); 0 for time with neither. Summed exactly, rounded once to whole minor units. Null for a caller who may not read money (a staff member unless `Account.staffSeeMoney`; it would give the rates away).",
  })
  amountCents!: number | null;

  @Field(() => SafeIntResolver, {
    nullable: true,
    description:
      "Seconds (billable or not) × the user's cost rate in force when each shift started / 3600, in the currency's minor unit (as `amountCents`); 0 for time of users without one. Null for a staff member.",
  })
  costCents!: number | null;

  @Field(() => SafeIntResolver, {
    nullable: true,
    description: '`amountCents` − `costCents`; negative at a loss. Null for a staff member.',
  })
  profitCents!: number | null;
}

@ObjectType({
  description:
    'One group of a report: a value, with no `id` (caches embed it in its report). Keys not grouped by are null.',
})
export class ReportRow extends ReportSums implements ReportRowShape {
  @Field(() => ReportRef, { nullable: true, description: "The project's company." })
  company!: ReportRef | null;

  @Field(() => ReportRef, { nullable: true, description: 'The project.' })
  project!: ReportRef | null;

  @Field(() => ReportRef, {
    nullable: true,
    description: 'Null also for shifts without an activity.',
  })
  activity!: ReportRef | null;

  @Field(() => ReportUser, { nullable: true, description: 'The user who worked.' })
  user!: ReportUser | null;

  @Field(() => String, { nullable: true, description: 'Null also for shifts without tags.' })
  tag!: string | null;

  @Field(() => Boolean, { nullable: true, description: "The shifts' billable flag." })
  billable!: boolean | null;

  @Field(() => String, {
    nullable: true,
    description: "The shifts' notes, when grouped by NOTES; null also for shifts without notes.",
  })
  notes!: string | null;

  @Field(() => Int, {
    description:
      "How many of the row's keys it is grouped by, in `groupBy` order then the bucket: all of them on a detail row; fewer on a subtotal (`subtotals`), whose later keys are null; 0 for the whole report.",
  })
  level!: number;

  @Field(() => Boolean, { description: 'True on a subtotal row (`subtotals`).' })
  subtotal!: boolean;

  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description:
      "The instant the calendar period starts in the report's time zone (grouped by a bucket only).",
  })
  bucketStart!: Date | null;
}

@ObjectType({
  description:
    'Time grouped by the requested keys over [from, to), computed in one SQL statement: a value computed for its arguments, with no `id`, which client caches embed under the `report` field (docs/graphql-api.md, "Values have no `id`").',
})
export class Report implements ReportShape {
  @Field(() => DateTimeISOResolver, {
    description: 'The start of the range (inclusive): `from`, or the instant `fromDate` begins.',
  })
  from!: Date;

  @Field(() => DateTimeISOResolver, {
    description: 'The end of the range (exclusive): `to`, or the instant `toDate` begins.',
  })
  to!: Date;

  @Field(() => String, {
    description: "The ISO 4217 code of the report's money: the account's `currency`.",
  })
  currency!: string;

  @Field(() => String, { description: 'The zone the buckets are in (canonical IANA spelling).' })
  timeZone!: string;

  @Field(() => [ReportDimension], { description: 'The row keys, in the order rows sort by.' })
  groupBy!: ReportDimension[];

  @Field(() => ReportBucket, {
    nullable: true,
    description: 'The calendar period rows are bucketed by; null: no time grouping.',
  })
  bucket!: ReportBucket | null;

  @Field(() => [ReportRow], {
    description:
      'The page of rows asked for (`first`, `offset`), sorted by the keys in `groupBy` order (names, then ids; nulls last), then `bucketStart`.',
  })
  rows!: ReportRow[];

  @Field(() => Int, { description: 'The number of rows of the whole report, whatever the page.' })
  totalCount!: number;

  @Field(() => ReportSums, {
    description:
      'Every shift counted once (even when grouped by TAG), rounded once: may differ from the sum of the rounded rows by their rounding.',
  })
  totals!: ReportSums;
}
