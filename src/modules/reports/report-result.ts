/**
 * What a report answers, as plain types: the report service builds them, and the GraphQL object
 * types (graphql/report.types.ts) implement them.
 */
import type { ReportBucket, ReportDimension } from './report-request';

/** A company, project or activity a row is about, by the object's own ids. */
export interface ReportRefShape {
  nodeId: string;
  legacyId: number;
  name: string | null;
}

/** The user a row is about. */
export interface ReportUserShape {
  staffId: string;
  legacyId: number;
  login: string;
  firstName: string;
  lastName: string;
}

/** The sums of a row or of the totals. */
export interface ReportSumsShape {
  seconds: number;
  billableSeconds: number;
  amountCents: number | null;
  costCents: number | null;
  profitCents: number | null;
}

/** One row: its keys and its sums. */
export interface ReportRowShape extends ReportSumsShape {
  company: ReportRefShape | null;
  project: ReportRefShape | null;
  activity: ReportRefShape | null;
  user: ReportUserShape | null;
  tag: string | null;
  billable: boolean | null;
  notes: string | null;
  level: number;
  subtotal: boolean;
  bucketStart: Date | null;
}

/** A report: its range, its rows and its totals. */
export interface ReportShape {
  from: Date;
  to: Date;
  currency: string;
  timeZone: string;
  groupBy: ReportDimension[];
  bucket: ReportBucket | null;
  rows: ReportRowShape[];
  totalCount: number;
  totals: ReportSumsShape;
}
