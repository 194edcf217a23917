import { useState } from 'react';
import type { Viewer } from '../viewer';
import { run } from '../api/client';
import { CreateStaffDocument, DisableStaffDocument, EnableStaffDocument } from '../api/generated';
import { personName, text } from '../text';
import { ErrorNotice, Field, Status, useAction } from '../ui';
import { formValues, type Person, type Reload } from './admin-forms';
import { Rates } from './admin-rates';

/** The account's people: added, enabled and disabled, their billable and cost rates. */
export function Staff({
  viewer,
  people,
  reload,
}: {
  viewer: Viewer;
  people: Person[];
  reload: Reload;
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
            return text.admin.created(personName(createStaff.staff));
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
                {personName(p)}
                {!p.active && <small> ({text.admin.disabled})</small>}
              </th>
              <td>{p.login}</td>
              <td>{text.admin.types[p.type as keyof typeof text.admin.types]}</td>
              <td>{p.timeZone}</td>
              <td className="actions">
                <button
                  type="button"
                  aria-expanded={ratesOf === p.id}
                  aria-label={`${text.admin.rates}: ${personName(p)}`}
                  onClick={() => setRatesOf(ratesOf === p.id ? undefined : p.id)}
                >
                  {text.admin.rates}
                </button>
                {p.type !== 'OWNER' && p.id !== viewer.staff.id && (
                  <button
                    type="button"
                    disabled={busy}
                    aria-label={`${p.active ? text.admin.disable : text.admin.enable}: ${personName(p)}`}
                    onClick={() =>
                      void act(async () => {
                        const input = { staff: { id: p.id } };
                        if (p.active) await run(DisableStaffDocument, { input });
                        else await run(EnableStaffDocument, { input });
                        await reload();
                        return text.admin.updated(personName(p));
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
            name: personName(opened),
            rates: opened.rates,
            kinds: ['BILLABLE', 'COST'],
          }}
          reload={reload}
        />
      )}
    </section>
  );
}
