import type { Knex } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { ValidationError } from '../../core/errors';
import type { RequestContext } from '../../core/request-context';
import { timeZoneField } from '../../core/zone-names';
import type { SqlCondition } from '../rule-forms';
import { loadById } from '../paging';
import { fields } from '../writes';
import { companyVisibilitySql } from '../companies';
import { mayReadCosts, mayReadMoney } from '../accounts';
import { projectVisibilitySql } from '../projects';
import { shiftScope, shiftVisibilitySql } from '../shifts';
import { Staff } from '../staff';
import { DateTime } from 'luxon';
import {
  ReportBucket,
  ReportDimension,
  RoundingDirection,
  RoundingScope,
  WeekStart,
  type ReportRequest,
} from './report-request';
import type { ReportRowShape, ReportShape, ReportSumsShape } from './report-result';

/** Rows of one answer when `first` is omitted, and at most. */
export const REPORT_ROWS_DEFAULT = 1000;
export const REPORT_ROWS_MAX = 10_000;
/** The longest range a report covers: ten years (of 366 days). */
export const REPORT_MAX_DAYS = 3660;

/** A page of report rows: `limit` rows after skipping `offset`, in the report's order. */
export interface ReportPage {
  limit?: number | null;
  offset?: number | null;
}

const MIN_DATE = new Date('1970-01-01T00:00:00Z');
// Periods past the end of the range must stay representable (a YEAR bucket reaches a year beyond).
const MAX_DATE = new Date('9999-01-01T00:00:00Z');
const instant = z.date().min(MIN_DATE, 'is before 1970').max(MAX_DATE, 'is after 9998');
const ids = fields.uuid().array().max(1000, 'must list at most 1000 ids');

const localDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)');

const inputSchema = z
  .object({
    from: instant.nullish(),
    to: instant.nullish(),
    fromDate: localDate.nullish(),
    toDate: localDate.nullish(),
    timeZone: timeZoneField().nullish(),
    groupBy: z.array(z.enum(ReportDimension)).transform((dims) => [...new Set(dims)]),
    bucket: z.enum(ReportBucket).nullish(),
    weekStart: z.enum(WeekStart).nullish(),
    fillEmpty: z.boolean().nullish(),
    subtotals: z.boolean().nullish(),
    rounding: z
      .object({
        minutes: z
          .number()
          .int()
          .min(1, 'must be between 1 and 1440')
          .max(1440, 'must be between 1 and 1440'),
        direction: z.enum(RoundingDirection).nullish(),
        scope: z.enum(RoundingScope).nullish(),
      })
      .nullish(),
    filter: z
      .object({
        companyIds: ids.nullish(),
        projectIds: ids.nullish(),
        userIds: ids.nullish(),
        activityIds: ids.nullish(),
        tags: z.array(fields.requiredText(64)).max(100, 'must list at most 100 tags').nullish(),
        billable: z.boolean().nullish(),
      })
      .nullish(),
    // Named as the GraphQL argument, so that errors name what the client sent.
    first: z
      .number()
      .int()
      .min(1, `must be between 1 and ${REPORT_ROWS_MAX}`)
      .max(REPORT_ROWS_MAX, `must be between 1 and ${REPORT_ROWS_MAX}`)
      .nullish(),
    offset: z.number().int().min(0, 'must not be negative').max(1_000_000_000).nullish(),
  })
  .superRefine((value, issues) => {
    for (const [instantField, dateField] of [
      ['from', 'fromDate'],
      ['to', 'toDate'],
    ] as const) {
      const given = [value[instantField], value[dateField]].filter((v) => v != null).length;
      if (given !== 1)
        issues.addIssue({
          code: 'custom',
          path: [instantField],
          message: given ? `give ${instantField} or ${dateField}, not both` : 'is required',
        });
    }
  });

type Checked = Omit<z.output<typeof inputSchema>, 'from' | 'to'> & {
  from: Date;
  to: Date;
  timeZone: string;
};

/** The SQL of each dimension: its key column in the aggregate, and how rows sort by it. */
const KEY_COLUMN: Record<ReportDimension, string> = {
  [ReportDimension.COMPANY]: 'company_id',
  [ReportDimension.PROJECT]: 'project_id',
  [ReportDimension.ACTIVITY]: 'activity_id',
  [ReportDimension.USER]: 'user_id',
  [ReportDimension.TAG]: 'tag',
  [ReportDimension.BILLABLE]: 'billable',
  [ReportDimension.NOTES]: 'notes',
};
/** Where each key column comes from in the shift scan (`t` is the tag expansion). */
const KEY_SOURCE: Record<string, string> = {
  company_id: 'p.company_id',
  project_id: 's.project_id',
  activity_id: 's.activity_id',
  user_id: 's.user_id',
  tag: 't.tag',
  notes: 's.notes',
};
// By the names the caller is given (the output columns), so a row whose name is withheld sorts as
// a null name, not by the name it withholds.
const SORT: Record<ReportDimension, string> = {
  [ReportDimension.COMPANY]: 'company_name, g.company_id',
  [ReportDimension.PROJECT]: 'project_name, g.project_id',
  [ReportDimension.ACTIVITY]: 'activity_name nulls last, g.activity_id nulls last',
  [ReportDimension.USER]: 'u.last_name, u.first_name, u.login, g.user_id',
  [ReportDimension.TAG]: 'g.tag nulls last',
  [ReportDimension.BILLABLE]: 'g.billable desc',
  [ReportDimension.NOTES]: 'g.notes nulls last',
};

/** The key columns of the groups, with their types for the keys a report does not group by. */
const COLUMN_TYPES: Record<string, string> = {
  company_id: 'integer',
  project_id: 'integer',
  activity_id: 'integer',
  user_id: 'integer',
  tag: 'text',
  billable: 'boolean',
  notes: 'text',
  k: 'timestamp',
};

/** How reports are read. */
export interface ReportOptions {
  /** Read the time rollups where they answer a report (REPORT_ROLLUPS); else always the shifts. */
  readonly rollups: boolean;
}

/**
 * A rollup table: the groups' key columns it answers and where each comes from (r: the row), and
 * the join that names the project or user (p, u) for companies and the filters, in the account
 * (`?`: a constant, as the rollup rows' own, which Citus needs to keep the report on one worker).
 */
interface Rollup {
  readonly table: string;
  readonly join: string;
  readonly sources: Readonly<Record<string, string>>;
}
const PROJECT_ROLLUP: Rollup = {
  table: 'project_time_rollups',
  join: 'join projects p on p.account_id = ? and p.id = r.project_id',
  sources: { project_id: 'r.project_id', company_id: 'p.company_id' },
};
const USER_ROLLUP: Rollup = {
  table: 'user_time_rollups',
  join: 'join users u on u.account_id = ? and u.id = r.user_id',
  sources: { user_id: 'r.user_id' },
};

