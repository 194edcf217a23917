import { LocalDateResolver } from 'graphql-scalars';
import { DateTimeISOResolver } from '../../common';
import { Field, ID, InputType, Int, registerEnumType } from 'type-graphql';
import {
  ReportBucket,
  ReportDimension,
  RoundingDirection,
  RoundingScope,
  WeekStart,
  type ReportRequest,
  type ReportRoundingRequest,
  type ReportShiftFilter,
} from '../report-request';

export { ReportBucket, ReportDimension, RoundingDirection, RoundingScope, WeekStart };

registerEnumType(ReportDimension, {
  name: 'ReportDimension',
  description:
    'A key of report rows. TAG counts a shift once under each of its tags (a shift without tags under null).',
  valuesConfig: {
    COMPANY: { description: "The project's company." },
    PROJECT: { description: 'The project.' },
    ACTIVITY: { description: "The shift's activity (null: none)." },
    USER: { description: 'The user who worked.' },
    TAG: {
      description:
        'Each tag of the shift; a shift with two tags counts in both rows, so rows can add up to more than the totals.',
    },
    BILLABLE: { description: "The shift's billable flag." },
    NOTES: { description: "The shift's notes, exactly as written (null: none)." },
  },
});

registerEnumType(ReportBucket, {
  name: 'ReportBucket',
  description:
    "A calendar period in the report's time zone; a shift crossing a period's end is split between periods.",
  valuesConfig: {
    DAY: { description: 'Local midnight to midnight (23 or 25 hours on the days clocks change).' },
    WEEK: { description: 'ISO weeks: Monday 00:00 to the next Monday 00:00.' },
    MONTH: { description: 'The first of the month 00:00 to the first of the next.' },
    YEAR: { description: 'January 1 00:00 to the next January 1.' },
  },
});

registerEnumType(WeekStart, {
  name: 'WeekStart',
  description: "The day a WEEK bucket starts on, at 00:00 of the report's zone.",
  valuesConfig: {
    MONDAY: { description: 'ISO weeks (the default).' },
    SUNDAY: { description: 'Sunday to Saturday.' },
    SATURDAY: { description: 'Saturday to Friday.' },
  },
});

registerEnumType(RoundingDirection, {
  name: 'RoundingDirection',
  description: 'Which way a duration goes to a multiple of `minutes`.',
  valuesConfig: {
    UP: { description: 'To the next multiple (1 second over 15 minutes counts 30).' },
    DOWN: { description: 'To the multiple below.' },
    NEAREST: { description: 'To the nearest multiple; halves go up.' },
  },
});

registerEnumType(RoundingScope, {
  name: 'RoundingScope',
  description: 'What is rounded.',
  valuesConfig: {
    ENTRY: {
      description:
        "Each shift's time in a row (its part in the row's period), before it is summed; the amounts follow the rounded time.",
    },
    ROW: {
      description:
        "Each row's sums, and the totals as one row; a row's amount changes in proportion to its billable time.",
    },
  },
});

@InputType({ description: 'Rounding of durations, as time trackers bill them.' })
export class ReportRounding implements ReportRoundingRequest {
  @Field(() => Int, { description: 'Round to multiples of this many minutes (1 to 1,440).' })
  minutes!: number;

  @Field(() => RoundingDirection, {
    defaultValue: RoundingDirection.NEAREST,
    description: 'Up, down or to the nearest multiple (the default).',
  })
  direction?: RoundingDirection;

  @Field(() => RoundingScope, {
    defaultValue: RoundingScope.ENTRY,
    description: 'Each shift (the default) or each row.',
  })
  scope?: RoundingScope;
}

@InputType({
  description:
    'Only shifts matching every given condition count; an omitted list or flag does not filter.',
})
export class ReportFilter implements ReportShiftFilter {
  @Field(() => [ID], {
    nullable: true,
    description: 'Shifts on projects of these companies (uuids).',
  })
  companyIds?: string[] | null;

  @Field(() => [ID], { nullable: true, description: 'Shifts on these projects (uuids).' })
  projectIds?: string[] | null;

  @Field(() => [ID], { nullable: true, description: 'Shifts of these users (uuids).' })
  userIds?: string[] | null;

  @Field(() => [ID], { nullable: true, description: 'Shifts with these activities (uuids).' })
  activityIds?: string[] | null;

  @Field(() => [String], {
    nullable: true,
    description:
      'Shifts carrying at least one of these tags (exact, case-sensitive). When grouping by TAG, only these tags make rows.',
  })
  tags?: string[] | null;

  @Field(() => Boolean, {
    nullable: true,
    description: 'Only billable (true) or only non-billable (false) shifts.',
  })
  billable?: boolean | null;
}

@InputType({ description: 'A time report: what to count, over which range, grouped how.' })
export class ReportInput implements ReportRequest {
  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description:
      'Start of the range (inclusive); give it or `fromDate`. Shifts count only for their part inside [from, to).',
  })
  from?: Date | null;

  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description:
      'End of the range (exclusive); give it or `toDate`. After `from`, at most 3,660 days later.',
  })
  to?: Date | null;

  @Field(() => LocalDateResolver, {
    nullable: true,
    description: 'Start of the range as a date: its 00:00 in `timeZone`. Instead of `from`.',
  })
  fromDate?: string | null;

  @Field(() => LocalDateResolver, {
    nullable: true,
    description:
      'End of the range as a date, exclusive: its 00:00 in `timeZone` (`toDate: "2027-01-01"` ends 2026). Instead of `to`.',
  })
  toDate?: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      "IANA zone of the buckets (e.g. Europe/Berlin); the caller's own zone when omitted.",
  })
  timeZone?: string | null;

  @Field(() => [ReportDimension], {
    description: 'Row keys, in the order rows are sorted by; empty: one row for everything.',
  })
  groupBy!: ReportDimension[];

  @Field(() => ReportBucket, {
    nullable: true,
    description: 'Also group by calendar period in `timeZone`; omitted: no time grouping.',
  })
  bucket?: ReportBucket | null;

  @Field(() => WeekStart, {
    defaultValue: WeekStart.MONDAY,
    description: 'The first day of a WEEK bucket (ISO weeks start on Monday).',
  })
  weekStart?: WeekStart | null;

  @Field(() => Boolean, {
    defaultValue: false,
    description:
      'With a bucket: a row of zeros for every period of the range in which a group (or, without groupBy, the report) has no time, so a chart needs no gap filling.',
  })
  fillEmpty?: boolean | null;

  @Field(() => ReportRounding, {
    nullable: true,
    description: 'Round durations (and the amounts that follow them); omitted: exact seconds.',
  })
  rounding?: ReportRounding | null;

  @Field(() => Boolean, {
    defaultValue: false,
    description:
      'Also a subtotal row after each group of rows sharing the leading keys (SQL ROLLUP over `groupBy`, then the bucket), down to one row for the whole report; see `ReportRow.level`.',
  })
  subtotals?: boolean | null;

  @Field(() => ReportFilter, {
    nullable: true,
    description: 'Which shifts count; omitted: every shift the caller can see.',
  })
  filter?: ReportFilter | null;
}
