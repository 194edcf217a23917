import { BadRequestError, ValidationError } from '../../src/core/errors';
import { DATE_TIME_RULE, parseInstant } from '../../src/core/instants';
import { DateTime } from 'luxon';
import type { RootOf } from '../operation-types';
import type { CsvColumn, CsvDownload, CsvRequest, SheetColumn } from './csv-download';
import { minorUnitDigits, sheetMoneyFormat } from '../../src/core/currency-units';

/** The operation each page of the export runs. */
export const REPORT_EXPORT_OPERATION = 'ExportReport';

/** Under /api/1. */
export const REPORT_EXPORT_PATH = '/report.csv';

/** Rows per operation: the report query's own maximum (REPORT_ROWS_MAX), or PAGE_SIZE_MAX when lower. */
const EXPORT_PAGE_SIZE = 10_000;

/** A row of the report as ExportReport answers it. */
export type ReportRow = RootOf<typeof REPORT_EXPORT_OPERATION>['rows'][number];

/** The columns each grouping adds, in the order the request names the groupings. */
const GROUP_COLUMNS: Readonly<Record<string, readonly CsvColumn<ReportRow>[]>> = {
  company: [
    ['company_uuid', (r) => r.company?.id ?? null],
    ['company_name', (r) => r.company?.name ?? null],
  ],
  project: [
    ['project_uuid', (r) => r.project?.id ?? null],
    ['project_name', (r) => r.project?.name ?? null],
  ],
  activity: [
    ['activity_uuid', (r) => r.activity?.id ?? null],
    ['activity_name', (r) => r.activity?.name ?? null],
  ],
  user: [
    ['user_uuid', (r) => r.user?.id ?? null],
    ['user_login', (r) => r.user?.login ?? null],
  ],
  tag: [['tag', (r) => r.tag]],
  billable: [['billable', (r) => (r.billable === null ? null : String(r.billable))]],
  notes: [['notes', (r) => r.notes]],
};

const SUM_COLUMNS: readonly CsvColumn<ReportRow>[] = [
  ['seconds', (r) => r.seconds],
  ['billable_seconds', (r) => r.billableSeconds],
  ['amount_cents', (r) => r.amountCents],
  ['cost_cents', (r) => r.costCents],
  ['profit_cents', (r) => r.profitCents],
];

/**
 * How the workbook shows the columns that are figures or dates: durations as time (`[h]:mm`,
 * under an hours header), money in the currency's units and format, the period as a date cell.
 * Every other column is written as in the CSV file.
 */
function sheetFormOf(header: string, currency: string): SheetColumn {
  const money = { type: 'money', minorDigits: minorUnitDigits(currency) } as const;
  const forms: Readonly<Record<string, SheetColumn>> = {
    bucket_start: { header, type: 'date', numFmt: 'yyyy-mm-dd' },
    seconds: { header: 'hours', type: 'duration', numFmt: '[h]:mm' },
    billable_seconds: { header: 'billable_hours', type: 'duration', numFmt: '[h]:mm' },
    amount_cents: { header: 'amount', ...money, numFmt: sheetMoneyFormat(currency) },
    cost_cents: { header: 'cost', ...money, numFmt: sheetMoneyFormat(currency) },
    profit_cents: { header: 'profit', ...money, numFmt: sheetMoneyFormat(currency) },
  };
  return forms[header] ?? { header };
}

/** What a row is: one group, a subtotal (`subtotals`), or the whole report (the last row). */
export type ReportRowType = 'detail' | 'subtotal' | 'total';

export function reportRowType(row: Pick<ReportRow, 'level' | 'subtotal'>): ReportRowType {
  // Level 0 is grouped by nothing: the whole report, whether the ROLLUP made it or the report has
  // no keys at all (one row of everything).
  return row.level === 0 ? 'total' : row.subtotal ? 'subtotal' : 'detail';
}

/** The local date a period starts on in the report's zone: `2026-10-01`, not `2026-09-30T22:00:00Z`. */
export function bucketDate(instant: string, timeZone: string): string {
  return DateTime.fromISO(instant, { zone: timeZone }).toISODate()!;
}

