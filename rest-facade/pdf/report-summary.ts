import type { CsvDownload, CsvRequest } from '../csv/csv-download';
import { reportDownload, type ReportRow } from '../csv/report-export';

/** Under /api/1. */
export const REPORT_SUMMARY_PATH = '/report.pdf';

/** The column of each grouping in the summary: the names a client reads, not the ids. */
const GROUP_COLUMNS: Readonly<
  Record<string, readonly [string, (row: ReportRow) => string | null]>
> = {
  company: ['Company', (r) => r.company?.name ?? null],
  project: ['Project', (r) => r.project?.name ?? null],
  activity: ['Activity', (r) => r.activity?.name ?? null],
  user: ['Person', (r) => r.user?.login ?? null],
  tag: ['Tag', (r) => r.tag],
  billable: ['Billable', (r) => (r.billable === null ? null : r.billable ? 'yes' : 'no')],
  notes: ['Notes', (r) => r.notes],
};

/** Seconds as hours and minutes (`37:05`), as timesheets show them. */
export function hoursAndMinutes(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
}

/**
 * GET /api/1/report.pdf: a summary of a report for a client, with the parameters of report.csv
 * (docs/reports.md): its range, zone and currency, a row per group with the period (the local
 * date it starts), the hours and the amount, and the totals. The rows are the `report` query's,
 * so visibility and money follow the caller's permissions (no amounts where they read no money).
 */
export function reportSummary(request: CsvRequest): CsvDownload<ReportRow> {
  const report = reportDownload(request);
  const money = (cents: number | null) =>
    cents === null
      ? null
      : new Intl.NumberFormat('en', {
          style: 'currency',
          currency: report.summary().currency,
        }).format(cents / 100);
  const localDate = (instant: string | null) =>
    instant === null
      ? null
      : new Intl.DateTimeFormat('en-CA', { timeZone: report.summary().timeZone }).format(
          new Date(instant),
        );
  const { input } = report;
  return {
    filename: 'report.pdf',
    columns: [
      ...report.groupBy.map((group) => GROUP_COLUMNS[group]!),
      ...(input.bucket ? [['Period', (r: ReportRow) => localDate(r.bucketStart)] as const] : []),
      ['Hours', (r) => hoursAndMinutes(r.seconds)],
      ['Amount', (r) => money(r.amountCents)],
    ],
    figures: new Set(['Hours', 'Amount']),
    pages: report.pages,
    heading: () => [
      'Time report',
      `${input.fromDate ?? input.from} to ${input.toDate ?? input.to} (the end excluded)`,
      `Times in ${report.summary().timeZone}; amounts in ${report.summary().currency}`,
    ],
    footing: () => {
      const { totals } = report.summary();
      const amount = money(totals.amountCents);
      return [`Total: ${hoursAndMinutes(totals.seconds)} hours${amount ? `, ${amount}` : ''}`];
    },
  };
}
