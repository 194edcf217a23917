import { DateTimeISOResolver } from '../../common';
import { Field, ID, InputType, registerEnumType } from 'type-graphql';

/** What a report row can be grouped by (besides the time bucket). */
export enum ReportDimension {
  COMPANY = 'company',
  PROJECT = 'project',
  ACTIVITY = 'activity',
  USER = 'user',
  TAG = 'tag',
  BILLABLE = 'billable',
}
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
  },
});

/** Calendar periods of the report's time zone; the values are PostgreSQL's `date_trunc` units. */
export enum ReportBucket {
  DAY = 'day',
  WEEK = 'week',
  MONTH = 'month',
  YEAR = 'year',
}
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

@InputType({
  description:
    'Only shifts matching every given condition count; an omitted list or flag does not filter.',
})
export class ReportFilter {
  @Field(() => [ID], {
    nullable: true,
    description: 'Shifts on projects of these companies (uuids).',
  })
  companyIds?: string[] | null;

  @Field(() => [ID], { nullable: true, description: 'Shifts on these projects (uuids).' })
  projectIds?: string[] | null;

  @Field(() => [ID], { nullable: true, description: 'Shifts of these users (uuids).' })
  userIds?: string[] | null;

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
export class ReportInput {
  @Field(() => DateTimeISOResolver, {
    description:
      'Start of the range (inclusive). Shifts count only for their part inside [from, to).',
  })
  from!: Date;

  @Field(() => DateTimeISOResolver, {
    description: 'End of the range (exclusive); after `from`, at most 3,660 days later.',
  })
  to!: Date;

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

  @Field(() => ReportFilter, {
    nullable: true,
    description: 'Which shifts count; omitted: every shift the caller can see.',
  })
  filter?: ReportFilter | null;
}