const BUCKETS = ['day', 'week', 'month', 'year'];
const WEEK_STARTS = ['monday', 'sunday', 'saturday'];
const ROUND_DIRECTIONS = ['up', 'down', 'nearest'];
const ROUND_SCOPES = ['entry', 'row'];
/** A calendar date (`2026-01-01`): the range starts or ends at its 00:00 in the report's zone. */
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The parameter each field of the `report` input comes from, by the field's path. */
const PARAMETER_OF_FIELD: Readonly<Record<string, string>> = {
  from: 'from',
  fromDate: 'from',
  to: 'to',
  toDate: 'to',
  timeZone: 'time_zone',
  groupBy: 'group_by',
  bucket: 'bucket',
  weekStart: 'week_start',
  fillEmpty: 'fill_empty',
  subtotals: 'subtotals',
  'rounding.minutes': 'round_minutes',
  'rounding.direction': 'round_direction',
  'rounding.scope': 'round_scope',
  'filter.companyIds': 'company_uuids',
  'filter.projectIds': 'project_uuids',
  'filter.userIds': 'user_uuids',
  'filter.activityIds': 'activity_uuids',
  'filter.tags': 'tags',
  'filter.billable': 'billable',
};

/** `filter.projectIds.0` → `project_uuids`; a field of no parameter keeps its name. */
function reportParameterOf(field: string): string {
  const path = field.split('.');
  for (let n = path.length; n > 0; n--) {
    const parameter = PARAMETER_OF_FIELD[path.slice(0, n).join('.')];
    if (parameter) return parameter;
  }
  return field;
}

const commaList = (words: readonly string[]) => words.map((word) => `\`${word}\``).join(', ');

/** The parameters `reportDownload` reads, for the OpenAPI document. */
export const REPORT_EXPORT_PARAMETERS = [
  {
    name: 'from',
    required: true,
    description:
      "RFC 3339 instant, or a date (its 00:00 in the report's zone): the start of the range `[from, to)`",
  },
  {
    name: 'to',
    required: true,
    description:
      "RFC 3339 instant, or a date (its 00:00 in the report's zone): the end of the range `[from, to)`",
  },
  { name: 'time_zone', description: "The IANA zone of the buckets; the caller's by default" },
  {
    name: 'group_by',
    description: `Comma-separated, in column order: ${commaList(Object.keys(GROUP_COLUMNS))}`,
  },
  { name: 'bucket', description: `One of ${commaList(BUCKETS)}` },
  { name: 'week_start', description: `The first day of a week bucket: ${commaList(WEEK_STARTS)}` },
  { name: 'fill_empty', description: '`true`: a row of zeros for each empty period' },
  { name: 'subtotals', description: '`true`: subtotal rows, with a `level` column' },
  { name: 'round_minutes', description: 'Round durations to multiples of these minutes (1–1440)' },
  { name: 'round_direction', description: `With round_minutes: ${commaList(ROUND_DIRECTIONS)}` },
  { name: 'round_scope', description: `With round_minutes: ${commaList(ROUND_SCOPES)}` },
  ...['company_uuids', 'project_uuids', 'activity_uuids', 'user_uuids', 'tags'].map((name) => ({
    name,
    description: 'Comma-separated filter',
  })),
  { name: 'billable', description: '`true` or `false`' },
];

/**
 * GET /api/1/report.csv (and .xlsx, .json): the rows of the GraphQL `report` query
 * (docs/reports.md), a `row_type` column first (`detail`, `subtotal`, `total`), one column pair per
 * grouping in the order of `group_by`, then the local date the bucket starts and the sums; the
 * last row is always the report's total (`totalRow`). Parameters: `from`, `to` (RFC 3339 instants
 * or dates), `time_zone`, `group_by`, `bucket` and `week_start` as lower-case words, `fill_empty`,
 * and the filters `company_uuids`, `project_uuids`, `activity_uuids`, `user_uuids`, `tags`
 * (comma-separated) and `billable`.
 */