/** The totals' columns: on the first row only (thousands of copies were parsed for nothing). */
const TOTAL_COLUMNS = [
  'total_rows',
  'currency',
  'total_seconds',
  'total_billable_seconds',
  'total_amount_cents',
  'total_cost_cents',
];

/**
 * A row of the statement. A dimension's columns are there only when the report groups by it, the
 * period's start only with a bucket, and the totals (TOTAL_COLUMNS) only on the first row.
 */
interface ResultRow {
  company_id: number | null;
  company_uuid: string | null;
  company_name: string | null;
  project_id: number | null;
  project_uuid: string | null;
  project_name: string | null;
  activity_id: number | null;
  activity_uuid: string | null;
  activity_name: string | null;
  user_id: number | null;
  user_uuid: string | null;
  login: string | null;
  first_name: string | null;
  last_name: string | null;
  tag: string | null;
  billable: boolean | null;
  notes: string | null;
  /** Milliseconds since 1970: the driver's text form of timestamptz is not ISO 8601. */
  bucket_start_ms: string | null;
  seconds: string | null;
  billable_seconds: string | null;
  amount_cents: string | null;
  cost_cents: string | null;
  /** How many keys the row is grouped by (fewer on a subtotal). */
  level: number | null;
  /** 1 on a row of the page; null on the one row an empty report answers (totals only). */
  in_page: number | null;
  total_rows: string;
  total_seconds: string;
  total_billable_seconds: string;
  total_amount_cents: string;
  total_cost_cents: string;
  /** The account's currency. */
  currency: string;
}

/**
 * Time reports: sums of shift time grouped by company, project, activity, user, tag, billable and
 * calendar period, over a half-open range, computed by PostgreSQL in one aggregate statement.
 *
 * - A shift counts for the part of [start, stop) inside [from, to); a running shift runs up to the
 *   request's instant, the same instant `Project.grandTotal` uses, so the two agree exactly.
 * - With a bucket, each shift is split at the period boundaries of the named zone (local
 *   midnight, Monday, the first of the month, January 1), so a day is 23 or 25 hours long when
 *   the clocks change.
 * - Money: billable seconds × the rate each shift carries (the project's, else the user's, in
 *   force at its start: the rates module) / 3600, in cents; costs likewise with the cost rate.
 *   Seconds and money are summed exactly (microseconds, numeric) and rounded once per row.
 * - Visibility is the shift list's (shifts/shift.policy.ts); a company's, project's or
 *   activity's name shows only where the company (companies/company.policy.ts) or the project
 *   (projects/project.policy.ts) itself is visible: a staff member's own time on a PRIVATE
 *   project counts, unnamed. Amounts only for those who read money (accounts' mayReadMoney),
 *   costs and profits for those who read costs (mayReadCosts).
 */
export class ReportService {
  constructor(private readonly options: ReportOptions = { rollups: true }) {}

  async report(
    ctx: RequestContext,
    input: ReportRequest,
    page: ReportPage = {},
  ): Promise<ReportShape> {
    return this.rowsPage(ctx, input, page);
  }

  /**
   * One page of the report's rows in its stable order, with the total row count and the totals of
   * the whole report. Paging re-runs the aggregate: for an export, ask for large pages
   * (up to REPORT_ROWS_MAX) and stop when `offset + rows.length >= totalCount`.
   */
  async rowsPage(
    ctx: RequestContext,
    input: ReportRequest,
    page: ReportPage = {},
  ): Promise<ReportShape> {
    const checked = await this.check(ctx, input, page);
    const limit = checked.first ?? REPORT_ROWS_DEFAULT;
    const offset = checked.offset ?? 0;
    const knex = ctx.em.getKnex();
    // Knex.Raw is a thenable: async functions hand it over wrapped, or awaiting would run it.
    const { query, heavy } = await this.statement(ctx, knex, checked, limit, offset);
    // An aggregate over the shifts can keep a connection busy for seconds: it runs in the
    // heavy-work lane, so that reports of every account together never hold more than a few
    // pooled connections. Most reads of rollups take milliseconds and need no turn.
    const run = () => this.execute(knex, query);
    const result = await (heavy && ctx.heavy ? ctx.heavy(run) : run());
    // The totals row always comes, with the page's columns null when the page is empty.
    const first = result[0];
    const sums = sumsReader(ctx);
    const rows = result.filter((r) => r.in_page !== null).map((r) => reportRow(checked, r, sums));
    return {
      from: checked.from,
      to: checked.to,
      timeZone: checked.timeZone,
      currency: first!.currency,
      groupBy: checked.groupBy,
      bucket: checked.bucket ?? null,
      rows,
      totalCount: Number(first?.total_rows ?? 0),
      totals: sums(
        first?.total_seconds,
        first?.total_billable_seconds,
        first?.total_amount_cents,
        first?.total_cost_cents,
      ),
    };
  }

  private async check(
    ctx: RequestContext,
    input: ReportRequest,
    page: ReportPage,
  ): Promise<Checked> {
    const result = inputSchema.safeParse({ ...input, first: page.limit, offset: page.offset });
    if (!result.success) {
      throw new ValidationError(
        undefined,
        result.error.issues.map((issue) => ({
          field: issue.path.map(String).join('.') || 'input',
          message: issue.message,
        })),
      );
    }
    const timeZone =
      result.data.timeZone ?? (await loadById(ctx, Staff, ctx.viewer.id))?.timeZone ?? 'UTC';
    const { from, to } = rangeOf(result.data, timeZone);
    return { ...result.data, from, to, timeZone };
  }

  /**
   * Runs the statement with JIT compilation off: the planner cannot estimate how many periods
   * `generate_series` yields per shift, overestimates the cost a thousandfold, and PostgreSQL then
   * spends 0.5-0.9 s compiling a statement that runs in about 0.4 s (one year of the benchmark data).
   *
   * And without parallel workers: a parallel plan spreads one report over every core of the
   * database server, so one account's reports, however few the heavy-work lane lets run, still
   * took the CPU every other account's queries need (issue 20, finding 4). One report, one core.
   */
  private async execute(knex: Knex, query: Knex.Raw): Promise<ResultRow[]> {
    const { sql, bindings } = query.toSQL();
    try {
      return await knex.transaction(
        async (trx) => {
          await trx.raw(
            "select set_config('jit', 'off', true), set_config('max_parallel_workers_per_gather', '0', true)",
          );
          return (await trx.raw(sql, bindings as Knex.RawBinding[])).rows as ResultRow[];
        },
        { readOnly: true },
      );
    } catch (error) {
      // A zone the runtime knows but this PostgreSQL's tz database does not.
      if (
        (error as { code?: string }).code === '22023' &&
        /time zone/i.test(String((error as Error).message))
      ) {
        throw ValidationError.field(undefined, 'timeZone', 'is not a time zone the database knows');
      }
      throw error;
    }
  }

