import { useEffect, useRef, useState } from 'react';
import { run } from '../api/client';
import {
  PunchInDocument,
  PunchOutDocument,
  TimerProjectsDocument,
  type TimerProjectFragment,
} from '../api/generated';
import { asApiError, useApi, useShiftEvents } from '../api/use-api';
import type { ApiError } from '../api/client';
import { text } from '../text';
import { clock, duration } from '../time';
import { ErrorNotice, Field, Loading, Status, Scroll } from '../ui';

/** The epoch ms now, every second while `ticking`: the page renders again only while a shift runs. */
function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}

/**
 * The projects a person may punch into, with their time left, and the running shift ticking.
 * A punch elsewhere (the CLI, another tab) arrives as a shift event carrying the project.
 */
export function TimerPage() {
  const list = useApi(TimerProjectsDocument, {});
  const [projects, setProjects] = useState<TimerProjectFragment[]>([]);
  const [chosen, setChosen] = useState('');
  const [activity, setActivity] = useState('');
  const [notes, setNotes] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const [status, setStatus] = useState('');
  const now = useNow(projects.some((p) => p.running));

  useEffect(() => {
    if (!list.data) return;
    setProjects(list.data.projects.nodes);
    setChosen(
      (c) =>
        c ||
        (list.data!.projects.nodes.find((p) => p.running) ?? list.data!.projects.nodes[0])?.id ||
        '',
    );
  }, [list.data]);

  // The projects as this tab last set them, ahead of the render that shows them: an event heard
  // between a punch's answer and that render compares with the answer, not with the state before.
  const latest = useRef(projects);
  latest.current = projects;
  const replace = (changed: TimerProjectFragment[]) => {
    latest.current = latest.current.map((p) => changed.find((c) => c.id === p.id) ?? p);
    setProjects(latest.current);
  };

  // This tab's own punch arrives as an event too; only a change made elsewhere is announced.
  const punching = useRef(false);
  useShiftEvents((event) => {
    if (!event?.project) return void list.reload();
    const known = latest.current.find((p) => p.id === event.project!.id);
    if (!punching.current && known && known.running !== event.project.running)
      setStatus(text.timer.liveChange(event.project.name));
    replace([event.project]);
  });

  const project = projects.find((p) => p.id === chosen);
  // An activity belongs to its project: choosing another project clears it.
  const choose = (id: string) => {
    setChosen(id);
    setActivity('');
  };

  async function toggle(target: TimerProjectFragment | undefined = project) {
    if (!target || punching.current) return;
    punching.current = true;
    setBusy(true);
    setError(undefined);
    try {
      if (target.running) {
        const { punchOut } = await run(PunchOutDocument, {
          input: { project: { id: target.id }, notes: notes || null },
        });
        replace([punchOut.project]);
        setStatus(text.timer.punchedOut(target.name));
      } else {
        const { punchIn } = await run(PunchInDocument, {
          input: {
            project: { id: target.id },
            activityId: target.activities.some((a) => a.id === activity) ? activity : null,
            notes: notes || null,
          },
        });
        replace([
          punchIn.project,
          ...punchIn.stoppedShifts.flatMap((s) => (s.project ? [s.project] : [])),
        ]);
        setStatus(text.timer.punchedIn(target.name));
      }
      setNotes('');
    } catch (e) {
      setError(asApiError(e));
    } finally {
      punching.current = false;
      setBusy(false);
    }
  }

  // Alt+Shift+S punches in to or out of the chosen project from anywhere on the page: with
  // modifiers, so that no single key typed by a speech or keyboard user punches by mistake.
  const shortcut = useRef(toggle);
  shortcut.current = toggle;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey && event.shiftKey && event.code === 'KeyS' && !event.repeat) {
        event.preventDefault();
        void shortcut.current();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  if (list.error && !list.data) return <ErrorNotice error={list.error} />;
  if (!list.data) return <Loading />;

  return (
    <section aria-labelledby="timer-title">
      <h1 id="timer-title">{text.timer.title}</h1>
      {projects.length === 0 ? (
        <p>{text.timer.noProjects}</p>
      ) : (
        <form
          className="punch"
          onSubmit={(event) => {
            event.preventDefault();
            void toggle();
          }}
        >
          <Field label={text.timer.project}>
            {(props) => (
              <select {...props} value={chosen} onChange={(e) => choose(e.target.value)}>
                {projects.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.company ? `${p.company.name} – ${p.name}` : p.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {project && !project.running && (
            <Field label={text.timer.activity}>
              {(props) => (
                <select {...props} value={activity} onChange={(e) => setActivity(e.target.value)}>
                  <option value="">{text.timer.noActivity}</option>
                  {project.activities.map((a) => (
                    <option key={a.id} value={a.id}>
                      {a.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          )}
          <Field label={text.timer.notes}>
            {(props) => (
              <textarea
                {...props}
                rows={2}
                value={notes}
                onChange={(e) => setNotes(e.target.value)}
              />
            )}
          </Field>
          <div className="punch-action">
            {project?.running && project.startedAt && (
              <p className="elapsed">
                <span>{text.timer.elapsed}</span>{' '}
                <time data-testid="elapsed" dateTime={project.startedAt}>
                  {clock((now - Date.parse(project.startedAt)) / 1000)}
                </time>
              </p>
            )}
            <button
              type="submit"
              className={project?.running ? 'stop' : 'primary'}
              disabled={busy}
              aria-keyshortcuts="Alt+Shift+S"
            >
              {project?.running ? text.timer.stop : text.timer.start}
            </button>
          </div>
          <p className="hint">{text.timer.shortcut}</p>
          <ErrorNotice error={error} />
        </form>
      )}
      <Status message={status} />
      <Scroll label={text.timer.projectsCaption}>
        <table className="projects">
          <caption>{text.timer.projectsCaption}</caption>
          <thead>
            <tr>
              <th scope="col">{text.timer.project}</th>
              <th scope="col">{text.timer.yourTime}</th>
              <th scope="col">{text.timer.timeLeft}</th>
              <th scope="col">
                <span className="visually-hidden">{text.timer.punch}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {projects.map((p) => (
              <tr key={p.id} className={p.running ? 'running' : undefined}>
                <th scope="row">
                  {p.name}
                  {p.company && <small> {p.company.name}</small>}
                  {p.running && <span className="badge">{text.timer.running}</span>}
                </th>
                <td>{duration(p.runningTotal)}</td>
                <td>
                  <TimeLeft project={p} />
                </td>
                <td>
                  <button
                    type="button"
                    className={p.running ? 'stop' : undefined}
                    disabled={busy}
                    onClick={() => {
                      if (p.id !== chosen) choose(p.id);
                      void toggle(p);
                    }}
                    aria-label={`${p.running ? text.timer.stop : text.timer.start}: ${p.name}`}
                  >
                    {p.running ? text.timer.stop : text.timer.start}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Scroll>
    </section>
  );
}

function TimeLeft({ project }: { project: TimerProjectFragment }) {
  if (project.timeLeft === null) return <span>{text.timer.noLimit}</span>;
  if (project.overdue)
    return (
      <span className="overdue">
        {text.timer.overdue}, {text.timer.overBy(duration(-project.timeLeft))}
      </span>
    );
  return (
    <span className={project.nearlyOverdue ? 'nearly' : undefined}>
      {duration(project.timeLeft)}
      {project.nearlyOverdue && ` (${text.timer.nearlyOverdue})`}
    </span>
  );
}
