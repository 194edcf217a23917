import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 38: a project's or user's current rate is recorded in its history by the write that
 * changes it (the project and staff services, through `recordCurrentRate` of the writes module),
 * no longer by a trigger on the row. On Citus the trigger runs on the worker, which cannot draw the
 * entry's id from an integer sequence (`nextval(sequence) calls in worker nodes are not supported
 * for column defaults of type int or smallint`), and the ids are GraphQL `Int`s (`deleteRate`), so
 * a wider id drawn per worker (from 2^48) is no answer. The services are every road to these
 * columns that records history (docs/reports.md, "Rates over time"); the current-rate clock and
 * `setRate` set them to what the history already gives.
 */
export class CurrentRatesRecordedByWritesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop trigger projects_record_rate on projects;`);
    this.addSql(`drop trigger users_record_rate on users;`);
    this.addSql(`drop function record_current_rate();`);
  }

  override async down(): Promise<void> {
    throw new Error(
      '20261216000000-current-rates-recorded-by-writes cannot be undone: restore a backup taken before it',
    );
  }
}
