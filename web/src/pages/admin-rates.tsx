import { useId } from 'react';
import type { Viewer } from '../viewer';
import { run } from '../api/client';
import { SetRateDocument, type RateKind } from '../api/generated';
import { text } from '../text';
import { money, today, wallClock, zonedInstant } from '../time';
import { ErrorNotice, Field, Status, useAction } from '../ui';
import { formValues, type Reload } from './admin-forms';

export interface RateHolder {
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
export function Rates({
  viewer,
  holder,
  reload,
}: {
  viewer: Viewer;
  holder: RateHolder;
  reload: Reload;
}) {
  const { error, status, busy, act } = useAction();
  const titleId = useId();
  const zone = viewer.staff.timeZone;
  return (
    <section aria-labelledby={titleId} className="panel">
      <h3 id={titleId}>{text.admin.rateHistory(holder.name)}</h3>
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
                <td>{r.effectiveFrom ? dateAndTime(r.effectiveFrom, zone) : '—'}</td>
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

/** An instant as the viewer's wall date and time (the zone they entered it in). */
function dateAndTime(instant: string, zone: string): string {
  const { date, time } = wallClock(instant, zone);
  return `${date} ${time}`;
}
