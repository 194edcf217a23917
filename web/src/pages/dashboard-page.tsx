import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { Viewer } from '../viewer';
import { download } from '../api/client';
import {
  DashboardDocument,
  DashboardPeriodsDocument,
  type DashboardQuery,
  type ReportBucket,
  type ReportInput,
  type ReportRowFieldsFragment,
} from '../api/generated';
import { asApiError, useApi, useShiftEvents } from '../api/use-api';
import { Chart, OTHER_COLOR, PALETTE, type ChartSeries } from '../charts/chart';
import { text } from '../text';
import { addDays, hours, mondayOf, money, today, wallClock } from '../time';
import { ErrorNotice, Field, Loading, Status } from '../ui';

/** Projects drawn by name in the stacked chart; the rest are one "other" band. */
const PROJECTS_DRAWN = 8;
const BUCKETS: ReportBucket[] = ['DAY', 'WEEK', 'MONTH'];

interface View {
  from: string;
  to: string;
  bucket: ReportBucket;
  projectId: string;
  userId: string;
  billable: '' | 'true' | 'false';
}

/**
 * The dashboard: the `report` query drawn as charts, each with a table of its figures beside it,
 * for the range, period and filters chosen; the same view as CSV, XLSX and PDF; refreshed when a
 * shift changes. Money shows only when the report carries it (the API leaves it null otherwise).
 */
export function DashboardPage({ viewer }: { viewer: Viewer }) {
  const zone = viewer.staff.timeZone;
  const [view, setView] = useState(() => viewFromAddress(zone));
  const [target, setTarget] = useState(40);
  const [burnProject, setBurnProject] = useState('');
  const [status, setStatus] = useState('');
  const [downloadError, setDownloadError] = useState<ReturnType<typeof asApiError>>();

  const filter = {
    ...(view.projectId ? { projectIds: [view.projectId] } : {}),
    ...(view.userId ? { userIds: [view.userId] } : {}),
    ...(view.billable ? { billable: view.billable === 'true' } : {}),
  };
  const base: ReportInput = {
    fromDate: view.from,
    toDate: view.to,
    timeZone: zone,
    filter,
    groupBy: [],
  };
  const report = useApi(DashboardDocument, {
    byProject: { ...base, groupBy: ['PROJECT'] },
    byBillable: { ...base, groupBy: ['BILLABLE'], bucket: view.bucket, fillEmpty: true },
    byPerson: { ...base, groupBy: ['USER'] },
  });
  const [refreshed, setRefreshed] = useState(0);
  const reload = () => report.reload().then(() => setRefreshed((n) => n + 1));
  // The view is in the address, so that it can be bookmarked and shared; Show again refreshes it.
  const apply = (next: View) => {
    history.replaceState(null, '', `#/dashboard?${addressOf(next)}`);
    if (JSON.stringify(next) === JSON.stringify(view)) void reload();
    else setView(next);
  };

  // A burst of punches is one refresh, a second after the last.
  const pending = useRef<ReturnType<typeof setTimeout>>(undefined);
  useShiftEvents(() => {
    clearTimeout(pending.current);
    pending.current = setTimeout(() => {
      void reload().then(() => setStatus(text.dashboard.updated));
    }, 1000);
  });

  const params = new URLSearchParams({
    from: view.from,
    to: view.to,
    time_zone: zone,
    group_by: 'project',
    bucket: view.bucket.toLowerCase(),
    ...(view.projectId ? { project_uuids: view.projectId } : {}),
    ...(view.userId ? { user_uuids: view.userId } : {}),
    ...(view.billable ? { billable: view.billable } : {}),
  });
  const get = (kind: 'csv' | 'xlsx' | 'pdf') => {
    setDownloadError(undefined);
    download(`/api/1/report.${kind}?${params}`, `report-${view.from}-${view.to}.${kind}`).catch(
      (e: unknown) => setDownloadError(asApiError(e)),
    );
  };

  return (
    <section aria-labelledby="dashboard-title">
      <h1 id="dashboard-title">{text.dashboard.title}</h1>
      <ViewForm view={view} report={report.data} onChange={apply} zone={zone} />
      <div className="toolbar" role="group" aria-label={text.dashboard.downloads}>
        <span>{text.dashboard.downloads}:</span>
        <button type="button" onClick={() => get('csv')}>
          {text.dashboard.csv}
        </button>
        <button type="button" onClick={() => get('xlsx')}>
          {text.dashboard.xlsx}
        </button>
        <button type="button" onClick={() => get('pdf')}>
          {text.dashboard.pdf}
        </button>
      </div>
      <ErrorNotice error={downloadError} />
      <Status message={status} />
      {report.error && <ErrorNotice error={report.error} />}
      {!report.data ? (
        <Loading />
      ) : (
        <Charts
          data={report.data}
          stale={report.loading}
          base={base}
          bucket={view.bucket}
          refreshed={refreshed}
          zone={zone}
          target={target}
          onTarget={setTarget}
          burnProject={burnProject}
          onBurnProject={setBurnProject}
        />
      )}
    </section>
  );
}

