import { useState, type FormEvent } from 'react';
import type { Viewer } from '../viewer';
import { run, type ApiError } from '../api/client';
import {
  AdminListsDocument,
  CreateCompanyDocument,
  CreateProjectDocument,
  CreateStaffDocument,
  DisableStaffDocument,
  EnableStaffDocument,
  SetRateDocument,
  UpdateCompanyDocument,
  StaffListDocument,
  UpdateProjectDocument,
  type AdminProjectFragment,
  type RateKind,
  type Visibility,
} from '../api/generated';
import { asApiError, useApi } from '../api/use-api';
import { text } from '../text';
import { duration, money, today, zonedInstant } from '../time';
import { ErrorNotice, Field, Loading, Status } from '../ui';

const VISIBILITIES: Visibility[] = ['PUBLIC', 'PRIVATE', 'CUSTOM'];

/** One action of a form: runs it, shows its refusal in place, announces its success. */
function useAction() {
  const [error, setError] = useState<ApiError>();
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const act = async (work: () => Promise<string>): Promise<boolean> => {
    setBusy(true);
    setError(undefined);
    try {
      setStatus(await work());
      return true;
    } catch (e) {
      setError(asApiError(e));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { error, status, busy, act };
}

function formValues(event: FormEvent<HTMLFormElement>): Record<string, string> {
  event.preventDefault();
  return Object.fromEntries(
    [...new FormData(event.currentTarget).entries()].map(([k, v]) => [k, String(v).trim()]),
  );
}

/** Companies, projects (limits, visibility, members, rates) and staff, for owners and managers. */
export function AdminPage({ viewer }: { viewer: Viewer }) {
  const lists = useApi(AdminListsDocument, {});
  const staff = useApi(StaffListDocument, {});
  if (viewer.staff.type === 'STAFF') return <p>{text.admin.forbidden}</p>;
  if (lists.error) return <ErrorNotice error={lists.error} />;
  if (!lists.data || !staff.data) return <Loading />;
  const reload = () => Promise.all([lists.reload(), staff.reload()]);
  return (
    <section aria-labelledby="admin-title">
      <h1 id="admin-title">{text.admin.title}</h1>
      <Companies companies={lists.data.companies.nodes} reload={reload} />
      <Projects
        viewer={viewer}
        companies={lists.data.companies.nodes}
        projects={lists.data.projects.nodes}
        people={staff.data.staff.nodes}
        reload={reload}
      />
      <Staff viewer={viewer} people={staff.data.staff.nodes} reload={reload} />
    </section>
  );
}

type Company = { id: string; name: string; visibility: Visibility; mainCity: string | null };
type Person = {
  id: string;
  rates: RateHolder['rates'];
  login: string | null;
  firstName: string;
  lastName: string;
  type: string;
  active: boolean;
  timeZone: string;
};
const nameOf = (p: Person) => `${p.firstName} ${p.lastName}`.trim() || p.login || '';

function Companies({
  companies,
  reload,
}: {
  companies: Company[];
  reload: () => Promise<unknown>;
}) {
  const { error, status, busy, act } = useAction();
  const [editing, setEditing] = useState<string>();
  const opened = companies.find((c) => c.id === editing);
  const form = { reload, act, busy, error };
  return (
    <section aria-labelledby="companies-title">
      <h2 id="companies-title">{text.admin.companies}</h2>
      <CompanyForm {...form} />
      <Status message={status} />
      <table>
        <caption className="visually-hidden">{text.admin.companies}</caption>
        <thead>
          <tr>
            <th scope="col">{text.admin.name}</th>
            <th scope="col">{text.admin.city}</th>
            <th scope="col">{text.admin.visibility}</th>
            <th scope="col">{text.admin.actions}</th>
          </tr>
        </thead>
        <tbody>
          {companies.map((c) => (
            <tr key={c.id}>
              <th scope="row">{c.name}</th>
              <td>{c.mainCity}</td>
              <td>{text.admin.visibilities[c.visibility]}</td>
              <td className="actions">
                <button
                  type="button"
                  aria-expanded={editing === c.id}
                  aria-label={`${text.common.edit}: ${c.name}`}
                  onClick={() => setEditing(editing === c.id ? undefined : c.id)}
                >
                  {text.common.edit}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {opened && <CompanyForm key={opened.id} company={opened} {...form} />}
    </section>
  );
}

/** A new company, or the changes of one. */
function CompanyForm({
  company,
  reload,
  act,
  busy,
  error,
}: {
  company?: Company;
  reload: () => Promise<unknown>;
  act: (work: () => Promise<string>) => Promise<boolean>;
  busy: boolean;
  error: ApiError | undefined;
}) {
  return (
    <form
      className={company ? 'inline-form panel' : 'inline-form'}
      aria-label={company ? text.admin.editCompany(company.name) : text.admin.createCompany}
      onSubmit={(event) => {
        const form = event.currentTarget;
        const v = formValues(event);
        const fields = {
          name: v.name!,
          visibility: v.visibility as Visibility,
          mainCity: v.city || (company ? null : undefined),
        };
        void act(async () => {
          if (company)
            await run(UpdateCompanyDocument, {
              input: { company: { id: company.id }, patch: fields },
            });
          else {
            await run(CreateCompanyDocument, { input: fields });
            form.reset();
          }
          await reload();
          return company ? text.admin.updated(fields.name) : text.admin.created(fields.name);
        });
      }}
    >
      {company && <h3>{text.admin.editCompany(company.name)}</h3>}
      <Field label={text.admin.name}>
        {(p) => <input {...p} name="name" required defaultValue={company?.name} />}
      </Field>
      <Field label={text.admin.city}>
        {(p) => <input {...p} name="city" defaultValue={company?.mainCity ?? ''} />}
      </Field>
      <VisibilityField value={company?.visibility} />
      <button type="submit" className="primary" disabled={busy}>
        {company ? text.common.save : text.admin.createCompany}
      </button>
      <ErrorNotice error={error} />
    </form>
  );
}

function VisibilityField({ value }: { value?: Visibility }) {
  return (
    <Field label={text.admin.visibility}>
      {(p) => (
        <select {...p} name="visibility" defaultValue={value ?? 'PUBLIC'}>
          {VISIBILITIES.map((v) => (
            <option key={v} value={v}>
              {text.admin.visibilities[v]}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

function Projects({
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
  reload: () => Promise<unknown>;
}) {
  const { error, status, busy, act } = useAction();
  const [panel, setPanel] = useState<{ id: string; kind: 'edit' | 'rates' }>();
  const seesMoney = viewer.staff.type !== 'STAFF' || viewer.account.staffSeeMoney;
  const opened = projects.find((p) => p.id === panel?.id);
  const toggle = (id: string, kind: 'edit' | 'rates') =>
    setPanel(panel?.id === id && panel.kind === kind ? undefined : { id, kind });
  return (
    <section aria-labelledby="projects-title">
      <h2 id="projects-title">{text.admin.projects}</h2>
      <ProjectForm
        companies={companies}
        people={people}
        seesMoney={seesMoney}
        reload={reload}
        act={act}
        busy={busy}
        error={error}
      />
      <Status message={status} />
      <div className="scroll">
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
      </div>
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
          act={act}
          busy={busy}
          error={error}
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
  act,
  busy,
  error,
}: {
  project?: AdminProjectFragment;
  companies: Company[];
  people: Person[];
  seesMoney: boolean;
  reload: () => Promise<unknown>;
  act: (work: () => Promise<string>) => Promise<boolean>;
  busy: boolean;
  error: ApiError | undefined;
}) {
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
                {nameOf(person)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <button type="submit" className="primary" disabled={busy}>
        {project ? text.common.save : text.admin.createProject}
      </button>
      <ErrorNotice error={error} />
    </form>
  );
}

/** A project's billable rates over time; a new one applies from its date (a past one reprices). */
interface RateHolder {
  /** Whose rates: a project's (billable) or a person's (billable and cost). */
  ref: { project: { id: string } } | { user: { id: string } };
  name: string;
  rates: readonly {
    id: number;
    kind: RateKind;
    cents: number | null;
    effectiveFrom: string | null;
  }[];
  kinds: readonly RateKind[];
}

/** Rates over time; a new one applies from its date on (one set in the past reprices). */
function Rates({
  viewer,
  holder,
  reload,
}: {
  viewer: Viewer;
  holder: RateHolder;
  reload: () => Promise<unknown>;
}) {
  const { error, status, busy, act } = useAction();
  const zone = viewer.staff.timeZone;
  return (
    <section aria-labelledby="rates-title" className="panel">
      <h3 id="rates-title">{text.admin.rateHistory(holder.name)}</h3>
      {holder.rates.length === 0 ? (
        <p>{text.admin.noRates}</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">{text.admin.effectiveFrom}</th>
              <th scope="col">{text.admin.rateKind}</th>
              <th scope="col">{text.admin.hourlyRate}</th>
            </tr>
          </thead>
          <tbody>
            {holder.rates.map((r) => (
              <tr key={r.id}>
                <td>{r.effectiveFrom ? new Date(r.effectiveFrom).toLocaleString() : '—'}</td>
                <td>{text.admin.rateKinds[r.kind]}</td>
                <td>
                  {r.cents !== null
                    ? money(r.cents, viewer.account.currency)
                    : text.admin.rateUnset}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form
        className="inline-form"
        aria-label={text.admin.setRate}
        onSubmit={(event) => {
          const v = formValues(event);
          void act(async () => {
            await run(SetRateDocument, {
              input: {
                ...holder.ref,
                kind: (v.kind as RateKind | undefined) ?? holder.kinds[0]!,
                cents: v.cents === '' ? null : Number(v.cents),
                effectiveFrom: zonedInstant(v.from!, '00:00', zone).toISOString(),
              },
            });
            await reload();
            return text.admin.updated(holder.name);
          });
        }}
      >
        {holder.kinds.length > 1 && (
          <Field label={text.admin.rateKind}>
            {(p) => (
              <select {...p} name="kind">
                {holder.kinds.map((k) => (
                  <option key={k} value={k}>
                    {text.admin.rateKinds[k]}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        <Field label={text.admin.effectiveFrom}>
          {(p) => <input {...p} name="from" type="date" required defaultValue={today(zone)} />}
        </Field>
        <Field label={text.admin.cents} hint={text.admin.centsHint}>
          {(p) => <input {...p} name="cents" type="number" min={0} step={1} />}
        </Field>
        <button type="submit" disabled={busy}>
          {text.admin.setRate}
        </button>
        <ErrorNotice error={error} />
      </form>
      <Status message={status} />
    </section>
  );
}

function Staff({
  viewer,
  people,
  reload,
}: {
  viewer: Viewer;
  people: Person[];
  reload: () => Promise<unknown>;
}) {
  const { error, status, busy, act } = useAction();
  const [ratesOf, setRatesOf] = useState<string>();
  const opened = people.find((p) => p.id === ratesOf);
  const types =
    viewer.staff.type === 'OWNER' ? (['STAFF', 'MANAGER'] as const) : (['STAFF'] as const);
  return (
    <section aria-labelledby="staff-title">
      <h2 id="staff-title">{text.admin.staff}</h2>
      <form
        className="inline-form"
        onSubmit={(event) => {
          const form = event.currentTarget;
          const v = formValues(event);
          void act(async () => {
            const { createStaff } = await run(CreateStaffDocument, {
              input: {
                login: v.login!,
                password: v.password!,
                firstName: v.firstName || undefined,
                lastName: v.lastName || undefined,
                emailAddress: v.email || undefined,
                type: v.type as 'STAFF' | 'MANAGER',
                timeZone: v.timeZone || viewer.staff.timeZone,
              },
            });
            form.reset();
            await reload();
            return text.admin.created(nameOf(createStaff.staff));
          });
        }}
      >
        <Field label={text.admin.login}>
          {(p) => <input {...p} name="login" required autoComplete="off" />}
        </Field>
        <Field label={text.admin.password}>
          {(p) => (
            <input
              {...p}
              name="password"
              type="password"
              required
              minLength={8}
              autoComplete="new-password"
            />
          )}
        </Field>
        <Field label={text.admin.firstName}>{(p) => <input {...p} name="firstName" />}</Field>
        <Field label={text.admin.lastName}>{(p) => <input {...p} name="lastName" />}</Field>
        <Field label={text.admin.email}>{(p) => <input {...p} name="email" type="email" />}</Field>
        <Field label={text.admin.type}>
          {(p) => (
            <select {...p} name="type" defaultValue="STAFF">
              {types.map((t) => (
                <option key={t} value={t}>
                  {text.admin.types[t]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={text.admin.timeZone}>
          {(p) => <input {...p} name="timeZone" placeholder={viewer.staff.timeZone} />}
        </Field>
        <button type="submit" className="primary" disabled={busy}>
          {text.admin.createStaff}
        </button>
        <ErrorNotice error={error} />
      </form>
      <Status message={status} />
      <table>
        <caption className="visually-hidden">{text.admin.staff}</caption>
        <thead>
          <tr>
            <th scope="col">{text.admin.name}</th>
            <th scope="col">{text.admin.login}</th>
            <th scope="col">{text.admin.type}</th>
            <th scope="col">{text.admin.timeZone}</th>
            <th scope="col">{text.admin.actions}</th>
          </tr>
        </thead>
        <tbody>
          {people.map((p) => (
            <tr key={p.id} className={p.active ? undefined : 'inactive'}>
              <th scope="row">
                {nameOf(p)}
                {!p.active && <small> ({text.admin.disabled})</small>}
              </th>
              <td>{p.login}</td>
              <td>{text.admin.types[p.type as keyof typeof text.admin.types]}</td>
              <td>{p.timeZone}</td>
              <td className="actions">
                <button
                  type="button"
                  aria-expanded={ratesOf === p.id}
                  aria-label={`${text.admin.rates}: ${nameOf(p)}`}
                  onClick={() => setRatesOf(ratesOf === p.id ? undefined : p.id)}
                >
                  {text.admin.rates}
                </button>
                {p.type !== 'OWNER' && p.id !== viewer.staff.id && (
                  <button
                    type="button"
                    disabled={busy}
                    aria-label={`${p.active ? text.admin.disable : text.admin.enable}: ${nameOf(p)}`}
                    onClick={() =>
                      void act(async () => {
                        const input = { staff: { id: p.id } };
                        if (p.active) await run(DisableStaffDocument, { input });
                        else await run(EnableStaffDocument, { input });
                        await reload();
                        return text.admin.updated(nameOf(p));
                      })
                    }
                  >
                    {p.active ? text.admin.disable : text.admin.enable}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {opened && (
        <Rates
          key={opened.id}
          viewer={viewer}
          holder={{
            ref: { user: { id: opened.id } },
            name: nameOf(opened),
            rates: opened.rates,
            kinds: ['BILLABLE', 'COST'],
          }}
          reload={reload}
        />
      )}
    </section>
  );
}
