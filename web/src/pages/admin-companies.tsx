import { useState } from 'react';
import { run } from '../api/client';
import { CreateCompanyDocument, UpdateCompanyDocument, type Visibility } from '../api/generated';
import { text } from '../text';
import { ErrorNotice, Field, Status, useAction } from '../ui';
import { formValues, VisibilityField, type Company, type Reload } from './admin-forms';

/** The account's companies: created and edited (name, city, visibility). */
export function Companies({ companies, reload }: { companies: Company[]; reload: Reload }) {
  const [editing, setEditing] = useState<string>();
  const opened = companies.find((c) => c.id === editing);
  return (
    <section aria-labelledby="companies-title">
      <h2 id="companies-title">{text.admin.companies}</h2>
      <CompanyForm reload={reload} />
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
      {opened && <CompanyForm key={opened.id} company={opened} reload={reload} />}
    </section>
  );
}

/** A new company, or the changes of one. */
function CompanyForm({ company, reload }: { company?: Company; reload: Reload }) {
  // Its own: a refusal shows in this form, not in every form of the section.
  const { act, busy, error, status } = useAction();
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
      <Status message={status} />
    </form>
  );
}
