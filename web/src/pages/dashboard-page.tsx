import { useEffect, useRef, useState } from 'react';
import type { Viewer } from '../viewer';
import { download } from '../api/client';
import {
  DashboardDocument,
  type DashboardQuery,
  type ReportBucket,
  type ReportInput,
} from '../api/generated';
import { asApiError, useApi, useShiftEvents } from '../api/use-api';
import { personName, text } from '../text';
import { addDays, mondayOf, today } from '../time';
import { ErrorNotice, Field, Loading, Status } from '../ui';
import { DashboardCharts } from './dashboard-charts';

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
  // Each refresh (Show again, or changes arriving) reads the whole view again.
  const [generation, setGeneration] = useState(0);
  const refresh = () => setGeneration((n) => n + 1);
  const report = useApi(
    DashboardDocument,
    {
      byProject: { ...base, groupBy: ['PROJECT'] },
      byBillable: { ...base, groupBy: ['BILLABLE'], bucket: view.bucket, fillEmpty: true },
      byPerson: { ...base, groupBy: ['USER'] },
    },
    { generation },
  );
  // The view is in the address, so that it can be bookmarked and shared; Show again refreshes it.
  const apply = (next: View) => {
    history.replaceState(null, '', `#/dashboard?${addressOf(next)}`);
    if (JSON.stringify(next) === JSON.stringify(view)) refresh();
    else setView(next);
  };

  // A burst of punches is one refresh, a second after the last.
  const pending = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(pending.current), []);
  useShiftEvents(() => {
    clearTimeout(pending.current);
    pending.current = setTimeout(() => {
      refresh();
      setStatus(text.dashboard.updated);
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
        <DashboardCharts
          data={report.data}
          stale={report.loading}
          base={base}
          bucket={view.bucket}
          generation={generation}
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

/** The first of the month `months` after the one `first` starts. */
function nextMonth(first: string, months = 1): string {
  const [y, m] = first.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1 + months, 1)).toISOString().slice(0, 10);
}
