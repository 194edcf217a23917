import { useEffect, useMemo, useState, type ReactNode } from 'react';
import {
  DashboardPeriodsDocument,
  type DashboardQuery,
  type ReportBucket,
  type ReportInput,
} from '../api/generated';
import { useApi } from '../api/use-api';
import { Chart, OTHER_COLOR, PALETTE, type ChartSeries } from '../charts/chart';
import { personName, text } from '../text';
import { addDays, hours, majorUnits, money, today, wallClock } from '../time';
import { ErrorNotice, Field, Scroll } from '../ui';

/** Projects drawn by name in the stacked chart; the rest are one "other" band. */
const PROJECTS_DRAWN = 8;

/**
 * The dashboard's charts, each with the table of its figures beside it, from the totals of the
 * view and, per period, the largest projects' time and the followed project's.
 */
export function DashboardCharts({
  data,
  stale,
  base,
  bucket,
  generation,
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
  /** Asks the periods again when it changes, with the totals. */
  generation: number;
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
    return (row: { bucketStart: string | null }) => index.get(row.bucketStart!);
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
    { skip: drawn.length === 0, generation },
  );
  // The moment the view is drawn with every figure, for bench/web-dashboard.ts's browser trace.
  const complete =
    !stale && !perPeriod.loading && (perPeriod.data ?? perPeriod.error) !== undefined;
  useEffect(() => {
    if (complete && perPeriod.data) performance.mark('timetrack:dashboard-drawn');
  }, [complete, perPeriod.data, data]);
  const periodTotals = useMemo(() => {
    const sums = periods.map(() => ({ seconds: 0, billable: 0, amount: 0, cost: 0, profit: 0 }));
    for (const r of byBillable.rows) {
      const period = at(r);
      if (period === undefined) continue;
      const s = sums[period]!;
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
    // Rows of an earlier view (while the new one loads) may name projects no longer drawn.
    for (const r of perPeriod.data?.drawn.rows ?? []) {
      const drawnAt = index.get(r.project?.nodeId);
      const period = at(r);
      if (drawnAt !== undefined && period !== undefined)
        series[drawnAt]!.values[period]! += r.seconds / 3600;
    }
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
  const [targetText, setTargetText] = useState(String(target));

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
  const h = hours;
  const m = (cents: number | null) => (cents === null ? '' : money(cents, currency));

  return (
    <div aria-busy={!complete} data-testid="charts">
      <ErrorNotice error={perPeriod.error} />
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
            summary={text.dashboard.byProjectSummary(drawn.length, h(byProject.totals.seconds))}
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
                value={targetText}
                onChange={(e) => {
                  // Kept as typed, so that it can be emptied on the way to another number.
                  setTargetText(e.target.value);
                  if (e.target.value !== '' && Number.isFinite(Number(e.target.value)))
                    onTarget(Number(e.target.value));
                }}
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
                  values: periodTotals.map((s) => majorUnits(s.amount, currency)),
                  color: PALETTE[0]!,
                  kind: 'line',
                },
                {
                  label: text.dashboard.cost,
                  values: periodTotals.map((s) => majorUnits(s.cost, currency)),
                  color: PALETTE[1]!,
                  kind: 'line',
                },
                {
                  label: text.dashboard.profit,
                  values: periodTotals.map((s) => majorUnits(s.profit, currency)),
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
        <Scroll label={title}>
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
        </Scroll>
      </div>
    </section>
  );
}

function later(a: string, b: string): string {
  return a > b ? a : b;
}