  /**
   * Whether a report can be read from the time rollups (the time-rollups migration): grouped by
   * nothing but projects and companies (the project rollups) or by nothing but users (the user
   * rollups), filtered by those only, rounded per row if at all. Anything else adds up the shifts
   * themselves.
   */
  private rollupFor(q: Checked): Rollup | undefined {
    const f = q.filter ?? {};
    if (!this.options.rollups) return undefined;
    if (f.activityIds || f.tags?.length || f.billable != null) return undefined;
    if (q.rounding && (q.rounding.scope ?? RoundingScope.ENTRY) === RoundingScope.ENTRY)
      return undefined;
    const only = (...dimensions: ReportDimension[]) =>
      q.groupBy.every((d) => dimensions.includes(d));
    const byUser = only(ReportDimension.USER) && !f.projectIds && !f.companyIds;
    const byProject = only(ReportDimension.COMPANY, ReportDimension.PROJECT) && !f.userIds;
    // The user rollups are the smaller where both would do (a few dozen staff, hundreds of projects).
    return byUser ? USER_ROLLUP : byProject ? PROJECT_ROLLUP : undefined;
  }

  /**
   * What of the rollups a caller may read (the shift visibility rule as conditions on rollup
   * rows, `shiftScope`), or undefined when the rollups cannot give their time:
   * - who sees every shift reads every row;
   * - who sees every shift of the projects they see (a manager) reads the project rollups' rows of
   *   those projects, and their own shifts on other projects from the shifts (`remainder`);
   * - who sees their own shifts only (a staff member) reads their own user rollup's rows.
   * The edges and running shifts come from the shifts of the rows' population (`population`).
   */
  private async rollupRead(
    ctx: RequestContext,
    knex: Knex,
    q: Checked,
  ): Promise<RollupPlan | undefined> {
    const rollup = this.rollupFor(q);
    if (!rollup) return undefined;
    const scope = await shiftScope(ctx.viewer);
    const every = { rollup, rows: [] };
    if (scope.every) return every;
    const me = ctx.viewer.id;
    if (scope.visibleProjects) {
      const population = await projectVisibilitySql(ctx, knex, 's.project_id');
      if (!population) return every;
      if (rollup !== PROJECT_ROLLUP) return undefined;
      const rows = (await projectVisibilitySql(ctx, knex, 'r.project_id'))!;
      return {
        rollup,
        rows: [rows.condition],
        population: population.condition,
        ...(scope.own
          ? { remainder: knex.raw('(s.user_id = ? and not ?)', [me, population.condition]) }
          : {}),
      };
    }
    if (!scope.own || rollup !== USER_ROLLUP) return undefined;
    return {
      rollup,
      rows: [knex.raw('r.user_id = ?', [me])],
      population: knex.raw('s.user_id = ?', [me]),
    };
  }

  /**
   * The one aggregate statement; every value of the request is a bound parameter. Its steps, in
   * the order the statement's common table expressions run: which shifts (filters and the
   * visibility rule), each shift's piece of the range, the pieces split by period, the sums per
   * group (from the shifts, or the rollups where they answer), the groups filled and rolled up as
   * asked, and one page of them, named, with the totals of all.
   */
  private async statement(
    ctx: RequestContext,
    knex: Knex,
    q: Checked,
    limit: number,
    offset: number,
  ): Promise<{ query: Knex.Raw; heavy: boolean }> {
    const sql = sqlParts(knex);
    const account = ctx.viewer.accountId;
    const { keyFilters, filters } = shiftFilters(sql, q, account);
    const read = await this.rollupRead(ctx, knex, q);
    const rollup = read?.rollup;
    if (!read) {
      const visible = await shiftVisibilitySql(ctx, knex, 's');
      if (visible) filters.push(visible.condition);
    }
    // Read from the rollups: the edges and the running shifts of the rows' population, and the
    // caller's own time outside it whole.
    const populationFilters = read?.population ? [...filters, read.population] : filters;
    const carried = carriedColumns(q);
    const rates = maskedRates(sql, await projectVisibilitySql(ctx, knex, 'p.id'));
    const pieces = shiftPieces(sql, q, ctx.now, {
      carried,
      rates,
      filters: read?.remainder
        ? [...filters, sql.raw('((? and s.stop is null) or ?)', [read.population!, read.remainder])]
        : populationFilters,
      runningOnly: !!read && !read.remainder,
    });
    const split = periodSplit(sql, q, carried, pieces);
    const dims = groupKeys(q);
    const { columns, groupBy } = groupColumns(dims);
    const rounding = roundingOf(sql, q);
    const sums = rollup
      ? rollupSums(sql, {
          q,
          rollup,
          account,
          filters: populationFilters,
          keyFilters: [...keyFilters, ...read!.rows],
          shiftColumns: carried.shiftColumns,
          columns,
          groupBy,
        })
      : shiftSums(sql, q, columns, groupBy, rounding);
    const sumsOf = sumColumns(sql, rounding);
    const names = await visibleNames(ctx, knex, sql);
    const subtotals = q.subtotals === true && dims.length > 0;
    const rowsOf = subtotals ? 'report_rows' : 'grouped';
    const query = sql.raw(
      `with ?,
       ?,
       ? ?,
       totals as (
         select ${subtotals ? '(select count(*) from report_rows)' : 'count(*)'} as total_rows,
                (select currency from accounts where id = ?) as currency, ?
           from grouped)
       select ${TOTAL_COLUMNS.map((c) => `case when page.first is not false then totals.${c} end as ${c}`).join(', ')}, page.*
         from totals left join lateral (
           select x.*, row_number() over () = 1 as first from (
             select ?
               from ${rowsOf} g
               ${nameJoins(q, account)}
              order by ${rowOrder(q, subtotals)}
              limit ? offset ?) x) page on true`,
      [
        split,
        sums,
        groupedRows(sql, q, dims),
        subtotals ? subtotalRows(sql, q, dims, columns) : sql.raw(''),
        account,
        // Grouped by TAG, a shift is in several groups; the totals count only its first tag's.
        sumsOf((column) => `sum(${byTag(q) ? 't_' : ''}${column})`, 'total_'),
        sql.all(pageColumns(sql, q, names, sumsOf), ', '),
        limit,
        offset,
      ],
    );
    return { query, heavy: !rollup || this.rollupReadsMany(q) };
  }