export function reportDownload(
  { query, run, pageSizeMax }: CsvRequest,
  { totalRow = true }: { readonly totalRow?: boolean } = {},
): CsvDownload<ReportRow> & ReportHeading {
  for (const name of ['from', 'to'] as const) {
    if (!query[name])
      throw new BadRequestError(`\`${name}\` is required: an RFC 3339 instant or a date`, {
        parameter: name,
      });
  }
  // Refused here, where the parameter's name is known, by the rule GraphQL applies too; a date by
  // the same calendar check, as the instant of its midnight.
  const impossible = (['from', 'to'] as const).filter((name) => {
    const value = query[name]!;
    return !parseInstant(DATE.test(value) ? `${value}T00:00:00Z` : value);
  });
  if (impossible.length)
    throw new ValidationError(
      undefined,
      impossible.map((field) => ({ field, message: DATE_TIME_RULE })),
    );
  const groupBy = list(query.group_by);
  const unknown = groupBy.find((group) => !(group in GROUP_COLUMNS));
  if (unknown !== undefined) {
    throw new BadRequestError(
      `\`group_by\` names ${JSON.stringify(unknown)}; use ${Object.keys(GROUP_COLUMNS).join(', ')}`,
      { parameter: 'group_by' },
    );
  }
  const bucket = query.bucket?.toLowerCase();
  if (bucket !== undefined && !BUCKETS.includes(bucket)) {
    throw new BadRequestError(`\`bucket\` must be one of ${BUCKETS.join(', ')}`, {
      parameter: 'bucket',
    });
  }
  const weekStart = query.week_start?.toLowerCase();
  if (weekStart !== undefined && !WEEK_STARTS.includes(weekStart)) {
    throw new BadRequestError(`\`week_start\` must be one of ${WEEK_STARTS.join(', ')}`, {
      parameter: 'week_start',
    });
  }
  for (const name of ['billable', 'fill_empty', 'subtotals'] as const) {
    if (query[name] !== undefined && query[name] !== 'true' && query[name] !== 'false')
      throw new BadRequestError(`\`${name}\` must be true or false`, { parameter: name });
  }
  const rounding = roundingOf(query);
  const input = {
    ...(DATE.test(query.from!) ? { fromDate: query.from } : { from: query.from }),
    ...(DATE.test(query.to!) ? { toDate: query.to } : { to: query.to }),
    ...(query.time_zone ? { timeZone: query.time_zone } : {}),
    groupBy: groupBy.map((group) => group.toUpperCase()),
    ...(bucket ? { bucket: bucket.toUpperCase() } : {}),
    ...(weekStart ? { weekStart: weekStart.toUpperCase() } : {}),
    ...(query.fill_empty !== undefined ? { fillEmpty: query.fill_empty === 'true' } : {}),
    ...(query.subtotals !== undefined ? { subtotals: query.subtotals === 'true' } : {}),
    ...(rounding ? { rounding } : {}),
    filter: {
      ...optionalList('companyIds', query.company_uuids),
      ...optionalList('projectIds', query.project_uuids),
      ...optionalList('userIds', query.user_uuids),
      ...optionalList('activityIds', query.activity_uuids),
      ...optionalList('tags', query.tags),
      ...(query.billable !== undefined ? { billable: query.billable === 'true' } : {}),
    },
  };
  const columns: CsvColumn<ReportRow>[] = [
    // Marks what a row sums, so a pivot or a filter leaves the subtotals and the total out.
    ['row_type', reportRowType],
    ...(query.subtotals === 'true' ? [['level', (r: ReportRow) => r.level] as const] : []),
    ...groupBy.flatMap((group) => GROUP_COLUMNS[group]!),
    // The local date, not the instant: October in Berlin starts at 2026-09-30T22:00:00Z, which a
    // spreadsheet's pivot by month would file under September.
    ...(bucket
      ? [
          [
            'bucket_start',
            (r: ReportRow) =>
              r.bucketStart === null ? null : bucketDate(r.bucketStart, summary!.timeZone),
          ] as const,
        ]
      : []),
    ...SUM_COLUMNS,
    // The report's currency on every row, so each money figure names it wherever it is pasted.
    ['currency', () => summary!.currency] as const,
  ];
  let summary: ReportSummary | undefined;
  const first = Math.min(EXPORT_PAGE_SIZE, pageSizeMax);
  async function* pages(): AsyncGenerator<ReportRow[]> {
    let last: ReportRow | undefined;
    for (let offset = 0; ;) {
      const report = await run(REPORT_EXPORT_OPERATION, { input, first, offset });
      summary = report;
      yield report.rows;
      last = report.rows.at(-1) ?? last;
      offset += report.rows.length;
      if (report.rows.length === 0 || offset >= report.totalCount) break;
    }
    // The report's own total row (subtotals, or no keys at all) already ends the rows.
    if (totalRow && (last === undefined || reportRowType(last) !== 'total'))
      yield [totalRowOf(summary!.totals)];
  }
  return {
    filename: 'report.csv',
    columns,
    pages: pages(),
    sheetColumns: () => columns.map(([header]) => sheetFormOf(header, summary!.currency)),
    input,
    groupBy,
    summary: () => summary!,
    parameterOf: reportParameterOf,
  };
}

