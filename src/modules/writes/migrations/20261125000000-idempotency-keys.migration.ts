import { Migration } from '@mikro-orm/migrations';

/**
 * Idempotency keys: which record a create or punch sent with an `Idempotency-Key` answered with.
 * A key belongs to the user who sent it; the row is written in the same transaction as the record,
 * so a key is never remembered for a write that did not happen, nor a write done without its key.
 */
export class IdempotencyKeysMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table idempotency_keys (
        account_id integer not null,
        user_id integer not null,
        key varchar(255) not null,
        request_hash char(64) not null,
        entity_id integer,
        created_at timestamptz not null default now(),
        primary key (user_id, key),
        foreign key (account_id, user_id) references users (account_id, id) on delete cascade
      );`);
    this.addSql(`create index idempotency_keys_account_idx on idempotency_keys (account_id);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists idempotency_keys;`);
  }
}
