import { ValidationError } from '../../core/errors';
import type { RequestContext } from '../../core/request-context';
import type { ConnectionShape } from '../../core/list-shapes';
import type { ListedSnapshot } from '../rule-forms';
import { type PageRequest, pageOfSortedList } from '../paging';
import { isTombstoneVisible, type Tombstone, type TombstonedType } from './tombstone.policy';

interface TombstoneRow {
  id: string;
  typename: TombstonedType;
  uuid: string;
  legacy_id: number;
  deleted_at: Date | string;
  user_id: number | null;
  listed: ListedSnapshot | string | null;
}

/**
 * Incremental sync (docs/sync.md): the watermark an app passes as `since` next time, and the
 * deletions since a point that the caller may learn of.
 */
export class SyncService {
  /**
   * The start of the oldest transaction still in flight on the database, or now: every row
   * change with an `updated_at` (or tombstone with a `deleted_at`) before it has committed, since
   * both are the start of their transaction (the sync migration). Rows committed later by a
   * transaction in flight now carry a time at or after it, so the next sync from it sees them.
   * Only the sessions of the same database and of client backends count (autovacuum's do not
   * write rows). The embedded database serves one session, whose transactions run one at a time.
   */
  async watermark(ctx: RequestContext): Promise<Date> {
    const rows = await ctx.em.getConnection().execute<{ watermark: Date | string }[]>(
      `select date_trunc('milliseconds', least(now(), coalesce(min(xact_start), now()))) as watermark
         from pg_stat_activity
        where datname = current_database() and backend_type = 'client backend'
          and xact_start is not null and pid <> pg_backend_pid()`,
    );
    return new Date(rows[0]!.watermark);
  }

  /**
   * The deletions since `since`, oldest first, of the objects the caller could see when they were
   * deleted. Tombstones are kept TOMBSTONE_RETENTION_DAYS: older ones of the account are purged
   * here, and a `since` before that is refused (the app must read everything again), since the
   * answer could miss deletions.
   */
  async deletions(
    ctx: RequestContext,
    since: Date,
    page: PageRequest,
  ): Promise<ConnectionShape<Tombstone>> {
    const days = ctx.config.tombstoneRetentionDays;
    const connection = ctx.em.getConnection();
    const [{ horizon }] = await connection.execute<{ horizon: Date | string }[]>(
      `select now() - make_interval(days => ?) as horizon`,
      [days],
    );
    if (since.getTime() < new Date(horizon).getTime())
      throw ValidationError.field(
        undefined,
        'since',
        `is older than the ${days} days deletions are kept: read everything again`,
      );
    await connection.execute(`delete from tombstones where account_id = ? and deleted_at < ?`, [
      ctx.viewer.accountId,
      horizon,
    ]);
    const rows = await connection.execute<TombstoneRow[]>(
      `select id, typename, uuid, legacy_id, deleted_at, user_id, listed
         from tombstones where account_id = ? and deleted_at >= ? order by deleted_at, id`,
      [ctx.viewer.accountId, since],
    );
    const visible: Tombstone[] = [];
    for (const row of rows) {
      const tombstone = toTombstone(row);
      if (await isTombstoneVisible(ctx.viewer, tombstone)) visible.push(tombstone);
    }
    // Oldest first, the tombstone's id breaking ties: the keyset of the deletions' cursors.
    return pageOfSortedList(ctx, 'Deletion' as never, visible, DELETION_ORDER, deletionKey, page);
  }
}

const DELETION_ORDER = [
  { path: 'deletedAt', desc: false },
  { path: 'id', desc: false },
];

function deletionKey(tombstone: Tombstone): [string, number] {
  return [tombstone.deletedAt.toISOString(), tombstone.id];
}

function toTombstone(row: TombstoneRow): Tombstone {
  return {
    id: Number(row.id),
    typename: row.typename,
    uuid: row.uuid,
    legacyId: row.legacy_id,
    deletedAt: new Date(row.deleted_at),
    userId: row.user_id,
    listed:
      typeof row.listed === 'string' ? (JSON.parse(row.listed) as ListedSnapshot) : row.listed,
  };
}
