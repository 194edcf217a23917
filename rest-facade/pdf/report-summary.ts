import type { CsvDownload, CsvRequest } from '../csv/csv-download';
import { formatMoney } from '../../src/core/currency-units';
import { bucketDate, reportDownload, type ReportRow } from '../csv/report-export';

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
 * so visibility and money follow the caller's permissions: where the caller reads no money (a
 * staff member), the document has no amount column and names no currency. Amounts are in the
 * currency's minor unit (ISO 4217: a yen amount is yen, not hundredths).
 */
export function reportSummary(request: CsvRequest): CsvDownload<ReportRow> {
  // The total is the footing, not a row of the table.
  const report = reportDownload(request, { totalRow: false });
  const { input } = report;
  // Known once the rows are read; the document is laid out after that (pdf-table.ts).
  const readsMoney = () => report.summary().totals.amountCents !== null;
  const money = (minor: number | null) =>
    minor === null ? null : formatMoney(minor, report.summary().currency);
  const period = (instant: string | null) =>
    instant === null ? null : bucketDate(instant, report.summary().timeZone);
  return {
    filename: 'report.pdf',
    get columns() {
      return [
        ...report.groupBy.map((group) => GROUP_COLUMNS[group]!),
        ...(input.bucket ? [['Period', (r: ReportRow) => period(r.bucketStart)] as const] : []),
        ['Hours', (r: ReportRow) => hoursAndMinutes(r.seconds)] as const,
        ...(readsMoney() ? [['Amount', (r: ReportRow) => money(r.amountCents)] as const] : []),
      ];
    },
    figures: new Set(['Hours', 'Amount']),
    pages: report.pages,
    heading: () => [
      'Time report',
      `${input.fromDate ?? input.from} to ${input.toDate ?? input.to} (the end excluded)`,
      `Times in ${report.summary().timeZone}${readsMoney() ? `; amounts in ${report.summary().currency}` : ''}`,
    ],
    footing: () => {
      const amount = money(report.summary().totals.amountCents);
      return [
        `Total: ${hoursAndMinutes(report.summary().totals.seconds)} hours${amount ? `, ${amount}` : ''}`,
      ];
    },
  };
}
