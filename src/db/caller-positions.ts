import type { Knex } from '@mikro-orm/postgresql';
import { parseLsn } from './read-replicas';

/**
 * Read-your-writes across replicas: the primary's WAL position each user has seen (the
 * caller_positions migration). It is recorded after the caller's write has committed, so it lies
 * at or after the write's commit: a replica that has replayed it has the write.
 */
export async function recordCallerPosition(
  primary: Knex,
  accountId: number,
  userId: number,
): Promise<void> {
  // greatest(): of two requests of one user, the later-recorded may have read the earlier position.
  await primary.raw(
    `insert into caller_positions (account_id, user_id, seen_lsn)
     values (?, ?, pg_current_wal_lsn())
     on conflict (account_id, user_id)
     do update set seen_lsn = greatest(caller_positions.seen_lsn, excluded.seen_lsn)`,
    [accountId, userId],
  );
}

/** The caller's position, read on the primary; undefined when they have written nothing yet. */
export async function callerPosition(
  primary: Knex,
  accountId: number,
  userId: number,
): Promise<bigint | undefined> {
  const { rows } = await primary.raw<{ rows: { lsn: string }[] }>(
    'select seen_lsn::text as lsn from caller_positions where account_id = ? and user_id = ?',
    [accountId, userId],
  );
  return rows[0] ? parseLsn(rows[0].lsn) : undefined;
}