  /**
   * Whether a report read from rollups still reads enough of them to belong in the heavy-work
   * lane: by day or week, a rollup row per project (or user) and day of the range.
   */
  private rollupReadsMany(q: Checked): boolean {
    const days = (q.to.getTime() - q.from.getTime()) / 86_400_000;
    return (q.bucket === ReportBucket.DAY || q.bucket === ReportBucket.WEEK) && days > 92;
  }
}

/** A row's or the totals' sums, from the statement's text columns, as the viewer may read them. */
type SumsReader = (
  s: string | null | undefined,
  b: string | null | undefined,
  a: string | null | undefined,
  c: string | null | undefined,
  projectSeen?: boolean,
) => ReportSumsShape;

/** Amounts give rates away, costs and profits what work costs: each by its money rule. */
function sumsReader(ctx: RequestContext): SumsReader {
  const money = mayReadMoney(ctx.viewer);
  const costs = mayReadCosts(ctx.viewer);
  return (s, b, a, c, projectSeen = true) => ({
    seconds: Number(s ?? 0),
    billableSeconds: Number(b ?? 0),
    amountCents: money && projectSeen ? Number(a ?? 0) : null,
    costCents: costs && projectSeen ? Number(c ?? 0) : null,
    profitCents: costs && projectSeen ? Number(a ?? 0) - Number(c ?? 0) : null,
  });
}

/** One row of the page: the dimensions grouped by, the period, the level and the sums. */
function reportRow(checked: Checked, r: ResultRow, sums: SumsReader): ReportRowShape {
  const has = (dimension: ReportDimension) => checked.groupBy.includes(dimension);
  // The keys a detail row is grouped by: those of groupBy and the period.
  const levels = checked.groupBy.length + (checked.bucket ? 1 : 0);
  return {
    company:
      has(ReportDimension.COMPANY) && r.company_id !== null
        ? { nodeId: r.company_uuid!, legacyId: r.company_id, name: r.company_name }
        : null,
    project:
      has(ReportDimension.PROJECT) && r.project_id !== null
        ? { nodeId: r.project_uuid!, legacyId: r.project_id, name: r.project_name }
        : null,
    activity:
      has(ReportDimension.ACTIVITY) && r.activity_id !== null
        ? { nodeId: r.activity_uuid!, legacyId: r.activity_id, name: r.activity_name }
        : null,
    user:
      has(ReportDimension.USER) && r.user_id !== null
        ? {
            staffId: r.user_uuid!,
            legacyId: r.user_id!,
            login: r.login!,
            firstName: r.first_name!,
            lastName: r.last_name!,
          }
        : null,
    tag: has(ReportDimension.TAG) ? r.tag : null,
    billable: has(ReportDimension.BILLABLE) ? r.billable : null,
    notes: has(ReportDimension.NOTES) ? r.notes : null,
    bucketStart:
      checked.bucket && r.bucket_start_ms !== null ? new Date(Number(r.bucket_start_ms)) : null,
    level: r.level!,
    subtotal: r.level! < levels,
    // A row of a project (or its activity) the caller may not see answers its time, unnamed
    // (the statement's names), and no money: its shifts carried none (`rates`), and a zero
    // beside its billable time would say so.
    ...sums(
      r.seconds,
      r.billable_seconds,
      r.amount_cents,
      r.cost_cents,
      !(r.project_id != null && r.project_name === null) &&
        !(r.activity_id != null && r.activity_name === null),
    ),
  };
}

/**
 * The statement's steps below build it from knex's raw SQL: `raw` is a piece of SQL with its
 * bindings, `all` pieces joined (by ' and ' unless told).
 */
interface SqlParts {
  raw(sql: string, bindings?: readonly unknown[]): Knex.Raw;
  all(parts: readonly Knex.Raw[], separator?: string): Knex.Raw;
}

function sqlParts(knex: Knex): SqlParts {
  // knex binds a nested Raw as SQL text with its own bindings; an empty one would be bound as a value.
  const raw = (sql: string, bindings: readonly unknown[] = []) =>
    knex.raw(sql || ' ', bindings as Knex.RawBinding[]);
  const all = (parts: readonly Knex.Raw[], separator = ' and ') =>
    raw(parts.map(() => '?').join(separator), parts);
  return { raw, all };
}

function byTag(q: Checked): boolean {
  return q.groupBy.includes(ReportDimension.TAG);
}

/** The tags the report is filtered by, if any. */
function filterTags(q: Checked): readonly string[] | null {
  return q.filter?.tags?.length ? q.filter.tags : null;
}

/**
 * Which shifts (s, with its project p and user u): the tenant and the filters; the statement adds
 * the shift list's visibility rule. Those on the project and the user (`keyFilters`, on p and u)
 * also select rollup rows.
 */
function shiftFilters(
  { raw }: SqlParts,
  q: Checked,
  account: number,
): { keyFilters: Knex.Raw[]; filters: Knex.Raw[] } {
  const f = q.filter ?? {};
  const tags = filterTags(q);
  const keyFilters: Knex.Raw[] = [];
  if (f.projectIds) keyFilters.push(raw('p.uuid = any(?::uuid[])', [pgArray(f.projectIds)]));
  if (f.userIds) keyFilters.push(raw('u.uuid = any(?::uuid[])', [pgArray(f.userIds)]));
  if (f.companyIds)
    keyFilters.push(
      raw(
        'p.company_id in (select id from companies where account_id = ? and uuid = any(?::uuid[]))',
        [account, pgArray(f.companyIds)],
      ),
    );
  const filters: Knex.Raw[] = [raw('s.account_id = ?', [account]), ...keyFilters];
  if (f.activityIds)
    filters.push(
      raw(
        's.activity_id in (select id from activities where account_id = ? and uuid = any(?::uuid[]))',
        [account, pgArray(f.activityIds)],
      ),
    );
  if (tags) filters.push(raw('s.tag_list && ?::text[]', [pgArray(tags)]));
  if (f.billable != null) filters.push(raw('s.billable = ?', [f.billable]));
  return { keyFilters, filters };
}

/**
 * Grouped by TAG, a shift under each of its tags (distinct; of the filter's only, when filtered
 * by tags), or once under null; `t.ord` 1 marks the one row per shift that the totals count.
 */
function tagExpansion({ raw }: SqlParts, q: Checked): Knex.Raw {
  const tags = filterTags(q);
  if (!byTag(q)) return raw('');
  return tags
    ? raw(
        `cross join lateral unnest(array(select distinct x from unnest(s.tag_list) x where x = any(?::text[]))) with ordinality as t(tag, ord)`,
        [pgArray(tags)],
      )
    : raw(
        `cross join lateral unnest(case when cardinality(s.tag_list) > 0 then array(select distinct x from unnest(s.tag_list) x) else array[null]::text[] end) with ordinality as t(tag, ord)`,
      );
}

