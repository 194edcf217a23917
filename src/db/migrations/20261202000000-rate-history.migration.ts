import { Migration } from '@mikro-orm/migrations';

/**
 * Rates as of when the work was done (issue 23, item 1).
 *
 * `rates` holds the history: billable rates per project and per user, cost rates per user, each
 * in force from `effective_from` until the next. Every shift carries the rates in force at its
 * start (`billable_rate_cents`: the project's, else the user's; `cost_rate_cents`: the user's),
 * set by the database whenever a shift is written or a rate of its project or user changes, so a
 * report prices a year of shifts without a lookup per shift, and changing a rate never rewrites
 * the past.
 *
 * The current rates (`projects.hourly_rate_cents`, `users.hourly_rate_cents`, the new
 * `users.cost_rate_cents`) stay what the interfaces read and write: a change of one is recorded
 * as a rate in force from the changing transaction's instant; a project or user created with a
 * rate has it since always. Accounts get their ISO 4217 `currency`.
 */
export class RateHistoryMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table accounts add column currency char(3) not null default 'USD' check (currency ~ '^[A-Z]{3}$');`,
    );
    this.addSql(
      `alter table users add column cost_rate_cents integer check (cost_rate_cents >= 0);`,
    );
    this.addSql(`
      create table rates (
        id serial primary key,
        account_id integer not null references accounts (id) on delete cascade,
        project_id integer references projects (id) on delete cascade,
        user_id integer references users (id) on delete cascade,
        kind varchar(8) not null check (kind in ('billable', 'cost')),
        cents integer check (cents >= 0),
        effective_from timestamptz not null,
        created_at timestamptz not null default now(),
        check ((project_id is null) <> (user_id is null)),
        check (kind = 'billable' or project_id is null)
      );`);
    this.addSql(
      `create unique index rates_project_from_idx on rates (project_id, effective_from) where project_id is not null;`,
    );
    this.addSql(
      `create unique index rates_user_from_idx on rates (user_id, kind, effective_from) where user_id is not null;`,
    );
    this.addSql(
      `alter table shifts add column billable_rate_cents integer, add column cost_rate_cents integer;`,
    );

    // The rates in force at a shift's start, whenever its start, project or user is written.
    this.addSql(`
      create function shift_price() returns trigger language plpgsql as $$
      begin
        new.billable_rate_cents := coalesce(
          (select cents from rates where project_id = new.project_id and effective_from <= new.start
            order by effective_from desc limit 1),
          (select cents from rates where user_id = new.user_id and kind = 'billable' and effective_from <= new.start
            order by effective_from desc limit 1));
        new.cost_rate_cents := (select cents from rates where user_id = new.user_id and kind = 'cost' and effective_from <= new.start
          order by effective_from desc limit 1);
        return new;
      end $$;`);
    this.addSql(`
      create trigger shifts_price before insert or update of start, project_id, user_id on shifts
        for each row execute function shift_price();`);

    // A rate written, changed or removed prices again the shifts it may concern: those of its
    // project or user starting from the earliest instant it touched. Rewriting `start` with itself
    // runs shift_price; that repricing is no change of the shift for sync or for the totals, which
    // a transaction-local flag tells their triggers (any other update of shifts, a cascade's
    // included, still touches them).
    this.addSql(`
      create function rates_reprice() returns trigger language plpgsql as $$
      declare
        changed record;
        since timestamptz;
      begin
        if tg_op = 'DELETE' then
          changed := old;
          -- Deleted with its project or user: so are the shifts.
          if not exists (select 1 from projects where id = old.project_id)
             and not exists (select 1 from users where id = old.user_id) then
            return null;
          end if;
        else
          changed := new;
        end if;
        since := least(changed.effective_from, case when tg_op = 'UPDATE' then old.effective_from end);
        perform set_config('timetrack.repricing', 'on', true);
        if changed.project_id is not null then
          update shifts set start = start where project_id = changed.project_id and start >= since;
        else
          update shifts set start = start where user_id = changed.user_id and start >= since;
        end if;
        perform set_config('timetrack.repricing', 'off', true);
        return null;
      end $$;`);
    this.addSql(`
      create trigger rates_reprice after insert or update or delete on rates
        for each row execute function rates_reprice();`);
    this.addSql(`drop trigger shifts_touch_updated_at on shifts;`);
    this.addSql(`
      create trigger shifts_touch_updated_at before insert or update on shifts
        for each row when (current_setting('timetrack.repricing', true) is distinct from 'on')
        execute function touch_updated_at();`);
    this.addSql(`
      create or replace function shifts_totals_on_update() returns trigger language plpgsql as $$
      begin
        -- A repricing (rates_reprice) moves no time.
        if current_setting('timetrack.repricing', true) = 'on' then return null; end if;
        perform project_totals_add(array_agg(account_id), array_agg(project_id), array_agg(user_id), array_agg(seconds))
           from (select account_id, project_id, user_id, -extract(epoch from (stop - start)) as seconds from old_rows where stop is not null
                 union all
                 select account_id, project_id, user_id, extract(epoch from (stop - start)) from new_rows where stop is not null) changes
         having count(*) > 0;
        return null;
      end $$;`);

    // The current rates of projects and users, recorded as they change.
    this.addSql(`
      create function record_current_rate() returns trigger language plpgsql as $$
      declare
        since timestamptz := case when tg_op = 'INSERT' then '-infinity'::timestamptz else now() end;
      begin
        if tg_table_name = 'projects' then
          if tg_op = 'INSERT' and new.hourly_rate_cents is null then return null; end if;
          if tg_op = 'INSERT' or (new.hourly_rate_cents is distinct from old.hourly_rate_cents and new.hourly_rate_cents is distinct from
             (select cents from rates where project_id = new.id and effective_from <= now() order by effective_from desc limit 1)) then
            insert into rates (account_id, project_id, kind, cents, effective_from)
            values (new.account_id, new.id, 'billable', new.hourly_rate_cents, since)
            on conflict (project_id, effective_from) where project_id is not null do update set cents = excluded.cents;
          end if;
        else
          if (tg_op = 'INSERT' and new.hourly_rate_cents is not null) or (tg_op = 'UPDATE' and new.hourly_rate_cents is distinct from old.hourly_rate_cents and new.hourly_rate_cents is distinct from
             (select cents from rates where user_id = new.id and kind = 'billable' and effective_from <= now() order by effective_from desc limit 1)) then
            insert into rates (account_id, user_id, kind, cents, effective_from)
            values (new.account_id, new.id, 'billable', new.hourly_rate_cents, since)
            on conflict (user_id, kind, effective_from) where user_id is not null do update set cents = excluded.cents;
          end if;
          if (tg_op = 'INSERT' and new.cost_rate_cents is not null) or (tg_op = 'UPDATE' and new.cost_rate_cents is distinct from old.cost_rate_cents and new.cost_rate_cents is distinct from
             (select cents from rates where user_id = new.id and kind = 'cost' and effective_from <= now() order by effective_from desc limit 1)) then
            insert into rates (account_id, user_id, kind, cents, effective_from)
            values (new.account_id, new.id, 'cost', new.cost_rate_cents, since)
            on conflict (user_id, kind, effective_from) where user_id is not null do update set cents = excluded.cents;
          end if;
        end if;
        return null;
      end $$;`);
    this.addSql(`
      create trigger projects_record_rate after insert or update of hourly_rate_cents on projects
        for each row execute function record_current_rate();`);
    this.addSql(`
      create trigger users_record_rate after insert or update of hourly_rate_cents, cost_rate_cents on users
        for each row execute function record_current_rate();`);

    // What there is so far: today's rates since always, and every shift priced by them once, in
    // one update (without touching the shifts for sync or the totals).
    this.addSql(`alter table rates disable trigger rates_reprice;`);
    this.addSql(`
      insert into rates (account_id, project_id, kind, cents, effective_from)
      select account_id, id, 'billable', hourly_rate_cents, '-infinity' from projects where hourly_rate_cents is not null;`);
    this.addSql(`
      insert into rates (account_id, user_id, kind, cents, effective_from)
      select account_id, id, 'billable', hourly_rate_cents, '-infinity' from users where hourly_rate_cents is not null;`);
    this.addSql(`alter table shifts disable trigger shifts_touch_updated_at;`);
    this.addSql(`alter table shifts disable trigger shifts_totals_update;`);
    this.addSql(`
      update shifts s set billable_rate_cents = coalesce(p.hourly_rate_cents, u.hourly_rate_cents)
        from projects p, users u
       where p.id = s.project_id and u.id = s.user_id and coalesce(p.hourly_rate_cents, u.hourly_rate_cents) is not null;`);
    this.addSql(`alter table shifts enable trigger shifts_totals_update;`);
    this.addSql(`alter table shifts enable trigger shifts_touch_updated_at;`);
    this.addSql(`alter table rates enable trigger rates_reprice;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists projects_record_rate on projects;`);
    this.addSql(`drop trigger if exists users_record_rate on users;`);
    this.addSql(`drop trigger if exists rates_reprice on rates;`);
    this.addSql(`drop trigger if exists shifts_price on shifts;`);
    this.addSql(`drop function if exists record_current_rate, rates_reprice, shift_price;`);
    this.addSql(`drop trigger shifts_touch_updated_at on shifts;`);
    this.addSql(`
      create trigger shifts_touch_updated_at before insert or update on shifts
        for each row execute function touch_updated_at();`);
    this.addSql(`alter table shifts drop column billable_rate_cents, drop column cost_rate_cents;`);
    this.addSql(`drop table if exists rates;`);
    this.addSql(`alter table users drop column cost_rate_cents;`);
    this.addSql(`alter table accounts drop column currency;`);
  }
}
