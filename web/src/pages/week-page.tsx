import { useEffect, useMemo, useRef, useState } from 'react';
import type { Viewer } from '../viewer';
import { run, type ApiError } from '../api/client';
import {
  CreateShiftDocument,
  DeleteShiftDocument,
  StaffListDocument,
  TimerProjectsDocument,
  UpdateShiftDocument,
  WeekShiftsDocument,
  type WeekShiftFragment,
} from '../api/generated';
import { useApi, useShiftEvents } from '../api/use-api';
import { personName, text } from '../text';
import {
  addDays,
  dayLabel,
  duration,
  hours,
  mondayOf,
  today,
  wallClock,
  zonedInstant,
} from '../time';
import { ErrorNotice, Field, Loading, Status, Scroll, useAction } from '../ui';

interface Draft {
  id: string | undefined;
  projectId: string;
  date: string;
  start: string;
  stop: string;
  notes: string;
  billable: boolean;
}

/**
 * A person's week by day and project, in that person's zone: totals, and the shifts to add, edit,
 * move (another day or project) and delete. Owners and managers choose whose week it is.
 */
export function WeekPage({ viewer }: { viewer: Viewer }) {
  const manages = viewer.staff.type !== 'STAFF';
  const staff = useApi(StaffListDocument, {}, { skip: !manages });
  const projects = useApi(TimerProjectsDocument, {});
  const [personId, setPersonId] = useState(viewer.staff.id);
  const person = staff.data?.staff.nodes.find((s) => s.id === personId) ?? viewer.staff;
  const zone = person.timeZone;
  // The week is in the address (`#/week?week=2026-11-23`), so that it can be bookmarked.
  const [monday, setWeek] = useState(() => mondayOf(weekFromAddress() ?? today(zone)));
  const setMonday = (date: string) => {
    history.replaceState(null, '', `#/week?week=${date}`);
    setWeek(date);
  };
  const days = useMemo(() => [0, 1, 2, 3, 4, 5, 6].map((i) => addDays(monday, i)), [monday]);
  const from = zonedInstant(monday, '00:00', zone).toISOString();
  const to = zonedInstant(addDays(monday, 7), '00:00', zone).toISOString();
  const shifts = useApi(WeekShiftsDocument, {
    filter: { userId: { eq: personId }, start: { gte: from, lt: to } },
  });
  const [draft, setDraft] = useState<Draft>();
  // The button that opened the editor gets the focus back when it closes.
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (!draft) opener.current?.focus();
  }, [draft]);
  const { error, status, act, dismiss } = useAction();
  useShiftEvents(() => void shifts.reload());

  const rows = shifts.data?.shifts.nodes ?? [];
  const now = Date.now();
  const seconds = (s: WeekShiftFragment) =>
    ((s.stop ? Date.parse(s.stop) : now) - Date.parse(s.start)) / 1000;
  const dayOf = (s: WeekShiftFragment) => wallClock(s.start, zone).date;
  const byProject = new Map<string, { name: string; perDay: number[] }>();
  for (const s of rows) {
    const key = s.project?.id ?? '';
    const entry = byProject.get(key) ?? { name: s.project?.name ?? '—', perDay: days.map(() => 0) };
    const day = days.indexOf(dayOf(s));
    if (day >= 0) entry.perDay[day]! += seconds(s);
    byProject.set(key, entry);
  }
  const dayTotals = days.map((_, i) =>
    [...byProject.values()].reduce((t, p) => t + p.perDay[i]!, 0),
  );

  const edit = (s: WeekShiftFragment | undefined, date = today(zone)) => {
    opener.current = document.activeElement as HTMLElement | null;
    dismiss();
    const start = s ? wallClock(s.start, zone) : { date, time: '09:00' };
    setDraft({
      id: s?.id,
      projectId: s?.project?.id ?? projects.data?.projects.nodes[0]?.id ?? '',
      date: start.date,
      start: start.time,
      stop: s ? (s.stop ? wallClock(s.stop, zone).time : '') : '10:00',
      notes: s?.notes ?? '',
      billable: s?.billable ?? true,
    });
  };

  function save(d: Draft) {
    const start = zonedInstant(d.date, d.start, zone);
    // A stop before the start is on the next day (a night shift).
    let stop = d.stop ? zonedInstant(d.date, d.stop, zone) : null;
    if (stop && stop <= start) stop = zonedInstant(addDays(d.date, 1), d.stop, zone);
    const patch = {
      projectId: d.projectId,
      start: start.toISOString(),
      stop: stop?.toISOString() ?? null,
      notes: d.notes,
      billable: d.billable,
      timeZone: zone,
    };
    return act(async () => {
      if (d.id) await run(UpdateShiftDocument, { input: { shift: { id: d.id }, patch } });
      else await run(CreateShiftDocument, { input: { ...patch, userId: personId } });
      setDraft(undefined);
      setMonday(mondayOf(d.date));
      await shifts.reload();
      return text.week.saved;
    });
  }

  function remove(s: WeekShiftFragment) {
    if (!window.confirm(text.week.deleteConfirm)) return;
    void act(async () => {
      await run(DeleteShiftDocument, { input: { shift: { id: s.id } } });
      await shifts.reload();
      return text.week.deleted;
    });
  }

  return (
    <section aria-labelledby="week-title">
      <h1 id="week-title">{text.week.title}</h1>
      <div className="toolbar">
        {manages && staff.data && (
          <Field label={text.week.person}>
            {(props) => (
              <select {...props} value={personId} onChange={(e) => setPersonId(e.target.value)}>
                {staff.data!.staff.nodes.map((s) => (
                  <option key={s.id} value={s.id}>
                    {personName(s)}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        <button type="button" onClick={() => setMonday(addDays(monday, -7))}>
          {text.week.previous}
        </button>
        <button type="button" onClick={() => setMonday(mondayOf(today(zone)))}>
          {text.week.thisWeek}
        </button>
        <button type="button" onClick={() => setMonday(addDays(monday, 7))}>
          {text.week.next}
        </button>
        <button
          type="button"
          className="primary"
          onClick={() => edit(undefined, days.includes(today(zone)) ? today(zone) : monday)}
        >
          {text.week.addShift}
        </button>
      </div>
      <p>
        <strong>{text.week.range(dayLabel(monday), dayLabel(days[6]!))}</strong> ·{' '}
        {text.week.zone(zone)}
      </p>
      <Status message={status} />
      {draft && (
        <ShiftEditor
          draft={draft}
          projects={[
            ...(projects.data?.projects.nodes ?? []),
            ...rows.flatMap((s) =>
              s.id === draft.id &&
              s.project &&
              !projects.data?.projects.nodes.some((p) => p.id === s.project!.id)
                ? [s.project]
                : [],
            ),
          ]}
          error={error}
          onSave={save}
          onCancel={() => {
            setDraft(undefined);
            dismiss();
          }}
        />
      )}
      {!draft && <ErrorNotice error={error} />}
      {shifts.error && <ErrorNotice error={shifts.error} />}
      {!shifts.data ? (
        <Loading />
      ) : (
        <>
          <Scroll label={text.week.gridCaption}>
            <table className="week-grid">
              <caption>{text.week.gridCaption}</caption>
              <thead>
                <tr>
                  <th scope="col">{text.week.project}</th>
                  {days.map((d) => (
                    <th scope="col" key={d}>
                      {dayLabel(d)}
                    </th>
                  ))}
                  <th scope="col">{text.common.total}</th>
                </tr>
              </thead>
              <tbody>
                {[...byProject.entries()].map(([id, p]) => (
                  <tr key={id}>
                    <th scope="row">{p.name}</th>
                    {p.perDay.map((s, i) => (
                      <td key={days[i]}>{s ? duration(s) : ''}</td>
                    ))}
                    <td>{duration(p.perDay.reduce((a, b) => a + b, 0))}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row">{text.common.total}</th>
                  {dayTotals.map((s, i) => (
                    <td key={days[i]}>{duration(s)}</td>
                  ))}
                  <td>{duration(dayTotals.reduce((a, b) => a + b, 0))}</td>
                </tr>
              </tfoot>
            </table>
          </Scroll>
          {rows.length === 0 ? (
            <p>{text.week.noShifts}</p>
          ) : (
            <table className="shifts">
              <caption>{text.week.shiftsCaption}</caption>
              <thead>
                <tr>
                  <th scope="col">{text.week.when}</th>
                  <th scope="col">{text.week.project}</th>
                  <th scope="col">{text.week.hours}</th>
                  <th scope="col">{text.week.notes}</th>
                  <th scope="col">{text.week.actions}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((s) => {
                  const start = wallClock(s.start, zone);
                  const when = `${dayLabel(start.date)} ${start.time}–${s.stop ? wallClock(s.stop, zone).time : text.week.runningNow}`;
                  return (
                    <tr key={s.id} data-shift={s.id}>
                      <td>{when}</td>
                      <td>{s.project?.name ?? '—'}</td>
                      <td>{hours(seconds(s))}</td>
                      <td>{s.notes}</td>
                      <td className="actions">
                        <button
                          type="button"
                          onClick={() => edit(s)}
                          aria-label={`${text.common.edit}: ${when}`}
                        >
                          {text.common.edit}
                        </button>
                        <button
                          type="button"
                          onClick={() => remove(s)}
                          aria-label={`${text.common.delete}: ${when}`}
                        >
                          {text.common.delete}
                        </button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}

function ShiftEditor({
  draft,
  projects,
  error,
  onSave,
  onCancel,
}: {
  draft: Draft;
  projects: readonly { id: string; name: string }[];
  error: ApiError | undefined;
  onSave: (draft: Draft) => Promise<unknown>;
  onCancel: () => void;
}) {
  const [d, setD] = useState(draft);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    setD(draft);
    heading.current?.focus();
  }, [draft]);
  const set = (patch: Partial<Draft>) => setD((old) => ({ ...old, ...patch }));
  return (
    <form
      className="editor"
      aria-labelledby="editor-title"
      onSubmit={(event) => {
        event.preventDefault();
        setBusy(true);
        void onSave(d).finally(() => setBusy(false));
      }}
    >
      <h2 id="editor-title" tabIndex={-1} ref={heading}>
        {d.id ? text.week.editShift : text.week.newShift}
      </h2>
      <Field label={text.week.project}>
        {(props) => (
          <select
            {...props}
            required
            value={d.projectId}
            onChange={(e) => set({ projectId: e.target.value })}
          >
            {projects.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={text.week.date}>
        {(props) => (
          <input
            {...props}
            type="date"
            required
            value={d.date}
            onChange={(e) => set({ date: e.target.value })}
          />
        )}
      </Field>
      <Field label={text.week.start}>
        {(props) => (
          <input
            {...props}
            type="time"
            required
            value={d.start}
            onChange={(e) => set({ start: e.target.value })}
          />
        )}
      </Field>
      <Field label={text.week.stop} hint={text.week.stopHint}>
        {(props) => (
          <input
            {...props}
            type="time"
            value={d.stop}
            onChange={(e) => set({ stop: e.target.value })}
          />
        )}
      </Field>
      <Field label={text.week.notes}>
        {(props) => (
          <textarea
            {...props}
            rows={2}
            value={d.notes}
            onChange={(e) => set({ notes: e.target.value })}
          />
        )}
      </Field>
      <div className="check">
        <input
          id="editor-billable"
          type="checkbox"
          checked={d.billable}
          onChange={(e) => set({ billable: e.target.checked })}
        />
        <label htmlFor="editor-billable">{text.week.billable}</label>
      </div>
      <ErrorNotice error={error} />
      <div className="buttons">
        <button type="submit" className="primary" disabled={busy}>
          {text.common.save}
        </button>
        <button type="button" onClick={onCancel}>
          {text.common.cancel}
        </button>
      </div>
    </form>
  );
}

function weekFromAddress(): string | undefined {
  const week = new URLSearchParams(location.hash.split('?')[1] ?? '').get('week');
  return week && /^\d{4}-\d{2}-\d{2}$/.test(week) ? week : undefined;
}