/** The columns a shift's rows carry from the scan on: only those the groups need. */
interface CarriedColumns {
  /** Their names, as the split pieces carry them. */
  readonly carried: string;
  /** The group keys and `billable`, read from the shift scan. */
  readonly keysAndBillable: string;
  /** Those and the rates, unmasked: only the rollups use it, which serve only callers who see every project. */
  readonly shiftColumns: string;
}

function carriedColumns(q: Checked): CarriedColumns {
  // Only the columns the groups need travel on: every byte is copied 300,000 times a year.
  const keyColumns = q.groupBy
    .filter((d) => d !== ReportDimension.BILLABLE)
    .map((d) => KEY_COLUMN[d]);
  const carried = [
    ...keyColumns,
    'billable',
    'rate',
    'cost_rate',
    ...(byTag(q) ? ['first_tag'] : []),
  ].join(', ');
  const keysAndBillable = [
    ...keyColumns.map((column) => `${KEY_SOURCE[column]} as ${column}`),
    's.billable',
  ].join(', ');
  const shiftColumns = `${keysAndBillable}, s.billable_rate_cents as rate, s.cost_rate_cents as cost_rate`;
  return { carried, keysAndBillable, shiftColumns };
}

/**
 * Each shift's rates (`rate`, `cost_rate`), only from the projects the caller sees: a staff
 * member's own time on a project that became PRIVATE counts in seconds, never in amounts or
 * costs, which would give the hidden project's rate away (amount × 3600 ÷ billable seconds). Rows
 * of such a project answer no money at all (rowsPage). Callers who see every project read the
 * rollups' sums unmasked.
 */
function maskedRates({ raw }: SqlParts, seenProject: SqlCondition): Knex.Raw {
  return seenProject
    ? raw(
        `case when ? then s.billable_rate_cents end as rate, case when ? then s.cost_rate_cents end as cost_rate`,
        [seenProject.condition, seenProject.condition],
      )
    : raw('s.billable_rate_cents as rate, s.cost_rate_cents as cost_rate');
}

/**
 * Each shift's piece [a, b) inside the range, a running one up to the request's instant. From
 * rollups (`runningOnly`), only the running shifts are read here.
 */
function shiftPieces(
  sql: SqlParts,
  q: Checked,
  now: Date,
  s: {
    carried: CarriedColumns;
    rates: Knex.Raw;
    filters: readonly Knex.Raw[];
    runningOnly: boolean;
  },
): Knex.Raw {
  const { raw, all } = sql;
  return raw(
    `select ${s.carried.keysAndBillable}, ?${byTag(q) ? ', t.ord = 1 as first_tag' : ''}, r.a, r.b
         from ${SHIFT_SCAN}
         cross join lateral (select greatest(s.start, ?::timestamptz) as a, least(coalesce(s.stop, ?::timestamptz), ?::timestamptz) as b) r
         ?
        where ? and r.b > r.a`,
    [
      s.rates,
      q.from,
      now,
      q.to,
      tagExpansion(sql, q),
      all([
        ...s.filters,
        raw(`s.start < ? and (s.stop is null or s.stop > ?)`, [q.to, q.from]),
        ...(s.runningOnly ? [raw('s.stop is null')] : []),
      ]),
    ],
  );
}

/** The shifts with their project and user, as every scan of them reads them. */
const SHIFT_SCAN =
  'shifts s join projects p on p.account_id = s.account_id and p.id = s.project_id join users u on u.account_id = s.account_id and u.id = s.user_id';

/**
 * `split`: each piece with its period `k` and its duration `d` there (without a bucket, one row
 * per piece, `k` null); with a bucket also `buckets`, the periods of the zone around the range.
 */
function periodSplit(
  sql: SqlParts,
  q: Checked,
  { carried }: CarriedColumns,
  pieces: Knex.Raw,
): Knex.Raw {
  if (!q.bucket)
    return sql.raw(
      `split as (select ${carried}, null::timestamp as k, x.b - x.a as d from (?) x)`,
      [pieces],
    );
  const zone = q.timeZone;
  const unit = q.bucket;
  const step = `1 ${unit}`;
  // Weeks start on `weekStart`: truncated to the ISO week (Monday) of the day that many days
  // earlier, then moved on again by as many days.
  const days = `${unit === ReportBucket.WEEK ? (q.weekStart ?? WeekStart.MONDAY) : 0} days`;
  // Each piece in its period: the period of `a` holds [a, min(b, the period's end)); a piece
  // running past that end (rare: shifts across midnight with DAY) goes on into the following
  // periods, one generated row each.
  return sql.raw(
    `buckets as (
           select g as k, g at time zone ? as bs, (g + ?::interval) at time zone ? as be
             from generate_series(date_trunc(?, (?::timestamptz at time zone ?) - ?::interval) + ?::interval, ?::timestamptz at time zone ?, ?::interval) g),
         pieces as (select x.*, date_trunc(?, (x.a at time zone ?) - ?::interval) + ?::interval as k0 from (?) x),
         split as (
           select ${carried}, x.k0 as k, least(x.b, kb.be) - x.a as d from pieces x join buckets kb on kb.k = x.k0
           union all
           select ${carried}, g, least(x.b, (g + ?::interval) at time zone ?) - (g at time zone ?)
             from pieces x join buckets kb on kb.k = x.k0
             cross join lateral generate_series(x.k0 + ?::interval, x.b at time zone ?, ?::interval) g
            where x.b > kb.be)`,
    [
      zone,
      step,
      zone,
      unit,
      q.from,
      zone,
      days,
      days,
      q.to,
      zone,
      step,
      unit,
      zone,
      days,
      days,
      pieces,
      step,
      zone,
      zone,
      step,
      zone,
      step,
    ],
  );
}

/** The key columns a detail row is grouped by: those of groupBy, then the period's `k`. */
function groupKeys(q: Checked): string[] {
  return [...q.groupBy.map((d) => KEY_COLUMN[d]), ...(q.bucket ? ['k'] : [])];
}

/**
 * The `group by` of the keys, and every key column of COLUMN_TYPES: the keys grouped by, typed
 * nulls for the others, so that every form of `sums` has the same columns.
 */
function groupColumns(dims: readonly string[]): { columns: string; groupBy: string } {
  const groupBy = dims.length > 0 ? `group by ${dims.join(', ')}` : '';
  const columns = Object.entries(COLUMN_TYPES)
    .map(([column, type]) => (dims.includes(column) ? column : `null::${type} as ${column}`))
    .join(', ');
  return { columns, groupBy };
}

