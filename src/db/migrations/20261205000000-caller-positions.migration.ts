import { Migration } from '@mikro-orm/migrations';

/**
 * Read-your-writes across read replicas (issue 24): the primary's WAL position each user has seen
 * (after their last write, or a sync watermark read), so that their reads go only to a replica that
 * has replayed at least that far. A table, not process memory: the caller's next request may be
 * served by another process. Keyed by account first, like every tenant table (docs/scaling.md).
 */
export class CallerPositionsMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table caller_positions (
        account_id integer not null,
        user_id integer not null,
        seen_lsn pg_lsn not null,
        primary key (account_id, user_id),
        foreign key (account_id, user_id) references users (account_id, id) on delete cascade
      );`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table caller_positions;`);
  }
}