function ViewForm({
  view,
  report,
  onChange,
  zone,
}: {
  view: View;
  report: DashboardQuery | undefined;
  onChange: (view: View) => void;
  zone: string;
}) {
  const [draft, setDraft] = useState(view);
  const set = (patch: Partial<View>) => setDraft((d) => ({ ...d, ...patch }));
  const monday = mondayOf(today(zone));
  const firstOfMonth = `${today(zone).slice(0, 8)}01`;
  const presets: [string, Partial<View>][] = [
    [
      text.dashboard.presetWeeks,
      { from: addDays(monday, -77), to: addDays(monday, 7), bucket: 'WEEK' },
    ],
    [
      text.dashboard.presetMonth,
      { from: firstOfMonth, to: nextMonth(firstOfMonth), bucket: 'DAY' },
    ],
    [
      text.dashboard.presetYear,
      { from: nextMonth(firstOfMonth, -11), to: nextMonth(firstOfMonth), bucket: 'MONTH' },
    ],
  ];
  const people = report?.byPerson.rows.flatMap((r) => (r.user ? [r.user] : [])) ?? [];
  return (
    <form
      className="inline-form view"
      onSubmit={(event) => {
        event.preventDefault();
        onChange(draft);
      }}
    >
      <div role="group" aria-label={text.dashboard.presets} className="presets">
        {presets.map(([label, patch]) => (
          <button
            key={label}
            type="button"
            onClick={() => {
              const next = { ...draft, ...patch };
              setDraft(next);
              onChange(next);
            }}
          >
            {label}
          </button>
        ))}
      </div>
      <Field label={text.dashboard.from}>
        {(p) => (
          <input
            {...p}
            type="date"
            required
            value={draft.from}
            onChange={(e) => set({ from: e.target.value })}
          />
        )}
      </Field>
      <Field label={text.dashboard.to}>
        {(p) => (
          <input
            {...p}
            type="date"
            required
            value={draft.to}
            onChange={(e) => set({ to: e.target.value })}
          />
        )}
      </Field>
      <Field label={text.dashboard.bucket}>
        {(p) => (
          <select
            {...p}
            value={draft.bucket}
            onChange={(e) => set({ bucket: e.target.value as ReportBucket })}
          >
            {BUCKETS.map((b) => (
              <option key={b} value={b}>
                {text.dashboard.buckets[b as keyof typeof text.dashboard.buckets]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={text.dashboard.project}>
        {(p) => (
          <select
            {...p}
            value={draft.projectId}
            onChange={(e) => set({ projectId: e.target.value })}
          >
            <option value="">{text.common.all}</option>
            {report?.projects.nodes.map((project) => (
              <option key={project.id} value={project.id}>
                {project.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={text.dashboard.person}>
        {(p) => (
          <select {...p} value={draft.userId} onChange={(e) => set({ userId: e.target.value })}>
            <option value="">{text.common.all}</option>
            {people.map((u) => (
              <option key={u.staffId} value={u.staffId}>
                {personName(u)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={text.dashboard.billable}>
        {(p) => (
          <select
            {...p}
            value={draft.billable}
            onChange={(e) => set({ billable: e.target.value as View['billable'] })}
          >
            <option value="">{text.common.all}</option>
            <option value="true">{text.dashboard.billableOnly}</option>
            <option value="false">{text.dashboard.nonBillableOnly}</option>
          </select>
        )}
      </Field>
      <button type="submit" className="primary">
        {text.dashboard.apply}
      </button>
    </form>
  );
}

function Charts({
  data,
  stale,
  base,
  bucket,
  refreshed,
  zone,
  target,
  onTarget,
  burnProject,
  onBurnProject,
}: {
  data: DashboardQuery;
  /** Whether the totals are being read again (for a new view, or after events). */
  stale: boolean;
  base: ReportInput;
  bucket: ReportBucket;
  refreshed: number;
  zone: string;
  target: number;
  onTarget: (hours: number) => void;
  burnProject: string;
  onBurnProject: (id: string) => void;
}) {
  const { byProject, byBillable, byPerson } = data;
  const currency = byProject.currency;
  const showsMoney = byProject.totals.amountCents !== null;
  const periods = useMemo(
    () => [...new Set(byBillable.rows.map((r) => r.bucketStart!))].sort(),
    [byBillable],
  );
  const periodLabels = useMemo(() => periods.map((p) => wallClock(p, zone).date), [periods, zone]);
  const at = useMemo(() => {
    const index = new Map(periods.map((p, i) => [p, i]));
    return (row: ReportRowFieldsFragment) => index.get(row.bucketStart!);
  }, [periods]);

  // The largest projects are drawn by name, period by period; the rest are one band.
  const drawn = useMemo(
    () => [...byProject.rows].sort((a, b) => b.seconds - a.seconds).slice(0, PROJECTS_DRAWN),
    [byProject],
  );
  const limited = data.projects.nodes.filter((p) => p.timeLimit !== null);
  const followed = limited.find((p) => p.id === burnProject) ?? limited[0];
  const perPeriod = useApi(
    DashboardPeriodsDocument,
    {
      drawn: {
        ...base,
        groupBy: ['PROJECT'],
        bucket,
        filter: { ...base.filter, projectIds: drawn.map((r) => r.project!.nodeId) },
      },
      // The time left counts everyone's time on the project, whatever the view's filters, and runs
      // from now back: the time after the range counts too.
      followed: {
        ...base,
        toDate: later(base.toDate!, addDays(today(zone), 1)),
        groupBy: [],
        bucket,
        filter: { projectIds: [followed?.id ?? drawn[0]?.project?.nodeId ?? ''] },
      },
    },
    drawn.length === 0,
  );
  // The moment the view is drawn with every figure, for bench/web-dashboard.ts's browser trace.
  const complete = !stale && !perPeriod.loading && perPeriod.data !== undefined;
  useEffect(() => {
    if (complete) performance.mark('timetrack:dashboard-drawn');
  }, [complete, perPeriod.data, data]);
  // The periods follow the totals when events refresh them.
  const reloadPeriods = perPeriod.reload;
  useEffect(() => {
    if (refreshed) void reloadPeriods();
  }, [refreshed, reloadPeriods]);

  const periodTotals = useMemo(() => {
    const sums = periods.map(() => ({ seconds: 0, billable: 0, amount: 0, cost: 0, profit: 0 }));
    for (const r of byBillable.rows) {
      const s = sums[at(r)!]!;
      s.seconds += r.seconds;
      if (r.billable) s.billable += r.seconds;
      s.amount += r.amountCents ?? 0;
      s.cost += r.costCents ?? 0;
      s.profit += r.profitCents ?? 0;
    }
    return sums;
  }, [byBillable, periods, at]);

  const stacked = useMemo((): ChartSeries[] => {
    const series: ChartSeries[] = drawn.map((r, i) => ({
      label: r.project?.name ?? text.dashboard.hiddenProject,
      values: periods.map(() => 0),
      color: PALETTE[i % PALETTE.length]!,
      kind: 'bar',
    }));
    const index = new Map(drawn.map((r, i) => [r.project?.nodeId, i]));
    for (const r of perPeriod.data?.drawn.rows ?? [])
      series[index.get(r.project?.nodeId)!]!.values[at(r)!]! += r.seconds / 3600;
    const rest = byProject.rows.length - drawn.length;
    if (rest <= 0) return series;
    const other = periodTotals.map(
      (t, i) => t.seconds / 3600 - series.reduce((sum, s) => sum + s.values[i]!, 0),
    );
    return [
      ...series,
      { label: text.dashboard.otherProjects(rest), values: other, color: OTHER_COLOR, kind: 'bar' },
    ];
  }, [drawn, perPeriod.data, byProject, periods, periodTotals, at]);

  const billableSeries = useMemo(
    (): ChartSeries[] => [
      {
        label: text.dashboard.billableHours,
        values: periodTotals.map((t) => t.billable / 3600),
        color: PALETTE[0]!,
        kind: 'bar',
      },
      {
        label: text.dashboard.nonBillableHours,
        values: periodTotals.map((t) => (t.seconds - t.billable) / 3600),
        color: OTHER_COLOR,
        kind: 'bar',
      },
    ],
    [periodTotals],
  );

  const weeks = Math.max(
    1,
    (Date.parse(`${base.toDate}T00:00:00Z`) - Date.parse(`${base.fromDate}T00:00:00Z`)) /
      604_800_000,
  );
  const people = byPerson.rows.filter((r) => r.user);
  const personTarget = target * weeks;

  const burn = useMemo(() => {
    if (!followed || followed.timeLeft === null || !perPeriod.data) return undefined;
    // Time left at the end of each period: from what is left now, back through each period's time.
    const used = periods.map(() => 0);
    let usedSince = 0;
    for (const r of perPeriod.data.followed.rows) {
      const i = at(r);
      if (i === undefined) usedSince += r.seconds;
      else used[i]! += r.seconds;
    }
    const left = periods.map(() => 0);
    let remaining = followed.timeLeft + usedSince;
    for (let i = periods.length - 1; i >= 0; i--) {
      left[i] = remaining;
      remaining += used[i]!;
    }
    return left;
  }, [followed, perPeriod.data, periods, at]);

  if (byProject.totals.seconds === 0) return <p>{text.dashboard.empty}</p>;
  const h = (seconds: number) => hours(seconds);
  const m = (cents: number | null) => (cents === null ? '' : money(cents, currency));

  return (
    <div aria-busy={!complete} data-testid="charts">
      <table className="totals" data-testid="totals">
        <caption>{text.dashboard.totals}</caption>
        <tbody>
          <tr>
            <th scope="row">{text.dashboard.hours}</th>
            <td data-seconds={byProject.totals.seconds}>{h(byProject.totals.seconds)}</td>
          </tr>
          <tr>
            <th scope="row">{text.dashboard.billableHours}</th>
            <td data-seconds={byProject.totals.billableSeconds}>
              {h(byProject.totals.billableSeconds)}
            </td>
          </tr>
          {showsMoney && (
            <>
              <tr>
                <th scope="row">{text.dashboard.amount}</th>
                <td data-cents={byProject.totals.amountCents}>{m(byProject.totals.amountCents)}</td>
              </tr>
              <tr>
                <th scope="row">{text.dashboard.cost}</th>
                <td data-cents={byProject.totals.costCents}>{m(byProject.totals.costCents)}</td>
              </tr>
              <tr>
                <th scope="row">{text.dashboard.profit}</th>
                <td data-cents={byProject.totals.profitCents}>{m(byProject.totals.profitCents)}</td>
              </tr>
            </>
          )}
        </tbody>
      </table>

      <ChartWithTable
        id="by-project"
        title={text.dashboard.byProject}
        chart={
          <Chart
            summary={text.dashboard.byProjectSummary(stacked.length, h(byProject.totals.seconds))}
            categories={periodLabels}
            series={stacked}
            stacked
            unit={text.dashboard.hours}
          />
        }
        columns={[text.dashboard.period, ...stacked.map((s) => s.label)]}
        rows={periodLabels.map((label, i) => [
          label,
          ...stacked.map((s) => s.values[i]!.toFixed(2)),
        ])}
      />

      <ChartWithTable
        id="billable"
        title={text.dashboard.billableSplit}
        chart={
          <Chart
            summary={text.dashboard.billableSummary(
              h(byProject.totals.billableSeconds),
              h(byProject.totals.seconds - byProject.totals.billableSeconds),
            )}
            categories={periodLabels}
            series={billableSeries}
            stacked
            unit={text.dashboard.hours}
          />
        }
        columns={[text.dashboard.period, ...billableSeries.map((s) => s.label)]}
        rows={periodLabels.map((label, i) => [
          label,
          ...billableSeries.map((s) => s.values[i]!.toFixed(2)),
        ])}
      />

      <ChartWithTable
        id="per-person"
        title={text.dashboard.perPerson}
        controls={
          <Field label={text.dashboard.targetHours}>
            {(p) => (
              <input
                {...p}
                type="number"
                min={0}
                max={168}
                value={target}
                onChange={(e) => onTarget(Number(e.target.value) || 0)}
              />
            )}
          </Field>
        }
        chart={
          <Chart
            summary={text.dashboard.perPersonSummary(people.length, personTarget.toFixed(0))}
            categories={people.map((r) => personName(r.user!))}
            series={[
              {
                label: text.dashboard.hours,
                values: people.map((r) => r.seconds / 3600),
                color: PALETTE[0]!,
                kind: 'bar',
              },
              {
                label: text.dashboard.target,
                values: people.map(() => personTarget),
                color: PALETTE[7]!,
                kind: 'line',
                dashed: true,
              },
            ]}
            unit={text.dashboard.hours}
          />
        }
        columns={[text.dashboard.person, text.dashboard.hours, text.dashboard.target]}
        rows={people.map((r) => [personName(r.user!), h(r.seconds), personTarget.toFixed(2)])}
      />

      {limited.length > 0 && (
        <ChartWithTable
          id="burn-down"
          title={text.dashboard.burnDown}
          controls={
            <Field label={text.dashboard.burnDownPick}>
              {(p) => (
                <select
                  {...p}
                  value={followed?.id ?? ''}
                  onChange={(e) => onBurnProject(e.target.value)}
                >
                  {limited.map((project) => (
                    <option key={project.id} value={project.id}>
                      {project.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          }
          chart={
            burn && followed ? (
              <Chart
                summary={text.dashboard.burnDownSummary(followed.name, h(followed.timeLeft ?? 0))}
                categories={periodLabels}
                series={[
                  {
                    label: text.timer.timeLeft,
                    values: burn.map((s) => s / 3600),
                    color: PALETTE[3]!,
                    kind: 'line',
                  },
                ]}
                unit={text.dashboard.hours}
              />
            ) : (
              <p>{text.dashboard.burnDownNoLimit}</p>
            )
          }
          columns={[text.dashboard.period, text.timer.timeLeft]}
          rows={burn ? periodLabels.map((label, i) => [label, h(burn[i]!)]) : []}
        />
      )}

      {showsMoney && (
        <ChartWithTable
          id="money"
          title={text.dashboard.money}
          chart={
            <Chart
              summary={text.dashboard.moneySummary(m(byProject.totals.amountCents))}
              categories={periodLabels}
              series={[
                {
                  label: text.dashboard.amount,
                  values: periodTotals.map((s) => s.amount / 100),
                  color: PALETTE[0]!,
                  kind: 'line',
                },
                {
                  label: text.dashboard.cost,
                  values: periodTotals.map((s) => s.cost / 100),
                  color: PALETTE[1]!,
                  kind: 'line',
                },
                {
                  label: text.dashboard.profit,
                  values: periodTotals.map((s) => s.profit / 100),
                  color: PALETTE[2]!,
                  kind: 'line',
                  dashed: true,
                },
              ]}
              unit={currency}
            />
          }
          columns={[
            text.dashboard.period,
            text.dashboard.amount,
            text.dashboard.cost,
            text.dashboard.profit,
          ]}
          rows={periodLabels.map((label, i) => [
            label,
            m(periodTotals[i]!.amount),
            m(periodTotals[i]!.cost),
            m(periodTotals[i]!.profit),
          ])}
        />
      )}
    </div>
  );
}

function ChartWithTable({
  id,
  title,
  chart,
  controls,
  columns,
  rows,
}: {
  id: string;
  title: string;
  chart: ReactNode;
  controls?: ReactNode;
  columns: string[];
  rows: string[][];
}) {
  return (
    <section className="chart-pair" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {controls}
      <div className="pair">
        {chart}
        <div className="scroll">
          <table data-testid={`${id}-table`}>
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                {columns.map((c) => (
                  <th scope="col" key={c}>
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row[0]}>
                  <th scope="row">{row[0]}</th>
                  {row.slice(1).map((cell, i) => (
                    <td key={columns[i + 1]}>{cell}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </section>
  );
}

function personName(u: { firstName: string; lastName: string; login: string }): string {
  return `${u.firstName} ${u.lastName}`.trim() || u.login;
}

const ADDRESS: [keyof View, string][] = [
  ['from', 'from'],
  ['to', 'to'],
  ['bucket', 'per'],
  ['projectId', 'project'],
  ['userId', 'person'],
  ['billable', 'billable'],
];

function addressOf(view: View): URLSearchParams {
  return new URLSearchParams(
    ADDRESS.filter(([key]) => view[key]).map(([key, name]) => [name, view[key]]),
  );
}

/** The view the address names (`#/dashboard?from=…&to=…&per=WEEK`), else the last 12 weeks. */
function viewFromAddress(zone: string): View {
  const monday = mondayOf(today(zone));
  const params = new URLSearchParams(location.hash.split('?')[1] ?? '');
  const date = (name: string) =>
    /^\d{4}-\d{2}-\d{2}$/.test(params.get(name) ?? '') ? params.get(name)! : undefined;
  const bucket = params.get('per') as ReportBucket | null;
  const billable = params.get('billable');
  return {
    from: date('from') ?? addDays(monday, -77),
    to: date('to') ?? addDays(monday, 7),
    bucket: bucket && BUCKETS.includes(bucket) ? bucket : 'WEEK',
    projectId: params.get('project') ?? '',
    userId: params.get('person') ?? '',
    billable: billable === 'true' || billable === 'false' ? billable : '',
  };
}

function later(a: string, b: string): string {
  return a > b ? a : b;
}

/** The first of the month `months` after the one `first` starts. */
function nextMonth(first: string, months = 1): string {
  const [y, m] = first.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1 + months, 1)).toISOString().slice(0, 10);
}