/** How the request rounds: `rounded` of seconds, and of what (`scope`; none without rounding). */
interface Rounding {
  readonly rounded: (seconds: string) => Knex.Raw;
  readonly scope: RoundingScope | undefined;
}

/**
 * Rounding to a multiple of `minutes`: of each shift's part in a row (ENTRY), or of each row's
 * sums (ROW). The direction names a SQL function (ceil, floor, round) from a closed enum.
 */
function roundingOf({ raw }: SqlParts, q: Checked): Rounding {
  const step = q.rounding ? q.rounding.minutes * 60 : 0;
  const rounded = (seconds: string) =>
    raw(`${q.rounding?.direction ?? RoundingDirection.NEAREST}((${seconds}) / ?) * ?`, [
      step,
      step,
    ]);
  const scope = q.rounding ? (q.rounding.scope ?? RoundingScope.ENTRY) : undefined;
  return { rounded, scope };
}

const epoch = (d: string) => `extract(epoch from ${d})`;

/**
 * `sums` from the shifts: per group on integer keys, exact: seconds (numeric, to the
 * microsecond), and money as seconds × cents per hour (numeric), rounded once per row at the
 * end. Names, sorting and paging come after, on the groups only. Grouped by TAG, the `t_` sums
 * count each shift once, under its first tag, for the totals and the subtotals above TAG.
 */
function shiftSums(
  { raw }: SqlParts,
  q: Checked,
  columns: string,
  groupBy: string,
  { rounded, scope }: Rounding,
): Knex.Raw {
  return raw(
    `rounded as (select split.*, ? as rd from split where d > interval '0'),
           sums as (
             select ${columns},
                    ${epoch('sum(rd)')} as secs, ${epoch('sum(rd) filter (where billable)')} as bsecs,
                    sum(${epoch('rd')} * rate) filter (where billable) as amount, sum(${epoch('rd')} * cost_rate) as cost${
                      byTag(q)
                        ? `, ${epoch('sum(rd) filter (where first_tag)')} as t_secs, ${epoch('sum(rd) filter (where first_tag and billable)')} as t_bsecs,
                           sum(${epoch('rd')} * rate) filter (where first_tag and billable) as t_amount,
                           sum(${epoch('rd')} * cost_rate) filter (where first_tag) as t_cost`
                        : ''
                    }
               from rounded
               ${groupBy})`,
    [
      scope === RoundingScope.ENTRY
        ? raw(`make_interval(secs => ?)`, [rounded(epoch('d'))])
        : raw('d'),
    ],
  );
}

/**
 * A row's seconds, billable seconds, amount and cost (cents), read by `of` from the sums' columns
 * (secs, bsecs, amount, cost) and named `prefix` + seconds, billable_seconds, amount_cents,
 * cost_cents; rounded as the request asks.
 */
type SumColumns = (of: (column: string) => string, prefix: string) => Knex.Raw;

function sumColumns({ raw }: SqlParts, { rounded, scope }: Rounding): SumColumns {
  return (of, prefix) => {
    const [secs, bsecs, amount, cost] = ['secs', 'bsecs', 'amount', 'cost'].map(of);
    const s = `coalesce(${secs}, 0)`;
    const b = `coalesce(${bsecs}, 0)`;
    const cents = (sum: string) => `coalesce(${sum}, 0) / 3600`;
    const names = `as ${prefix}seconds, ? as ${prefix}billable_seconds, ? as ${prefix}amount_cents, ? as ${prefix}cost_cents`;
    if (scope !== RoundingScope.ROW)
      return raw(`? ${names}`, [
        raw(`round(${s})::bigint`),
        raw(`round(${b})::bigint`),
        raw(`round(${cents(amount!)})::bigint`),
        raw(`round(${cents(cost!)})::bigint`),
      ]);
    // The amount follows the billable time and the cost all time: scaled by rounded ÷ exact.
    return raw(`? ${names}`, [
      raw('(?)::bigint', [rounded(s)]),
      raw('(?)::bigint', [rounded(b)]),
      raw(`round(${cents(amount!)} * coalesce((?) / nullif(${b}, 0), 0))::bigint`, [rounded(b)]),
      raw(`round(${cents(cost!)} * coalesce((?) / nullif(${s}, 0), 0))::bigint`, [rounded(s)]),
    ]);
  };
}

/** The names a page shows: each only where the caller sees its row. */
interface VisibleNames {
  readonly companyName: Knex.Raw;
  readonly projectName: Knex.Raw;
  readonly activityName: Knex.Raw;
}

/**
 * Names only where the caller sees the row, as `Project.company` and `Shift.project` answer: a
 * company by the company policy, a project and its activities by the project policy.
 */
async function visibleNames(
  ctx: RequestContext,
  knex: Knex,
  { raw }: SqlParts,
): Promise<VisibleNames> {
  const visibleName = (visible: SqlCondition, name: string) =>
    visible ? raw(`case when ? then ${name} end`, [visible.condition]) : raw(name);
  const companyName = visibleName(await companyVisibilitySql(ctx, knex, 'c.id'), 'c.name');
  const projectName = visibleName(await projectVisibilitySql(ctx, knex, 'p.id'), 'p.name');
  const activityName = visibleName(await projectVisibilitySql(ctx, knex, 'a.project_id'), 'a.name');
  return { companyName, projectName, activityName };
}

/**
 * `grouped`: the groups with their level (how many keys). With fillEmpty and a bucket, every group
 * (or, grouped by nothing, the report) in every period overlapping the range, the periods without
 * time as rows of zeros.
 */
function groupedRows({ raw }: SqlParts, q: Checked, dims: readonly string[]): Knex.Raw {
  if (!(q.fillEmpty && q.bucket))
    return raw(`grouped as (select sums.*, ${dims.length} as level from sums)`);
  const sumColumns = [
    'secs',
    'bsecs',
    'amount',
    'cost',
    ...(byTag(q) ? ['t_secs', 't_bsecs', 't_amount', 't_cost'] : []),
  ];
  const keys = Object.keys(COLUMN_TYPES).filter((column) => column !== 'k');
  return raw(
    `grouped as (
               select ${keys.map((key) => `keys.${key}`).join(', ')}, b.k, ${sumColumns.map((c) => `s.${c}`).join(', ')}, ${dims.length} as level
                 from (${
                   q.groupBy.length > 0
                     ? `select distinct ${keys.join(', ')} from sums`
                     : `select ${keys.map((key) => `null::${COLUMN_TYPES[key]} as ${key}`).join(', ')}`
                 }) keys
                 cross join (select k from buckets where be > ? and bs < ?) b
                 left join sums s on s.k = b.k and ${keys.map((key) => `s.${key} is not distinct from keys.${key}`).join(' and ')})`,
    [q.from, q.to],
  );
}

