/**
 * What a report asks for, as plain types: the report service takes them, and the GraphQL inputs
 * (graphql/report.inputs.ts) implement them and register the enums.
 */

/** What a report row can be grouped by (besides the time bucket). */
export enum ReportDimension {
  COMPANY = 'company',
  PROJECT = 'project',
  ACTIVITY = 'activity',
  USER = 'user',
  TAG = 'tag',
  BILLABLE = 'billable',
  NOTES = 'notes',
}

/** Calendar periods of the report's time zone; the values are PostgreSQL's `date_trunc` units. */
export enum ReportBucket {
  DAY = 'day',
  WEEK = 'week',
  MONTH = 'month',
  YEAR = 'year',
}

/** The first day of a WEEK bucket; the values are the days after Monday it starts on. */
export enum WeekStart {
  MONDAY = 0,
  SUNDAY = 6,
  SATURDAY = 5,
}

/** Which way a duration is rounded to a multiple of the rounding's minutes. */
export enum RoundingDirection {
  UP = 'ceil',
  DOWN = 'floor',
  NEAREST = 'round',
}

/** What a rounding applies to. */
export enum RoundingScope {
  ENTRY = 'entry',
  ROW = 'row',
}

/** Rounding of durations, as time trackers bill them. */
export interface ReportRoundingRequest {
  minutes: number;
  direction?: RoundingDirection;
  scope?: RoundingScope;
}

/** Which shifts a report counts: each list narrows it; omitted: no narrowing. */
export interface ReportShiftFilter {
  companyIds?: string[] | null;
  projectIds?: string[] | null;
  userIds?: string[] | null;
  activityIds?: string[] | null;
  tags?: string[] | null;
  billable?: boolean | null;
}

/** A time report: what to count, over which range, grouped how. */
export interface ReportRequest {
  from?: Date | null;
  to?: Date | null;
  fromDate?: string | null;
  toDate?: string | null;
  timeZone?: string | null;
  groupBy: ReportDimension[];
  bucket?: ReportBucket | null;
  weekStart?: WeekStart | null;
  fillEmpty?: boolean | null;
  rounding?: ReportRoundingRequest | null;
  subtotals?: boolean | null;
  filter?: ReportShiftFilter | null;
}
