import { Migration } from '@mikro-orm/migrations';

/**
 * The outbox: messages (today the owner's confirmation e-mail) written in the same transaction as
 * the change that causes them, so a rolled-back change never sends anything and a committed one
 * is never forgotten. A background sender delivers them and records the outcome here.
 */
export class OutboxMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table outbox (
        id serial primary key,
        uuid uuid not null unique default gen_random_uuid(),
        account_id integer not null references accounts (id) on delete cascade,
        kind varchar(32) not null,
        payload jsonb not null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        available_at timestamptz not null default now(),
        attempts integer not null default 0 check (attempts >= 0),
        last_error text,
        sent_at timestamptz
      );`);
    // The sender's only question: which unsent messages are due? Sent rows leave the index.
    this.addSql(`create index outbox_due_idx on outbox (available_at) where sent_at is null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists outbox cascade;`);
  }
}
