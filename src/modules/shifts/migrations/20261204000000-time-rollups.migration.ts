import { Migration } from '@mikro-orm/migrations';

/** The rollups: their table, and the shifts column each one is kept per. */
const ROLLUPS = [
  { table: 'project_time_rollups', key: 'project_id', parent: 'projects' },
  { table: 'user_time_rollups', key: 'user_id', parent: 'users' },
] as const;

/** What a report reads of the shifts at a period's edge (reports module, rollupSums). */
const EDGE_COLUMNS = 'stop, project_id, user_id, billable, billable_rate_cents, cost_rate_cents';

/**
 * Time rollups for reports (issue 23, item 4): the time, billable time, amount and cost of every
 * stopped shift, summed per project and per user over each UTC day and each UTC month, so that a
 * report of a year reads a few thousand sums instead of every shift. Reports (reports module)
 * add the few hours between a period's local midnight and the nearest UTC midnight from the
 * shifts themselves, which keeps every zone exact (India's +05:30 and Nepal's +05:45 too).
 *
 * - Money is kept unrounded: seconds × cents per hour (÷ 3600 at read time), at the rates each
 *   shift carries, so a rollup adds up to exactly what the shifts add up to.
 * - Statement-level triggers with transition tables keep them for every write path, bulk ones
 *   and repricings (rates_reprice) included; running shifts are not in them (their end moves) and
 *   are read from the shifts.
 * - Writers add to the rows in one order (table, then period and key), so two transactions never
 *   wait on each other's rows in a cycle. That order also lays the rows of a period side by side,
 *   as a report reads them (a year's 4,800 month rows from a few dozen pages, not 4,800), and
 *   room left in each page (fillfactor) lets an update stay in its page.
 * - Keyed by account first, as every tenant table is to be (docs/scaling.md).
 * - The first fill adds every stopped shift so far in one statement.
 */
