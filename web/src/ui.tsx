import { useId, useState, type ReactNode } from 'react';
import type { ApiError } from './api/client';
import { asApiError } from './api/use-api';
import { text } from './text';

/** A refusal shown where it belongs: what it means for the person, the API's words, its fields. */
export function ErrorNotice({ error }: { error: ApiError | undefined }) {
  if (!error) return null;
  const meaning = error.code ? text.errors[error.code] : undefined;
  return (
    <div role="alert" className="error">
      {meaning && <p>{meaning}</p>}
      <p>{error.code ? error.message : text.common.error(error.message)}</p>
      {error.fieldErrors.length > 0 && (
        <ul>
          {error.fieldErrors.map((f) => (
            <li key={f.field}>
              <strong>{f.field}</strong>: {f.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** A labelled control; the hint is read with it (aria-describedby). */
export function Field({
  label,
  hint,
  children,
}: {
  label: string;
  hint?: string;
  children: (props: { id: string; 'aria-describedby'?: string }) => ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({ id, ...(hint ? { 'aria-describedby': hintId } : {}) })}
      {hint && (
        <small id={hintId} className="hint">
          {hint}
        </small>
      )}
    </div>
  );
}

/** Polite announcements for screen readers (and a visible line), such as "Punched in to X". */
export function Status({ message }: { message: string }) {
  return (
    <p role="status" aria-live="polite" className="status">
      {message}
    </p>
  );
}

export function Loading() {
  return <p aria-busy="true">{text.common.loading}</p>;
}

/**
 * A box that scrolls a wide table sideways on a narrow screen. It can be focused, so that a
 * keyboard can scroll it too, and is named for what it holds.
 */
export function Scroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="scroll" tabIndex={0} role="region" aria-label={text.common.tableOf(label)}>
      {children}
    </div>
  );
}

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
  /** Takes a shown refusal away (its form closed or opened anew). */
  const dismiss = () => setError(undefined);
  return { error, status, busy, act, dismiss };
}