/**
 * `report_rows`, with subtotals: ROLLUP over the keys in order (then the period), on the groups;
 * above TAG, each shift counts once (its first tag's sums). A subtotal over no rows is no row.
 */
function subtotalRows(
  { raw }: SqlParts,
  q: Checked,
  dims: readonly string[],
  columns: string,
): Knex.Raw {
  const summed = (column: string) =>
    byTag(q)
      ? `case when grouping(tag) = 1 then sum(t_${column}) else sum(${column}) end`
      : `sum(${column})`;
  return raw(
    `, report_rows as (
             select ${columns}, ${dims.map((d) => `grouping(${d}) as g_${d}`).join(', ')},
                    ${dims.map((d) => `(1 - grouping(${d}))`).join(' + ')} as level,
                    ${summed('secs')} as secs, ${summed('bsecs')} as bsecs, ${summed('amount')} as amount, ${summed('cost')} as cost
               from grouped group by rollup(${dims.join(', ')}) having count(*) > 0)`,
  );
}

/** The rows' order: by each key in turn (a subtotal after its groups), then the period. */
function rowOrder(q: Checked, subtotals: boolean): string {
  const order = [
    ...q.groupBy.flatMap((d) => [...(subtotals ? [`g.g_${KEY_COLUMN[d]}`] : []), SORT[d]]),
    ...(q.bucket ? [...(subtotals ? ['g.g_k'] : []), 'g.k'] : []),
  ];
  return order.length > 0 ? order.join(', ') : '1';
}

/**
 * A row's columns: those of the dimensions grouped by (every value is parsed 4,800 times in a
 * year by project and month), the period's start, the sums.
 */
function pageColumns(
  { raw }: SqlParts,
  q: Checked,
  { companyName, projectName, activityName }: VisibleNames,
  sumsOf: SumColumns,
): Knex.Raw[] {
  const grouping = (dimension: ReportDimension, columns: string, bindings: unknown[] = []) =>
    q.groupBy.includes(dimension) ? [raw(columns, bindings)] : [];
  return [
    raw('1 as in_page, g.level'),
    ...grouping(
      ReportDimension.COMPANY,
      'g.company_id, c.uuid as company_uuid, ? as company_name',
      [companyName],
    ),
    ...grouping(
      ReportDimension.PROJECT,
      'g.project_id, p.uuid as project_uuid, ? as project_name',
      [projectName],
    ),
    ...grouping(
      ReportDimension.ACTIVITY,
      'g.activity_id, a.uuid as activity_uuid, ? as activity_name',
      [activityName],
    ),
    ...grouping(
      ReportDimension.USER,
      'g.user_id, u.uuid as user_uuid, u.login, u.first_name, u.last_name',
    ),
    ...grouping(ReportDimension.TAG, 'g.tag'),
    ...grouping(ReportDimension.BILLABLE, 'g.billable'),
    ...grouping(ReportDimension.NOTES, 'g.notes'),
    ...(q.bucket
      ? [
          raw('(extract(epoch from g.k at time zone ?) * 1000)::bigint as bucket_start_ms', [
            q.timeZone,
          ]),
        ]
      : []),
    sumsOf((column) => `g.${column}`, ''),
  ];
}

/**
 * The joins that name the page's rows: only of the dimensions grouped by, each in the account (a
 * constant: on Citus what keeps the whole report on the account's worker).
 */
function nameJoins(q: Checked, account: number): string {
  const of = (alias: string) => `${alias}.account_id = ${Number(account)}`;
  return (
    [
      [ReportDimension.COMPANY, `left join companies c on ${of('c')} and c.id = g.company_id`],
      [ReportDimension.PROJECT, `left join projects p on ${of('p')} and p.id = g.project_id`],
      [ReportDimension.ACTIVITY, `left join activities a on ${of('a')} and a.id = g.activity_id`],
      [ReportDimension.USER, `left join users u on ${of('u')} and u.id = g.user_id`],
    ] as const
  )
    .filter(([dimension]) => q.groupBy.includes(dimension))
    .map(([, join]) => join)
    .join('\n');
}

/**
 * The rollup a report reads for its caller: its rows the caller may read (conditions on `r`), the
 * shifts those rows hold (a condition on `s`, for their edges and running shifts), and the
 * caller's own shifts outside them, read from the shifts whole.
 */
interface RollupPlan {
  readonly rollup: Rollup;
  readonly rows: readonly Knex.Raw[];
  readonly population?: Knex.Raw;
  readonly remainder?: Knex.Raw;
}

/** What the rollups' sums are read with: the request, its rollup, and the shifts' filters. */
interface RollupRead {
  readonly q: Checked;
  readonly rollup: Rollup;
  readonly account: number;
  readonly filters: readonly Knex.Raw[];
  readonly keyFilters: readonly Knex.Raw[];
  readonly shiftColumns: string;
  readonly columns: string;
  readonly groupBy: string;
}

/**
 * `sums` from the rollups (see `rollupFor`): each period [start, end) moved to the nearest UTC
 * midnights is whole UTC months and days, read from the rollups; the hours between each end and
 * its midnight (at most twelve) come from the shifts, added or taken away; running shifts, never
 * in the rollups, come from `split`. Exact in every zone, since every part is exact.
 */
function rollupSums(sql: SqlParts, s: RollupRead): Knex.Raw {
  return sql.raw(
    `?,
       ?,
       ?,
       sums as (
         select ${s.columns}, sum(seconds) as secs, sum(bsecs) as bsecs, sum(amount) as amount, sum(cost) as cost
           from parts ${s.groupBy}${s.groupBy ? ' having sum(seconds) > 0' : ''})`,
    [rollupSpans(sql, s.q), rollupEdgeSums(sql, s), rollupParts(sql, s)],
  );
}

/** The key columns of the groups, in the rollups' parts. */
function rollupKeys(q: Checked): string[] {
  return q.groupBy.map((d) => KEY_COLUMN[d]);
}

/** The project or user rows (p, u) are joined only for a company's key and for the filters. */
function rollupNamed(s: RollupRead): boolean {
  return rollupKeys(s.q).includes('company_id') || s.keyFilters.length > 0;
}

/**
 * `periods` (the report's periods clipped to the range, or the range as one), their UTC
 * midnights (`days`) and months (`months`), and `spans`: the whole months and the days either
 * side of them, each a range of one grain of the rollups.
 */