export class TimeRollupsMigration extends Migration {
  override async up(): Promise<void> {
    for (const { table, key, parent } of ROLLUPS) {
      this.addSql(`
        create table ${table} (
          account_id integer not null,
          ${key} integer not null,
          grain text not null check (grain in ('day', 'month')),
          period_start date not null,
          seconds numeric not null,
          billable_seconds numeric not null,
          amount_cent_seconds numeric not null,
          cost_cent_seconds numeric not null,
          primary key (account_id, ${key}, grain, period_start),
          foreign key (account_id, ${key}) references ${parent} (account_id, id) on delete cascade
        ) with (fillfactor = 70);`);
      this.addSql(
        `create index ${table}_period_idx on ${table} (account_id, grain, period_start);`,
      );
    }
    // The stopped shifts a window of hours overlaps, found by start: those of 24 hours or less
    // start at most 24 hours before the window, and the account's index by start now carries what a
    // report needs of them, so that finding and summing them reads the index alone; the few
    // longer ones have an index of their own.
    this.addSql(`drop index shifts_account_start_idx;`);
    this.addSql(
      `create index shifts_account_start_idx on shifts (account_id, start) include (${EDGE_COLUMNS});`,
    );
    this.addSql(
      `create index shifts_long_start_idx on shifts (account_id, start) where stop - start > interval '24 hours';`,
    );

    // Adds signed shifts (sign -1 takes one away) to both rollups: each shift in pieces, one per
    // UTC day it covers. Shifts of a project or user being deleted are skipped: the cascade
    // removes their rollups anyway.
    const upsert = ({ table, key, parent }: (typeof ROLLUPS)[number], grain: string) => `
        insert into ${table} as t (account_id, ${key}, grain, period_start, seconds, billable_seconds, amount_cent_seconds, cost_cent_seconds)
        select x.account_id, x.${key}, '${grain}', date_trunc('${grain}', x.day)::date,
               sum(x.seconds), coalesce(sum(x.seconds) filter (where x.billable), 0), coalesce(sum(x.seconds * x.rate) filter (where x.billable), 0),
               coalesce(sum(x.seconds * x.cost_rate), 0)
          from pieces x join ${parent} k on k.id = x.${key}
         group by 1, 2, 3, 4
         order by 4, 2
        on conflict (account_id, ${key}, grain, period_start) do update set
          seconds = t.seconds + excluded.seconds,
          billable_seconds = t.billable_seconds + excluded.billable_seconds,
          amount_cent_seconds = t.amount_cent_seconds + excluded.amount_cent_seconds,
          cost_cent_seconds = t.cost_cent_seconds + excluded.cost_cent_seconds`;
    this.addSql(`
      create function time_rollups_add(account integer[], project integer[], member integer[], starts timestamptz[], stops timestamptz[], billable boolean[], rate integer[], cost_rate integer[], sign integer[]) returns void
      language sql as $$
        with pieces as materialized (
          select c.account_id, c.project_id, c.user_id, c.billable, c.rate, c.cost_rate, d.day,
                 c.sign * extract(epoch from least(c.stop, (d.day + interval '1 day') at time zone 'UTC') - greatest(c.start, d.day at time zone 'UTC')) as seconds
            from unnest(account, project, member, starts, stops, billable, rate, cost_rate, sign)
                   as c(account_id, project_id, user_id, start, stop, billable, rate, cost_rate, sign)
           cross join lateral generate_series(date_trunc('day', c.start at time zone 'UTC'), c.stop at time zone 'UTC', interval '1 day') d(day)
           where (d.day at time zone 'UTC') < c.stop),
        ${ROLLUPS.flatMap((rollup) => ['day', 'month'].map((grain) => `${rollup.table}_${grain} as (${upsert(rollup, grain)})`)).join(',\n')}
        select
      $$;`);
    const add = (rows: string) => `
        perform time_rollups_add(array_agg(account_id), array_agg(project_id), array_agg(user_id), array_agg(start), array_agg(stop),
                                 array_agg(billable), array_agg(billable_rate_cents), array_agg(cost_rate_cents), array_agg(sign))
           from (${rows}) changes having count(*) > 0;`;
    const signed = (rows: string, sign: number) =>
      `select account_id, project_id, user_id, start, stop, billable, billable_rate_cents, cost_rate_cents, ${sign} as sign from ${rows} where stop is not null`;
    this.addSql(`
      create function shifts_rollups_on_insert() returns trigger language plpgsql as $$
      begin ${add(signed('new_rows', 1))}
        return null;
      end $$;`);
    this.addSql(`
      create function shifts_rollups_on_delete() returns trigger language plpgsql as $$
      begin ${add(signed('old_rows', -1))}
        return null;
      end $$;`);
    // Only the shifts whose time, keys or prices changed (not, say, their notes): out as they
    // were, in as they are.
    this.addSql(`
      create function shifts_rollups_on_update() returns trigger language plpgsql as $$
      begin ${add(`
          with changed as (
            select o.id from old_rows o join new_rows n using (id)
             where (o.project_id, o.user_id, o.start, o.stop, o.billable, o.billable_rate_cents, o.cost_rate_cents)
                   is distinct from (n.project_id, n.user_id, n.start, n.stop, n.billable, n.billable_rate_cents, n.cost_rate_cents))
          ${signed('old_rows', -1)} and id in (select id from changed)
          union all
          ${signed('new_rows', 1)} and id in (select id from changed)`)}
        return null;
      end $$;`);
    for (const op of ['insert', 'delete', 'update']) {
      const tables =
        op === 'insert'
          ? 'new table as new_rows'
          : op === 'delete'
            ? 'old table as old_rows'
            : 'old table as old_rows new table as new_rows';
      this.addSql(
        `create trigger shifts_rollups_${op} after ${op} on shifts referencing ${tables} for each statement execute function shifts_rollups_on_${op}();`,
      );
    }

    // Every stopped shift so far.
    this.addSql(`
      select time_rollups_add(array_agg(account_id), array_agg(project_id), array_agg(user_id), array_agg(start), array_agg(stop),
                              array_agg(billable), array_agg(billable_rate_cents), array_agg(cost_rate_cents), array_agg(1))
        from shifts where stop is not null having count(*) > 0;`);
    // The planner's statistics at once, not at autovacuum's next round.
    this.addSql(`analyze ${ROLLUPS.map(({ table }) => table).join(', ')};`);
  }

  override async down(): Promise<void> {
    for (const op of ['insert', 'delete', 'update'])
      this.addSql(`drop trigger if exists shifts_rollups_${op} on shifts;`);
    this.addSql(
      `drop function if exists shifts_rollups_on_insert, shifts_rollups_on_delete, shifts_rollups_on_update, time_rollups_add;`,
    );
    this.addSql(`drop index if exists shifts_long_start_idx;`);
    this.addSql(`drop index shifts_account_start_idx;`);
    this.addSql(`create index shifts_account_start_idx on shifts (account_id, start);`);
    for (const { table } of ROLLUPS) this.addSql(`drop table if exists ${table};`);
  }
}
