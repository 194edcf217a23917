import { REFERENCE_TABLES } from '../../src/db/citus-distribution';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The schema against Citus's rules for distributing the tenant tables by `account_id`
 * (docs/scaling.md, "7. Citus"), read from the live catalog of the migrated database:
 *
 * - every tenant table (one with an `account_id` column, and `accounts` itself by its `id`) has it
 *   NOT NULL;
 * - every primary key, unique constraint and unique index of a tenant table includes it;
 * - every foreign key between tenant tables includes it, and none sets a column null or to its
 *   default on delete (Citus refuses `on delete set null` in a key that holds the distribution
 *   column, even with a column list);
 * - no shared table (one without it, or a reference table: REFERENCE_TABLES of
 *   src/db/citus-distribution.ts) refers to a tenant table;
 * - a statement-level trigger of a tenant table runs a function known to be shard-local: Citus
 *   fires it once per shard task, on the worker, where a query that writes or joins a distributed
 *   table while reading the transition tables fails ("executor could not find named tuplestore").
 *   SHARD_LOCAL lists the functions read for that, and why each passes;
 * - no trigger function of a tenant table reads `tg_table_name` (on a worker it is the shard's
 *   name, `projects_102008`), and no function of the schema is an SQL-language function with
 *   parameters (Citus cannot plan one on a worker: "could not create distributed plan").
 *
 * The schema keeps every rule: no known gap is left. The steps that got it there are in
 * docs/scaling.md (the tenant tables' own keys: migration 20261213000000-tenant-keys; the
 * row-level triggers: 20261214000000-shard-local-row-triggers; the references cleared on delete:
 * 20261215000000-references-cleared-by-triggers; sign-in: 20261217000000-logins; the OAuth grants
 * filed by account: 20261218000000-oauth-grants-by-account; the OAuth clients:
 * 20261219000000-oauth-clients-shared; the tokens' keys: 20261220000000-oauth-token-accounts).
 * test/citus distributes the schema on a real cluster. A migration that breaks a rule fails here.
 */

/**
 * Statement-level trigger functions of tenant tables that read their transition tables only in a
 * loop's query (shard-local) and write one account's rows per statement, each joined by account
 * (a router query to the worker's own shard): migration 20261212000000-shard-local-time-triggers.
 * The pattern was run on a Citus 13.2 cluster, on tables of the same shape (docs/scaling.md).
 */
const SHARD_LOCAL = [
  'shifts_rollups_on_delete',
  'shifts_rollups_on_insert',
  'shifts_rollups_on_update',
  'shifts_totals_on_delete',
  'shifts_totals_on_insert',
  'shifts_totals_on_update',
];

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

test('the tenant tables keep the distribution plan: account_id in every key and every reference, shard-local triggers', async () => {
  const gaps = await t.db.orm.em.getConnection().execute<{ gap: string }[]>(
    `
    with tables as (
      select c.oid, c.relname,
             a.attnum as account_attnum, a.attnotnull as account_not_null
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        left join pg_attribute a on a.attrelid = c.oid and not a.attisdropped
                                and a.attname = case c.relname when 'accounts' then 'id' else 'account_id' end
                                and c.relname <> all (?::text[])
       where n.nspname = current_schema() and c.relkind in ('r', 'p'))
    select 'nullable account_id: ' || relname as gap from tables where account_attnum is not null and not account_not_null
    union all
    select 'unique ' || i.indexrelid::regclass::text
      from pg_index i join tables t on t.oid = i.indrelid
     where i.indisunique and t.account_attnum is not null and not (t.account_attnum = any(i.indkey::int2[]))
    union all
    select 'foreign key ' || f.conname
      from pg_constraint f join tables src on src.oid = f.conrelid join tables dst on dst.oid = f.confrelid
     where f.contype = 'f' and src.account_attnum is not null and dst.account_attnum is not null
       and not (src.account_attnum = any(f.conkey) and dst.account_attnum = any(f.confkey))
    union all
    select 'foreign key on delete set null: ' || f.conname
      from pg_constraint f join tables src on src.oid = f.conrelid join tables dst on dst.oid = f.confrelid
     where f.contype = 'f' and src.account_attnum is not null and dst.account_attnum is not null
       and f.confdeltype in ('n', 'd')
    union all
    select 'shared table refers to a tenant table: ' || f.conname
      from pg_constraint f join tables src on src.oid = f.conrelid join tables dst on dst.oid = f.confrelid
     where f.contype = 'f' and src.account_attnum is null and dst.account_attnum is not null
    union all
    select 'statement-level trigger ' || g.tgname
      from pg_trigger g join tables t on t.oid = g.tgrelid join pg_proc f on f.oid = g.tgfoid
     where not g.tgisinternal and t.account_attnum is not null and g.tgtype & 1 = 0
       -- The set-based bodies fed a distributed insert from the transition tables.
       and (f.proname <> all (?::text[]) or f.prosrc ~ '(project_totals|time_rollups)_add[(]')
    union all
    select distinct 'trigger function reads tg_table_name: ' || f.proname
      from pg_trigger g join tables t on t.oid = g.tgrelid join pg_proc f on f.oid = g.tgfoid
     where not g.tgisinternal and t.account_attnum is not null and strpos(lower(f.prosrc), 'tg_table_name') > 0
    union all
    select 'SQL function with parameters: ' || f.proname
      from pg_proc f join pg_language l on l.oid = f.prolang
     where f.pronamespace = current_schema()::regnamespace and l.lanname = 'sql' and f.pronargs > 0`,
    [`{${REFERENCE_TABLES.join(',')}}`, `{${SHARD_LOCAL.join(',')}}`],
  );
  expect(gaps.map((row) => row.gap).sort()).toEqual([]);
});
