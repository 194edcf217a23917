import { Router, type RequestHandler } from 'express';
import type { OperationName } from '../operation-types';
import {
  CSV,
  csvDownloadRoute,
  XLSX,
  type CsvDownload,
  type CsvDownloadDeps,
  type CsvRequest,
  type DownloadFormat,
} from '../csv/csv-download';
import {
  REPORT_EXPORT_OPERATION,
  REPORT_EXPORT_PARAMETERS,
  REPORT_EXPORT_PATH,
  reportDownload,
} from '../csv/report-export';
import {
  SHIFT_EXPORT_COLUMNS,
  SHIFT_EXPORT_OPERATION,
  SHIFT_EXPORT_PARAMETERS,
  shiftDownload,
} from '../csv/shift-export';
import { JSON_DOWNLOAD } from '../csv/json-download';
import { PDF } from '../pdf/pdf-table';
import { REPORT_SUMMARY_PATH, reportSummary } from '../pdf/report-summary';

/** A query parameter of a download, as the OpenAPI document describes it. */
export interface CsvParameter {
  readonly name: string;
  readonly description: string;
  readonly required?: boolean;
}

/**
 * One download under /api/1 (a CSV file, or the same rows as an Excel workbook): where it is
 * mounted, and what the OpenAPI document says of it.
 */
export interface CsvRoute {
  /** The path under /api/1, `:name` for a parameter; it ends in the format's extension. */
  readonly path: string;
  readonly format: DownloadFormat;
  /** The operation each page of the download runs. */
  readonly operation: OperationName;
  /** The OpenAPI tag: the resource the rows are about. */
  readonly tag: string;
  readonly summary: string;
  /** What the file holds: its columns. */
  readonly columns: string;
  readonly queryParameters: readonly CsvParameter[];
  readonly handler: (deps: CsvDownloadDeps) => RequestHandler;
}

/** A download as CSV (`route.path`, ending in `.csv`) and as an Excel workbook (`.xlsx`). */
function csvRoute<T>(
  route: Omit<CsvRoute, 'handler' | 'format'>,
  describe: (request: CsvRequest) => CsvDownload<T>,
): CsvRoute[] {
  return [CSV, XLSX].map((format) => ({
    ...route,
    path: route.path.replace(/\.csv$/, `.${format.extension}`),
    summary: route.summary.replace(
      / as CSV$/,
      format === CSV ? ' as CSV' : ' as an Excel workbook',
    ),
    format,
    handler: (deps: CsvDownloadDeps) => csvDownloadRoute(deps, describe, format),
  }));
}

const REPORT_COLUMNS =
  "`row_type` first (`detail`; `subtotal` with `subtotals`; `total` on the last row, always there: the whole report, each shift counted once), `level` with `subtotals`, a column pair per grouping in the order of `group_by` (`company_uuid,company_name`, `project_uuid,project_name`, `activity_uuid,activity_name`, `user_uuid,user_login`) or one (`tag`, `billable`, `notes`), then `bucket_start` with a bucket (the local date the period starts in the report's zone, `2026-10-01`), then `seconds,billable_seconds,amount_cents,cost_cents,profit_cents,currency` (amounts in the minor unit of the currency, ISO 4217: cents of EUR, yen of JPY). The workbook holds the period as a date cell, the durations as time (`hours`, `billable_hours`: `[h]:mm`) and the amounts in the currency's units and format (`amount`, `cost`, `profit`).";

const shiftExport = {
  operation: SHIFT_EXPORT_OPERATION,
  tag: 'Shift',
  columns: `One row per shift: ${SHIFT_EXPORT_COLUMNS.map((column) => `\`${column}\``).join(', ')}.`,
  queryParameters: SHIFT_EXPORT_PARAMETERS,
} as const;

/**
 * The downloads, each as CSV and XLSX: shifts (where/order of the JSON interface, flat and per
 * project) and report rows; a report's rows also as JSON and its summary as PDF.
 */
export const CSV_ROUTES: readonly CsvRoute[] = [
  ...csvRoute(
    { ...shiftExport, path: '/shifts.csv', summary: 'Export the shifts the caller can see as CSV' },
    shiftDownload,
  ),
  ...csvRoute(
    {
      ...shiftExport,
      path: '/projects/:project_uuid/shifts.csv',
      summary: "Export a project's shifts as CSV",
    },
    shiftDownload,
  ),
  ...csvRoute(
    {
      path: REPORT_EXPORT_PATH,
      operation: REPORT_EXPORT_OPERATION,
      tag: 'Report',
      summary: 'Export the rows of a report as CSV',
      columns: REPORT_COLUMNS,
      queryParameters: REPORT_EXPORT_PARAMETERS,
    },
    reportDownload,
  ),
  {
    path: REPORT_EXPORT_PATH.replace(/\.csv$/, '.json'),
    operation: REPORT_EXPORT_OPERATION,
    tag: 'Report',
    summary: 'The rows of a report as JSON',
    columns: `The rows of \`report.csv\`, each an object keyed by its column names. ${REPORT_COLUMNS}`,
    queryParameters: REPORT_EXPORT_PARAMETERS,
    format: JSON_DOWNLOAD,
    handler: (deps) => csvDownloadRoute(deps, reportDownload, JSON_DOWNLOAD),
  },
  {
    path: REPORT_SUMMARY_PATH,
    operation: REPORT_EXPORT_OPERATION,
    tag: 'Report',
    summary: 'A summary of a report for a client as PDF',
    columns:
      'A heading (the range, the zone, the currency), a table of the rows (the names of each grouping, the period, the hours, the amount) and the totals; at most 2,000 rows.',
    queryParameters: REPORT_EXPORT_PARAMETERS,
    format: PDF,
    handler: (deps) => csvDownloadRoute(deps, reportSummary, PDF),
  },
];

/** The operations the CSV downloads run (beside the JSON routes' ones). */
export const CSV_OPERATIONS = [...new Set(CSV_ROUTES.map((route) => route.operation))];

/** The CSV downloads under /api/1. */
export function createCsvRouter(deps: CsvDownloadDeps): Router {
  for (const name of CSV_OPERATIONS) deps.registry.get(name);
  const router = Router();
  for (const route of CSV_ROUTES) router.get(`/api/1${route.path}`, route.handler(deps));
  return router;
}
