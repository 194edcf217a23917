import type { Knex } from '@mikro-orm/postgresql';
import { parseLsn } from './read-replicas';

/**
 * Read-your-writes across replicas: the primary's WAL position each user has seen (the
 * caller_positions migration). It is the insert position, taken after the caller's write has
 * committed, so it lies at or after the write's commit record even under asynchronous commit: a
 * replica that has replayed it has the write.
 */
export async function recordCallerPosition(
  primary: Knex,
  accountId: number,
  userId: number,
): Promise<void> {
  // greatest(): of two requests of one user, the later-recorded may have read the earlier position.
  await primary.raw(
    `insert into caller_positions (account_id, user_id, seen_lsn)
     values (?, ?, pg_current_wal_insert_lsn())
     on conflict (account_id, user_id)
     do update set seen_lsn = greatest(caller_positions.seen_lsn, excluded.seen_lsn)`,
    [accountId, userId],
  );
}

/**
 * The caller's position, read on the primary. A user with none yet (one whose first request this
 * is, made by the CLI or by an owner moments ago) gets the primary's position now, recorded once:
 * their own row, and whatever was written for them before, is then on any replica they read.
 */
export async function callerPosition(
  primary: Knex,
  accountId: number,
  userId: number,
): Promise<bigint> {
  const { rows } = await primary.raw<{ rows: { lsn: string }[] }>(
    `with found as (
       select seen_lsn from caller_positions where account_id = ? and user_id = ?),
     added as (
       insert into caller_positions (account_id, user_id, seen_lsn)
       select ?, ?, pg_current_wal_insert_lsn() where not exists (select from found)
       on conflict (account_id, user_id) do nothing
       returning seen_lsn)
     select coalesce((select seen_lsn from found), (select seen_lsn from added),
                     pg_current_wal_insert_lsn())::text as lsn`,
    [accountId, userId, accountId, userId],
  );
  return parseLsn(rows[0]!.lsn);
}
