import type { RequestContext } from '../../src/core/request-context';
import {
  csvRequestFor,
  writeCsv,
  type CsvColumn,
  type CsvDownload,
  type CsvOperations,
  type CsvRequest,
} from './csv-download';
import { queryParameters } from '../json/json-routes';
import { compileOrderText, type OrderTerm } from '../query/order-parser';
import { compileWhere, type WhereFilter } from '../query/where-compiler';
import type { RootOf } from '../operation-types';
import type { ShiftOrderField } from '../operations/generated';
import type { JsonNameOf } from '../routes/legacy-fields';
import { SHIFT, shiftColumns } from '../routes/shifts.routes';

/**
 * Rows per operation: well inside the cost limit, few enough that a page is small in memory, and
 * that building a page's answer is a short slice of the event loop, shared with every account's
 * requests. Pages of 1,000 shifts held the loop up to about 60 ms each, and another account's p99
 * beside an XLSX export went to 2.1 times its p99 alone; pages of 250 hold it about half as long
 * (1.65 times; bench/results/fairness-2026-11-28-documents.md), for exports about a fifth slower.
 */
const EXPORT_PAGE_SIZE = 250;

/** The operation each page of the export runs. */
export const SHIFT_EXPORT_OPERATION = 'ExportShifts';

/** `where` and `order` over the columns of shifts.json. */
export const SHIFT_EXPORT_PARAMETERS = queryParameters(shiftColumns);

/** A shift as ExportShifts answers it: the fields of the JSON shift, and the names. */
type ExportNode = RootOf<typeof SHIFT_EXPORT_OPERATION>['nodes'][number];

/** A column that is a field of the JSON shift, written in its declared form. */
const wire = (name: JsonNameOf<'Shift'>): CsvColumn<ExportNode> => [
  name,
  (s) => SHIFT.cell(name, s),
];

/**
 * The columns of the file: the fields of the JSON shift, plus names and the duration a spreadsheet
 * wants. A layout, in the order sheets read by position rely on: new columns go last.
 */
const COLUMNS: readonly CsvColumn<ExportNode>[] = [
  wire('uuid'),
  ['legacy_id', (s) => s.legacyId],
  wire('start'),
  wire('stop'),
  [
    'duration_seconds',
    (s) => (s.stop === null ? null : Math.round((Date.parse(s.stop) - Date.parse(s.start)) / 1000)),
  ],
  wire('time_zone'),
  wire('billable'),
  wire('project_uuid'),
  // Empty for a project the caller may not see (their own shift on a PRIVATE project).
  ['project_name', (s) => s.project?.name ?? null],
  ['user_uuid', (s) => s.user.id],
  ['user_login', (s) => s.user.login],
  wire('activity_uuid'),
  ['activity_name', (s) => s.activity?.name ?? null],
  wire('tag_list'),
  wire('notes'),
  wire('external_href'),
  ['project_code', (s) => s.project?.code ?? null],
];

export const SHIFT_EXPORT_COLUMNS = COLUMNS.map(([header]) => header);

/**
 * How each orderable column continues a page: the filter field and the value of the last row.
 * The legacy id ends every order, so the key is unique and pages neither skip nor repeat rows.
 * Typed by the schema's order enum (generated.ts): a new order field of shifts without a key here
 * fails to compile. The instants of the row's own changes are no column of the legacy interface.
 */
interface Key {
  readonly filter: string;
  readonly value: (s: ExportNode) => unknown;
  readonly nullable?: boolean;
}
const KEYS: Readonly<Record<string, Key>> = {
  ID: { filter: 'id', value: (s) => s.id },
  START: { filter: 'start', value: (s) => s.start },
  STOP: { filter: 'stop', value: (s) => s.stop, nullable: true },
  NOTES: { filter: 'notes', value: (s) => s.notes, nullable: true },
  TIME_ZONE: { filter: 'timeZone', value: (s) => s.timeZone },
  BILLABLE: { filter: 'billable', value: (s) => s.billable },
  PROJECT_ID: { filter: 'projectId', value: (s) => s.projectId },
  USER_ID: { filter: 'userId', value: (s) => s.user.id },
  ACTIVITY_ID: { filter: 'activityId', value: (s) => s.activityId, nullable: true },
  EXTERNAL_HREF: { filter: 'externalHref', value: (s) => s.externalHref, nullable: true },
  LEGACY_ID: { filter: 'legacyId', value: (s) => s.legacyId },
} satisfies Record<Exclude<ShiftOrderField, 'CREATED_AT' | 'UPDATED_AT'>, Key>;