/** The totals of the whole report (each shift counted once, rounded once) as its last row. */
function totalRowOf(totals: ReportSummary['totals']): ReportRow {
  return {
    company: null,
    project: null,
    activity: null,
    user: null,
    tag: null,
    billable: null,
    notes: null,
    level: 0,
    subtotal: true,
    bucketStart: null,
    ...totals,
  };
}

/** What a report download says of itself beside its rows (the summary PDF's heading). */
export interface ReportHeading {
  /** The `report` input the pages run with. */
  readonly input: {
    readonly from?: string;
    readonly to?: string;
    readonly fromDate?: string;
    readonly toDate?: string;
    readonly bucket?: string;
  };
  /** The groupings, lower case, in column order. */
  readonly groupBy: readonly string[];
  /** The currency, the zone and the totals of the whole report, known once a page is read. */
  summary(): ReportSummary;
}

type ReportSummary = Pick<
  RootOf<typeof REPORT_EXPORT_OPERATION>,
  'currency' | 'timeZone' | 'totals'
>;

/** `round_minutes` with its direction and scope, as the report's `rounding`. */
function roundingOf(
  query: Readonly<Record<string, string>>,
): { minutes: number; direction?: string; scope?: string } | undefined {
  const words = (name: string, allowed: readonly string[]) => {
    const word = query[name]?.toLowerCase();
    if (word !== undefined && !allowed.includes(word))
      throw new BadRequestError(`\`${name}\` must be one of ${allowed.join(', ')}`, {
        parameter: name,
      });
    return word?.toUpperCase();
  };
  const direction = words('round_direction', ROUND_DIRECTIONS);
  const scope = words('round_scope', ROUND_SCOPES);
  if (query.round_minutes === undefined) {
    const stray = direction ? 'round_direction' : scope ? 'round_scope' : undefined;
    if (stray)
      throw new BadRequestError(`\`${stray}\` needs \`round_minutes\``, { parameter: stray });
    return undefined;
  }
  if (!/^\d{1,4}$/.test(query.round_minutes))
    throw new BadRequestError('`round_minutes` must be a whole number of minutes', {
      parameter: 'round_minutes',
    });
  return {
    minutes: Number(query.round_minutes),
    ...(direction ? { direction } : {}),
    ...(scope ? { scope } : {}),
  };
}

function list(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter((item) => item !== '');
}

/** A comma-separated parameter as a filter list, kept as sent (uuids and tags are not lower-cased). */
function optionalList(field: string, text: string | undefined): Record<string, string[]> {
  if (text === undefined) return {};
  return {
    [field]: text
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== ''),
  };
}
