import type { RequestContext } from '../../core/request-context';

/** Whose history a rate entry is in: a project's (billable only) or a user's (billable and cost). */
export interface RateOwner {
  readonly column: 'project_id' | 'user_id';
  readonly accountId: number;
  readonly id: number;
}

/**
 * The conflict clause of an insert into `rates`: an entry from the same instant of the same
 * history is replaced (the partial unique indexes `rates_project_from_idx`, `rates_user_from_idx`).
 */
export function rateEntryConflict(column: RateOwner['column']): string {
  return `on conflict (${column}, ${column === 'user_id' ? 'kind, ' : ''}effective_from, account_id) where ${column} is not null
          do update set cents = excluded.cents`;
}

/**
 * Records a project's or user's current rate in its history as a write changes it, in the write's
 * transaction (docs/reports.md, "Rates over time"): a row created with a rate has it since always;
 * a changed rate is in force from now, unless the history already gives it now. The project and
 * staff services call it after their flush, for each rate column the write changed.
 *
 * The write does it, not a trigger on the row: on Citus the trigger would run on the worker, which
 * cannot draw the entry's integer id from its sequence (docs/scaling.md, section 7). For the same
 * reason the entry is inserted from VALUES, whose default id the coordinator draws, after a read
 * of the history, not by an INSERT … SELECT, which Citus sends whole to the worker. The write's
 * own row lock (the project or user it updated) keeps another write of the rate from between them.
 */
export async function recordCurrentRate(
  tx: RequestContext,
  owner: RateOwner,
  kind: 'billable' | 'cost',
  cents: number | null,
  created: boolean,
): Promise<void> {
  // A row created without a rate has no history to start: no statement at all.
  if (created && cents === null) return;
  const { column, accountId, id } = owner;
  const connection = tx.em.getConnection();
  const transaction = tx.em.getTransactionContext();
  if (!created) {
    const [given] = await connection.execute<{ cents: number | null }[]>(
      `select cents from rates where account_id = ? and ${column} = ? and kind = ?
          and effective_from <= now() order by effective_from desc limit 1`,
      [accountId, id, kind],
      'all',
      transaction,
    );
    if ((given?.cents ?? null) === cents) return;
  }
  await connection.execute(
    `insert into rates (account_id, ${column}, kind, cents, effective_from)
     values (?, ?, ?, ?::integer, ${created ? `'-infinity'` : 'now()'})
     ${rateEntryConflict(column)}`,
    [accountId, id, kind, cents],
    'run',
    transaction,
  );
}
