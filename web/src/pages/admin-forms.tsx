import type { FormEvent } from 'react';
import type { AdminCompanyFragment, StaffFieldsFragment, Visibility } from '../api/generated';
import { text } from '../text';
import { Field } from '../ui';

/** What the admin forms share: the lists' rows, a form's values, the visibility field. */

export type Company = AdminCompanyFragment;
export type Person = StaffFieldsFragment;
/** Reads the lists again after a change. */
export type Reload = () => Promise<unknown>;

const VISIBILITIES: Visibility[] = ['PUBLIC', 'PRIVATE', 'CUSTOM'];

/** The form's fields by name, trimmed; also keeps the browser from submitting it. */
export function formValues(event: FormEvent<HTMLFormElement>): Record<string, string> {
  event.preventDefault();
  return Object.fromEntries(
    [...new FormData(event.currentTarget).entries()].map(([k, v]) => [k, String(v).trim()]),
  );
}

/** Who sees a company or project. */
export function VisibilityField({ value }: { value?: Visibility }) {
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
