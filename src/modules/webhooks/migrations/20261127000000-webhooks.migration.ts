import { Migration } from '@mikro-orm/migrations';

/**
 * Webhooks: URLs an account owner registers for shift events. A delivery is an outbox row of kind
 * `webhook`, written in the transaction of the change, pointing at its webhook (deleting the
 * webhook deletes its pending and past deliveries) and keeping the last HTTP status it got.
 */
export class WebhooksMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table webhooks (
        id serial primary key,
        uuid uuid not null unique default gen_random_uuid(),
        account_id integer not null references accounts (id) on delete cascade,
        url varchar(2048) not null,
        event_kinds text[] not null,
        secret varchar(128) not null,
        active boolean not null default true,
        description varchar(255),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        unique (account_id, id)
      );`);
    this.addSql(`create index webhooks_account_idx on webhooks (account_id) where active;`);
    this.addSql(
      `alter table outbox add column webhook_id integer references webhooks (id) on delete cascade;`,
    );
    this.addSql(`alter table outbox add column last_status integer;`);
    this.addSql(
      `create index outbox_webhook_idx on outbox (webhook_id, id) where webhook_id is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table outbox drop column if exists last_status;`);
    this.addSql(`alter table outbox drop column if exists webhook_id;`);
    this.addSql(`drop table if exists webhooks;`);
  }
}
