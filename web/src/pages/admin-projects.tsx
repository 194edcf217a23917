import { useState } from 'react';
import type { Viewer } from '../viewer';
import { run } from '../api/client';
import {
  CreateProjectDocument,
  UpdateProjectDocument,
  type AdminProjectFragment,
  type Visibility,
} from '../api/generated';
import { personName, text } from '../text';
import { duration, money } from '../time';
import { ErrorNotice, Field, Status, Scroll, useAction } from '../ui';
import { formValues, VisibilityField, type Company, type Person, type Reload } from './admin-forms';
import { Rates } from './admin-rates';

/** The account's projects: created and edited, enabled and disabled, their rates. */
export function Projects({
  viewer,
  companies,
  projects,
  people,
  reload,
}: {
  viewer: Viewer;
  companies: Company[];
  projects: AdminProjectFragment[];
  people: Person[];
  reload: Reload;
}) {
  // The Active boxes' own; each form has its own too.
  const { error, status, busy, act } = useAction();
  const [panel, setPanel] = useState<{ id: string; kind: 'edit' | 'rates' }>();
  const seesMoney = viewer.staff.type !== 'STAFF' || viewer.account.staffSeeMoney;
  const opened = projects.find((p) => p.id === panel?.id);
  const toggle = (id: string, kind: 'edit' | 'rates') =>
    setPanel(panel?.id === id && panel.kind === kind ? undefined : { id, kind });
  return (
    <section aria-labelledby="projects-title">
      <h2 id="projects-title">{text.admin.projects}</h2>
      <ProjectForm companies={companies} people={people} seesMoney={seesMoney} reload={reload} />
      <ErrorNotice error={error} />
      <Status message={status} />
      <Scroll label={text.admin.projects}>
        <table>
          <caption className="visually-hidden">{text.admin.projects}</caption>
          <thead>
            <tr>
              <th scope="col">{text.admin.name}</th>
              <th scope="col">{text.admin.company}</th>
              <th scope="col">{text.admin.timeLimit}</th>
              <th scope="col">{text.admin.timeLeft}</th>
              {seesMoney && <th scope="col">{text.admin.hourlyRate}</th>}
              <th scope="col">{text.admin.active}</th>
              <th scope="col">{text.admin.actions}</th>
            </tr>
          </thead>
          <tbody>
            {projects.map((p) => (
              <tr key={p.id}>
                <th scope="row">{p.name}</th>
                <td>{p.company?.name}</td>
                <td>{p.timeLimitString ?? (p.timeLimit !== null ? duration(p.timeLimit) : '')}</td>
                <td>{p.timeLeft !== null ? duration(p.timeLeft) : ''}</td>
                {seesMoney && (
                  <td>
                    {p.hourlyRateCents !== null
                      ? money(p.hourlyRateCents, viewer.account.currency)
                      : ''}
                  </td>
                )}
                <td>
                  <input
                    type="checkbox"
                    aria-label={`${text.admin.active}: ${p.name}`}
                    checked={p.active}
                    disabled={busy}
                    onChange={(e) =>
                      void act(async () => {
                        await run(UpdateProjectDocument, {
                          input: {
                            project: { id: p.id },
                            patch: { name: p.name, active: e.target.checked },
                          },
                        });
                        await reload();
                        return text.admin.updated(p.name);
                      })
                    }
                  />
                </td>
                <td className="actions">
                  <button
                    type="button"
                    aria-expanded={panel?.id === p.id && panel.kind === 'edit'}
                    aria-label={`${text.common.edit}: ${p.name}`}
                    onClick={() => toggle(p.id, 'edit')}
                  >
                    {text.common.edit}
                  </button>
                  {seesMoney && (
                    <button
                      type="button"
                      aria-expanded={panel?.id === p.id && panel.kind === 'rates'}
                      aria-label={`${text.admin.rates}: ${p.name}`}
                      onClick={() => toggle(p.id, 'rates')}
                    >
                      {text.admin.rates}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Scroll>
      {opened && panel?.kind === 'rates' && (
        <Rates
          key={opened.id}
          viewer={viewer}
          holder={{
            ref: { project: { id: opened.id } },
            name: opened.name,
            rates: opened.rates,
            kinds: ['BILLABLE'],
          }}
          reload={reload}
        />
      )}
      {opened && panel?.kind === 'edit' && (
        <ProjectForm
          key={opened.id}
          project={opened}
          companies={companies}
          people={people}
          seesMoney={seesMoney}
          reload={reload}
        />
      )}
    </section>
  );
}

/** A new project, or the changes of one: its company, limit, rate, visibility and members. */
function ProjectForm({
  project,
  companies,
  people,
  seesMoney,
  reload,
}: {
  project?: AdminProjectFragment;
  companies: Company[];
  people: Person[];
  seesMoney: boolean;
  reload: Reload;
}) {
  // Its own: a refusal shows in this form, not in every form of the section.
  const { act, busy, error, status } = useAction();
  const members = new Set(project?.users.map((u) => u.id));
  return (
    <form
      className={project ? 'inline-form panel' : 'inline-form'}
      aria-label={project ? text.admin.editProject(project.name) : text.admin.createProject}
      onSubmit={(event) => {
        const form = event.currentTarget;
        const v = formValues(event);
        const fields = {
          name: v.name!,
          companyId: v.company!,
          // Emptied, the limit is removed: null, where an omitted field would keep it.
          timeLimitString: v.limit || (project ? null : undefined),
          ...(seesMoney && v.rate ? { hourlyRate: v.rate } : {}),
          visibility: v.visibility as Visibility,
          userIds: new FormData(form).getAll('members').map(String),
        };
        void act(async () => {
          if (project) {
            await run(UpdateProjectDocument, {
              input: {
                project: { id: project.id },
                patch: {
                  ...fields,
                  ...(fields.timeLimitString === null ? { timeLimit: null } : {}),
                },
              },
            });
          } else {
            await run(CreateProjectDocument, { input: fields });
            form.reset();
          }
          await reload();
          return project ? text.admin.updated(fields.name) : text.admin.created(fields.name);
        });
      }}
    >
      {project && <h3>{text.admin.editProject(project.name)}</h3>}
      <Field label={text.admin.name}>
        {(p) => <input {...p} name="name" required defaultValue={project?.name} />}
      </Field>
      <Field label={text.admin.company}>
        {(p) => (
          <select {...p} name="company" required defaultValue={project?.company?.id ?? ''}>
            <option value="" disabled>
              {text.admin.noCompany}
            </option>
            {companies.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={text.admin.timeLimit} hint={text.admin.timeLimitHint}>
        {(p) => (
          <input
            {...p}
            name="limit"
            defaultValue={
              project?.timeLimitString ??
              (project?.timeLimit != null ? duration(project.timeLimit) : '')
            }
          />
        )}
      </Field>
      {seesMoney && !project && (
        <Field label={text.admin.hourlyRate} hint={text.admin.hourlyRateHint}>
          {(p) => <input {...p} name="rate" inputMode="decimal" />}
        </Field>
      )}
      <VisibilityField value={project?.visibility} />
      <Field label={text.admin.members}>
        {(p) => (
          <select
            {...p}
            name="members"
            multiple
            size={Math.min(5, Math.max(2, people.length))}
            defaultValue={[...members]}
          >
            {people.map((person) => (
              <option key={person.id} value={person.id}>
                {personName(person)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <button type="submit" className="primary" disabled={busy}>
        {project ? text.common.save : text.admin.createProject}
      </button>
      <ErrorNotice error={error} />
      <Status message={status} />
    </form>
  );
}

/** A project's billable rates over time; a new one applies from its date (a past one reprices). */
