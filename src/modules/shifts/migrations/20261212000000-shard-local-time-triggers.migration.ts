import { Migration } from '@mikro-orm/migrations';

/**
 * The triggers that keep the project totals and time rollups, written so that Citus can run them
 * (issue 38), with the same sums and the same cost on a single server.
 *
 * Citus runs a statement on a distributed table as one task per shard, on the worker that holds
 * it, and fires the statement-level triggers there, once per task, with that shard's rows in the
 * transition tables. A query that reads the transition tables alone runs there. One that feeds a
 * write of a distributed table from them (the set-based bodies: `perform project_totals_add(…)
 * from new_rows`, whose `insert … select from unnest(…)` is a distributed query) fails: "executor
 * could not find named tuplestore", or "cannot execute a distributed query from a query on a
 * shard". An insert whose account is a constant, joined by account to a distributed table, is a
 * router query to the worker's own shard. So each trigger:
 *
 * - groups the statement's changes as before, from the transition tables alone, into one row per
 *   account with the sums in arrays (a loop's query);
 * - adds each account's sums with one `insert … select from unnest(…)` per table, joined by account
 *   to the project or user, so that the rows of one being deleted are skipped (the cascade removes
 *   their sums anyway), in one order (grain, period, key) so that two writers never wait on each
 *   other's rows in a cycle.
 *
 * A statement writes one account's shifts almost always, so it still upserts once per table.
 * Row-level triggers were measured instead and rejected (bench/time-triggers.ts): a bulk write paid
 * four to eight times as much. The pattern was run on a Citus 13.2 cluster, on tables of the same
 * shape (docs/scaling.md).
 * The set-based functions go: nothing calls them any more.
 */
export class ShardLocalTimeTriggersMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop function project_totals_add, time_rollups_add;`);
    // Signed stopped shifts of the statement: `changes` is a query over the transition tables.
    // Their seconds per (project, user), one upsert per account.
    const totals = (changes: string, guard = '') => `
      declare r record;
      begin ${guard}
        for r in select account_id, array_agg(project_id order by project_id, user_id) as projects,
                        array_agg(user_id order by project_id, user_id) as members, array_agg(seconds order by project_id, user_id) as seconds
                   from (select account_id, project_id, user_id, sum(seconds) as seconds
                           from (${changes}) c where seconds is not null group by 1, 2, 3) g
                  group by 1 order by 1 loop
          insert into project_user_totals as t (account_id, project_id, user_id, stopped_seconds)
          select r.account_id, d.project_id, d.user_id, d.seconds
            from unnest(r.projects, r.members, r.seconds) as d(project_id, user_id, seconds)
            -- Rows of a project or user being deleted: the cascade removes their totals anyway.
            join projects p on p.account_id = r.account_id and p.id = d.project_id
            join users u on u.account_id = r.account_id and u.id = d.user_id
           order by d.project_id, d.user_id
          on conflict (project_id, user_id) do update set stopped_seconds = t.stopped_seconds + excluded.stopped_seconds;
        end loop;
        return null;
      end`;
    const seconds = (rows: string, sign: number) =>
      `select account_id, project_id, user_id, ${sign} * extract(epoch from (stop - start)) as seconds from ${rows}`;
    this.addSql(`
      create or replace function shifts_totals_on_insert() returns trigger language plpgsql as $$
      ${totals(seconds('new_rows', 1))} $$;`);
    this.addSql(`
      create or replace function shifts_totals_on_delete() returns trigger language plpgsql as $$
      ${totals(seconds('old_rows', -1))} $$;`);
    this.addSql(`
      create or replace function shifts_totals_on_update() returns trigger language plpgsql as $$
      ${totals(
        `${seconds('old_rows', -1)} union all ${seconds('new_rows', 1)}`,
        // A repricing (rates_reprice) moves no time.
        `if current_setting('timetrack.repricing', true) = 'on' then return null; end if;`,
      )} $$;`);

    // Each stopped shift of the statement in pieces, one per UTC day it covers, summed per rollup
    // row; one upsert per account and rollup. `changes` is a query over the transition tables
    // with a sign per shift.
    const upsert = (table: string, key: string, parent: string) => `
          insert into ${table} as t (account_id, ${key}, grain, period_start, seconds, billable_seconds, amount_cent_seconds, cost_cent_seconds)
          select r.account_id, d.owner, d.grain, d.period, d.seconds, d.billable, d.amount, d.cost
            from unnest(r.owners, r.grains, r.periods, r.seconds, r.billable, r.amounts, r.costs) as d(owner, grain, period, seconds, billable, amount, cost)
            -- Rows of a project or user being deleted: the cascade removes their rollups anyway.
            join ${parent} k on k.account_id = r.account_id and k.id = d.owner
           order by d.grain, d.period, d.owner
          on conflict (account_id, ${key}, grain, period_start) do update set
            seconds = t.seconds + excluded.seconds,
            billable_seconds = t.billable_seconds + excluded.billable_seconds,
            amount_cent_seconds = t.amount_cent_seconds + excluded.amount_cent_seconds,
            cost_cent_seconds = t.cost_cent_seconds + excluded.cost_cent_seconds;`;
    const rollups = (changes: string) => `
      declare r record;
      begin
        for r in
          with pieces as (
            select c.account_id, c.project_id, c.user_id, c.billable, c.billable_rate_cents as rate, c.cost_rate_cents as cost_rate, d.day,
                   c.sign * extract(epoch from least(c.stop, (d.day + interval '1 day') at time zone 'UTC') - greatest(c.start, d.day at time zone 'UTC')) as seconds
              from (${changes}) c
             cross join lateral generate_series(date_trunc('day', c.start at time zone 'UTC'), c.stop at time zone 'UTC', interval '1 day') d(day)
             where c.stop is not null and (d.day at time zone 'UTC') < c.stop),
          keyed as (
            select 'project' as kind, project_id as owner, * from pieces
            union all
            select 'user', user_id, * from pieces),
          sums as (
            select k.kind, k.account_id, k.owner, g.grain, date_trunc(g.grain, k.day)::date as period,
                   sum(k.seconds) as seconds, coalesce(sum(k.seconds) filter (where k.billable), 0) as billable,
                   coalesce(sum(k.seconds * k.rate) filter (where k.billable), 0) as amount, coalesce(sum(k.seconds * k.cost_rate), 0) as cost
              from keyed k cross join (values ('day'), ('month')) g(grain)
             group by 1, 2, 3, 4, 5)
          select kind, account_id, array_agg(owner) as owners, array_agg(grain) as grains, array_agg(period) as periods,
                 array_agg(seconds) as seconds, array_agg(billable) as billable, array_agg(amount) as amounts, array_agg(cost) as costs
            from sums group by 1, 2 order by 1, 2
        loop
          if r.kind = 'project' then ${upsert('project_time_rollups', 'project_id', 'projects')}
          else ${upsert('user_time_rollups', 'user_id', 'users')}
          end if;
        end loop;
        return null;
      end`;
    const signed = (rows: string, sign: number) =>
      `select account_id, project_id, user_id, start, stop, billable, billable_rate_cents, cost_rate_cents, ${sign} as sign from ${rows}`;
    this.addSql(`
      create or replace function shifts_rollups_on_insert() returns trigger language plpgsql as $$
      ${rollups(signed('new_rows', 1))} $$;`);
    this.addSql(`
      create or replace function shifts_rollups_on_delete() returns trigger language plpgsql as $$
      ${rollups(signed('old_rows', -1))} $$;`);
    // Only the shifts whose time, keys or prices changed (not, say, their notes): out as they
    // were, in as they are.
    const changed = `(select o.id from old_rows o join new_rows n using (id)
       where (o.project_id, o.user_id, o.start, o.stop, o.billable, o.billable_rate_cents, o.cost_rate_cents)
             is distinct from (n.project_id, n.user_id, n.start, n.stop, n.billable, n.billable_rate_cents, n.cost_rate_cents))`;
    this.addSql(`
      create or replace function shifts_rollups_on_update() returns trigger language plpgsql as $$
      ${rollups(`${signed('old_rows', -1)} where id in ${changed} union all ${signed('new_rows', 1)} where id in ${changed}`)} $$;`);
  }

  override async down(): Promise<void> {
    // The set-based bodies come back only from the migrations that wrote them.
    throw new Error(
      '20261212000000-shard-local-time-triggers cannot be undone: restore a backup taken before it',
    );
  }
}
