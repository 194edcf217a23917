import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 38: the row-level triggers written so that Citus can run them on a worker, beside the row,
 * with the same behaviour on a single server. Tried on a Citus 13.2 cluster with the tenant tables
 * distributed (docs/scaling.md, "Tested on the cluster"), three things failed there:
 *
 * - A trigger that picks its branch by `tg_table_name` sees the shard's name (`projects_102008`) on
 *   a worker: `touch_listed_parent` now takes the table's kind as its trigger argument
 *   (`record_current_rate` goes: migration 20261216000000-current-rates-recorded-by-writes).
 * - A query that reads or writes a distributed table without the row's account is a distributed
 *   query from a shard, which Citus refuses; with `account_id = <the row's account>` it is a router
 *   query to the worker's own shard. Every lookup and write of these functions names the account:
 *   the rate history (`shift_price`, `rates_reprice`), the listed parent,
 *   the tombstone listing.
 * - Citus cannot plan an SQL-language function with parameters on a worker:
 *   `tombstone_listing` is PL/pgSQL, and takes the account.
 */
export class ShardLocalRowTriggersMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop function tombstone_listing(text, integer);`);
    // What a deleted object's listing was (who could see it), for the sync's tombstones: a project
    // or company as it is now, or as its own tombstone recorded it (deleted earlier in the same
    // cascade).
    this.addSql(`
      create function tombstone_listing(kind text, account integer, row_id integer) returns jsonb
      language plpgsql stable as $$
      begin
        return coalesce(
          (select jsonb_build_object('id', p.id, 'visibility', p.visibility, 'createdBy', p.created_by_id,
                  'memberIds', coalesce((select jsonb_agg(m.user_id) from project_members m
                                          where m.account_id = account and m.project_id = p.id), '[]'::jsonb))
             from projects p where kind = 'Project' and p.account_id = account and p.id = row_id),
          (select jsonb_build_object('id', c.id, 'visibility', c.visibility, 'createdBy', c.created_by_id,
                  'memberIds', coalesce((select jsonb_agg(m.user_id) from company_members m
                                          where m.account_id = account and m.company_id = c.id), '[]'::jsonb))
             from companies c where kind = 'Company' and c.account_id = account and c.id = row_id),
          (select t.listed from tombstones t
            where t.account_id = account and t.typename = kind and t.legacy_id = row_id
            order by t.id desc limit 1));
      end $$;`);
    this.addSql(`
      create or replace function record_tombstone() returns trigger language plpgsql as $$
      declare
        owner integer;
        listing jsonb;
      begin
        case tg_argv[0]
          when 'Shift' then owner := old.user_id; listing := tombstone_listing('Project', old.account_id, old.project_id);
          when 'Activity' then listing := tombstone_listing('Project', old.account_id, old.project_id);
          when 'Project' then listing := tombstone_listing('Project', old.account_id, old.id);
          when 'Company' then listing := tombstone_listing('Company', old.account_id, old.id);
          else owner := old.id;
        end case;
        insert into tombstones (account_id, typename, uuid, legacy_id, user_id, listed)
          values (old.account_id, tg_argv[0], old.uuid, old.id, owner, listing);
        return old;
      end $$;`);

    this.addSql(`
      create or replace function touch_listed_parent() returns trigger language plpgsql as $$
      declare
        member record;
      begin
        if tg_op = 'DELETE' then member := old; else member := new; end if;
        if tg_argv[0] = 'project' then
          update projects set updated_at = date_trunc('milliseconds', now())
           where account_id = member.account_id and id = member.project_id;
        else
          update companies set updated_at = date_trunc('milliseconds', now())
           where account_id = member.account_id and id = member.company_id;
        end if;
        return null;
      end $$;`);
    for (const parent of ['company', 'project']) {
      this.addSql(`drop trigger ${parent}_members_touch_parent on ${parent}_members;`);
      this.addSql(`
        create trigger ${parent}_members_touch_parent after insert or delete on ${parent}_members
          for each row execute function touch_listed_parent('${parent}');`);
    }

    this.addSql(`
      create or replace function shift_price() returns trigger language plpgsql as $$
      begin
        new.billable_rate_cents := coalesce(
          (select cents from rates where account_id = new.account_id and project_id = new.project_id
              and effective_from <= new.start order by effective_from desc limit 1),
          (select cents from rates where account_id = new.account_id and user_id = new.user_id
              and kind = 'billable' and effective_from <= new.start order by effective_from desc limit 1));
        new.cost_rate_cents := (select cents from rates where account_id = new.account_id and user_id = new.user_id
            and kind = 'cost' and effective_from <= new.start order by effective_from desc limit 1);
        return new;
      end $$;`);

    this.addSql(`
      create or replace function rates_reprice() returns trigger language plpgsql as $$
      declare
        changed record;
        since timestamptz;
      begin
        if tg_op = 'DELETE' then
          changed := old;
          -- Deleted with its project or user: so are the shifts.
          if not exists (select 1 from projects where account_id = old.account_id and id = old.project_id)
             and not exists (select 1 from users where account_id = old.account_id and id = old.user_id) then
            return null;
          end if;
        else
          changed := new;
        end if;
        since := least(changed.effective_from, case when tg_op = 'UPDATE' then old.effective_from end);
        perform set_config('timetrack.repricing', 'on', true);
        if changed.project_id is not null then
          update shifts set start = start
           where account_id = changed.account_id and project_id = changed.project_id and start >= since;
        else
          update shifts set start = start
           where account_id = changed.account_id and user_id = changed.user_id and start >= since;
        end if;
        perform set_config('timetrack.repricing', 'off', true);
        return null;
      end $$;`);
  }

  override async down(): Promise<void> {
    // The earlier bodies come back only from the migrations that wrote them.
    throw new Error(
      '20261214000000-shard-local-row-triggers cannot be undone: restore a backup taken before it',
    );
  }
}