function rollupSpans({ raw }: SqlParts, q: Checked): Knex.Raw {
  const midnight = (instant: string) =>
    `date_trunc('day', (${instant} at time zone 'UTC') + interval '12 hours')::date`;
  return raw(
    `periods as (?),
       days as (select k, ps, pe, ${midnight('ps')} as d1, ${midnight('pe')} as d2 from periods),
       months as (
         select k, d1, d2, (date_trunc('month', (d1 - 1)::timestamp) + interval '1 month')::date as m1, date_trunc('month', d2::timestamp)::date as m2
           from days),
       spans as (
         select k, 'month' as grain, m1 as lo, m2 as hi from months where m1 < m2
         union all select k, 'day', d1, case when m1 < m2 then m1 else d2 end from months
         union all select k, 'day', m2, d2 from months where m1 < m2)`,
    [
      q.bucket
        ? raw(
            'select k, greatest(bs, ?::timestamptz) as ps, least(be, ?::timestamptz) as pe from buckets where be > ? and bs < ?',
            [q.from, q.to, q.from, q.to],
          )
        : raw('select null::timestamp as k, ?::timestamptz as ps, ?::timestamptz as pe', [
            q.from,
            q.to,
          ]),
    ],
  );
}

/**
 * `edges`: the hours [lo, hi) between each period's end and its UTC midnight, signed (+1 where the
 * midnight is later, so the hours are taken away); `edge_sums`: the stopped shifts' seconds in
 * them, by the shifts' filters.
 */
function rollupEdgeSums({ raw, all }: SqlParts, s: RollupRead): Knex.Raw {
  // The stopped shifts overlapping [lo, hi) of an edge: those of 24 hours or less by start, read
  // from the index alone (shifts_account_start_idx carries the columns needed), the longer ones
  // by an index of their own (shifts_long_start_idx).
  const edgeColumns = `account_id, project_id, user_id, start, stop, billable, billable_rate_cents, cost_rate_cents`;
  // Hours, not a day: an instant minus '1 day' is a calendar day of the session's zone, 23 hours
  // across a clock change there.
  const overlaps = `account_id = ? and start < e.hi and stop > e.lo`;
  return raw(
    `edges as (
         select x, least(x, dx) as lo, greatest(x, dx) as hi, case when x < dx then 1 else -1 end as sign
           from (select distinct x, d::timestamp at time zone 'UTC' as dx from (select ps as x, d1 as d from days union all select pe, d2 from days) e) e
          where x <> dx),
       edge_sums as (
         select e.x, ${s.shiftColumns}, e.sign * extract(epoch from least(s.stop, e.hi) - greatest(s.start, e.lo)) as seconds
           from edges e
           cross join lateral (
             select ${edgeColumns} from shifts
              where ${overlaps} and start > e.lo - interval '24 hours' and stop - start <= interval '24 hours'
             union all
             select ${edgeColumns} from shifts where ${overlaps} and stop - start > interval '24 hours') s
           ${rollupNamed(s) ? 'join projects p on p.account_id = s.account_id and p.id = s.project_id join users u on u.account_id = s.account_id and u.id = s.user_id' : ''}
          where ?)`,
    [s.account, s.account, all(s.filters)],
  );
}

/**
 * `parts`: per period, the rollup rows of its spans, plus and minus its edges' seconds, plus the
 * running shifts' pieces (`split`).
 */
function rollupParts({ raw, all }: SqlParts, s: RollupRead): Knex.Raw {
  const { rollup } = s;
  const keys = rollupKeys(s.q);
  const keyList = keys.map((key) => `${key}, `).join('');
  return raw(
    `parts as (
         select sp.k, ${keys.map((key) => `${rollup.sources[key]} as ${key}, `).join('')}
                r.seconds, r.billable_seconds as bsecs, r.amount_cent_seconds as amount, r.cost_cent_seconds as cost
           from spans sp
           -- Each span one range of the index: lateral, and kept so by offset 0 (PostgreSQL would
           -- make it a join again, which it plans as a hash join over every rollup row).
           cross join lateral (
             select * from ${rollup.table} r
              where r.account_id = ? and r.grain = sp.grain and r.period_start >= sp.lo and r.period_start < sp.hi
             offset 0) r
           ${rollupNamed(s) ? rollup.join : ''}
          where ?
         union all
         select pr.k, ${keyList}v.sign * x.seconds, case when x.billable then v.sign * x.seconds else 0 end,
                case when x.billable then v.sign * x.seconds * coalesce(x.rate, 0) else 0 end, v.sign * x.seconds * coalesce(x.cost_rate, 0)
           from periods pr cross join lateral (values (pr.ps, 1), (pr.pe, -1)) v(x, sign) join edge_sums x on x.x = v.x
         union all
         select k, ${keyList}extract(epoch from d), case when billable then extract(epoch from d) else 0 end,
                case when billable then extract(epoch from d) * coalesce(rate, 0) else 0 end, extract(epoch from d) * coalesce(cost_rate, 0)
           from split where d > interval '0')`,
    [s.account, ...(rollupNamed(s) ? [s.account] : []), all([raw('true'), ...s.keyFilters])],
  );
}

/**
 * The range as instants: `from`/`to` as given, or the dates' 00:00 in the report's zone (the
 * first instant of the day where a clock change skips midnight). Checked as one: after `from`,
 * at most REPORT_MAX_DAYS later, within the years the database stores.
 */
function rangeOf(
  input: { from?: Date | null; to?: Date | null; fromDate?: string | null; toDate?: string | null },
  zone: string,
): { from: Date; to: Date } {
  const at = (
    field: 'from' | 'to',
    given: Date | null | undefined,
    date: string | null | undefined,
  ) => {
    const value = given ?? DateTime.fromISO(date!, { zone }).startOf('day').toJSDate();
    const fieldName = given ? field : `${field}Date`;
    if (Number.isNaN(value.getTime()))
      throw ValidationError.field(undefined, fieldName, 'is not a date of the calendar');
    const checked = instant.safeParse(value);
    if (!checked.success)
      throw ValidationError.field(undefined, fieldName, checked.error.issues[0]!.message);
    return value;
  };
  const from = at('from', input.from, input.fromDate);
  const to = at('to', input.to, input.toDate);
  const span = to.getTime() - from.getTime();
  if (span <= 0) throw ValidationError.field(undefined, 'to', 'must be after from');
  if (span > REPORT_MAX_DAYS * 86_400_000)
    throw ValidationError.field(
      undefined,
      'to',
      `must be at most ${REPORT_MAX_DAYS} days after from`,
    );
  return { from, to };
}

/** A PostgreSQL array literal of uuids or tags (quoted, escaped), bound as one parameter. */
function pgArray(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}