/**
 * GET /api/1/shifts.csv (and a project's): every shift the caller can see that matches `where`,
 * in `order`. Keyset paging: each page continues after the last row of the one before, so rows
 * added or removed during a long export neither shift the pages nor appear twice, and each page
 * costs the same however deep into the table it is.
 */
export function shiftDownload({
  query,
  params,
  run,
  pageSizeMax,
}: CsvRequest): CsvDownload<ExportNode> {
  const filter = compileWhere(query.where, shiftColumns);
  const order = withUniqueKey(compileOrderText(query.order, shiftColumns) ?? []);
  const first = Math.min(EXPORT_PAGE_SIZE, pageSizeMax);
  async function* pages(): AsyncGenerator<ExportNode[]> {
    let last: ExportNode | undefined;
    for (;;) {
      const pageFilter = last ? { and: [...(filter ? [filter] : []), after(order, last)] } : filter;
      const shifts = await run(SHIFT_EXPORT_OPERATION, {
        projectId: params.project_uuid,
        filter: pageFilter,
        order,
        first,
      });
      yield shifts.nodes;
      if (!shifts.pageInfo.hasNextPage || shifts.nodes.length === 0) return;
      last = shifts.nodes[shifts.nodes.length - 1];
    }
  }
  return { filename: 'shifts.csv', columns: COLUMNS, pages: pages() };
}

/** The `where` and `order` of GET /api/1/shifts.csv, in its language. */
export interface ShiftExportQuery {
  readonly where?: string | undefined;
  readonly order?: string | undefined;
}

/**
 * The file of GET /api/1/shifts.csv for a context made without HTTP (the CLI's `export`, as the
 * account's owner): the same language, columns and keyset pages. Resolves with the number of rows.
 */
export async function writeShiftsCsv(
  deps: CsvOperations,
  ctx: RequestContext,
  query: ShiftExportQuery,
  open: () => NodeJS.WritableStream,
  signal?: AbortSignal,
): Promise<number> {
  const parameters = Object.fromEntries(
    Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return writeCsv(shiftDownload(csvRequestFor(deps, ctx, parameters)), open, signal);
}

function withUniqueKey(order: OrderTerm<ShiftOrderField>[]): OrderTerm<ShiftOrderField>[] {
  return order.some((term) => term.field === 'LEGACY_ID')
    ? order
    : [...order, { field: 'LEGACY_ID', direction: 'ASC' }];
}

/**
 * The rows after `last` in `order`: for some term k, every earlier term equals last's value and
 * term k comes after it. PostgreSQL sorts nulls last ascending and first descending; false before true.
 */
function after(order: readonly OrderTerm[], last: ExportNode): WhereFilter {
  const alternatives: WhereFilter[] = [];
  const equalSoFar: WhereFilter[] = [];
  for (const term of order) {
    const key = keyOf(term);
    const value = key.value(last);
    const beyond = comesAfter(key.filter, value, term.direction, key.nullable === true);
    if (beyond) alternatives.push({ and: [...equalSoFar, beyond] });
    equalSoFar.push({ [key.filter]: value === null ? { isNull: true } : { eq: value } });
  }
  // The same rows, plus a plain range on the first column, so that PostgreSQL can start an index
  // scan at the last row instead of filtering every row before it (which makes an export quadratic).
  const lead = leadingBound(order[0]!, last);
  return lead ? { and: [lead, { or: alternatives }] } : { or: alternatives };
}

function keyOf(term: OrderTerm): Key {
  const key = KEYS[term.field];
  if (!key) throw new Error(`no keyset for order field ${term.field}`);
  return key;
}

/** `column >= value` (or `<=` descending) on the first order column, when it is a plain range. */
function leadingBound(term: OrderTerm, last: ExportNode): WhereFilter | undefined {
  const key = keyOf(term);
  const value = key.value(last);
  if (value === null || typeof value === 'boolean' || key.nullable) return undefined;
  return { [key.filter]: { [term.direction === 'ASC' ? 'gte' : 'lte']: value } };
}

/** The condition for a value strictly after `value` in one column, or undefined when none can be. */
function comesAfter(
  field: string,
  value: unknown,
  direction: 'ASC' | 'DESC',
  nullable: boolean,
): WhereFilter | undefined {
  if (typeof value === 'boolean') {
    const next = direction === 'ASC' ? value === false : value === true;
    return next ? { [field]: { eq: !value } } : undefined;
  }
  if (value === null) return direction === 'ASC' ? undefined : { [field]: { isNull: false } };
  const strictly = { [field]: { [direction === 'ASC' ? 'gt' : 'lt']: value } };
  return nullable && direction === 'ASC'
    ? { or: [strictly, { [field]: { isNull: true } }] }
    : strictly;
}
