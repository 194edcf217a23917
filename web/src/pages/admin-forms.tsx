import { useState, type FormEvent } from 'react';
import type { ApiError } from '../api/client';
import type { AdminCompanyFragment, StaffFieldsFragment, Visibility } from '../api/generated';
import { asApiError } from '../api/use-api';
import { text } from '../text';
import { Field } from '../ui';

/** What the admin forms share: the lists' rows, one action's state, a form's values. */

export type Company = AdminCompanyFragment;
export type Person = StaffFieldsFragment;
/** Reads the lists again after a change. */
export type Reload = () => Promise<unknown>;

const VISIBILITIES: Visibility[] = ['PUBLIC', 'PRIVATE', 'CUSTOM'];

/** One action of a form: runs it, shows its refusal in place, announces its success. */
export function useAction() {
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
