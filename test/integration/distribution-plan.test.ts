import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The schema against Citus's rules for distributing the tenant tables by `account_id`
 * (docs/scaling.md, "Ready for Citus"), read from the live catalog of the migrated database:
 *
 * - every tenant table (one with an `account_id` column) has it NOT NULL;
 * - every primary key, unique constraint and unique index of a tenant table includes it;
 * - every foreign key between tenant tables includes it;
 * - no shared table (one without it) refers to a tenant table;
 * - a statement-level trigger of a tenant table runs a function known to be shard-local: Citus
 *   fires it once per shard task, on the worker, where a query that writes or joins a distributed
 *   table while reading the transition tables fails ("executor could not find named tuplestore").
 *   SHARD_LOCAL lists the functions read for that, and why each passes.
 *
 * The schema does not keep all of them yet: PLANNED lists what the migration before distribution
 * changes, each step of it described in docs/scaling.md. A migration that breaks a rule anew fails
 * here; one that removes a listed gap must take it off the list (and the plan).
 */
const PLANNED = [
  // Tenant tables keyed by a global serial id and uuid: the keys become (account_id, id) and
  // (account_id, uuid); the facades and GraphQL keep finding rows by id within the caller's account.
  ...[
    'activities',
    'companies',
    'company_members',
    'oauth1_tokens',
    'oauth2_tokens',
    'oauth_clients',
    'outbox',
    'project_members',
    'projects',
    'rates',
    'shifts',
    'tombstones',
    'users',
    'webhooks',
  ].map((table) => `unique ${table}_pkey`),
  ...[
    'activities',
    'companies',
    'company_members',
    'oauth_clients',
    'outbox',
    'project_members',
    'projects',
    'shifts',
    'users',
    'webhooks',
  ].map((table) => `unique ${table}_uuid_key`),
  // Per-parent keys that gain account_id in front.
  'unique company_members_company_id_user_id_key',
  'unique project_members_project_id_user_id_key',
  'unique idempotency_keys_pkey',
  'unique project_user_totals_pkey',
  'unique rates_project_from_idx',
  'unique rates_user_from_idx',
  'unique shifts_one_running_per_user',
  // Looked up before the account is known (sign-in, OAuth): they move to reference tables that map
  // the login or token to its account (docs/scaling.md, "Lookups before the tenant is known").
  'unique users_login_unique',
  'unique oauth1_tokens_token_key_key',
  'unique oauth2_tokens_access_token_hash_key',
  'unique oauth2_tokens_refresh_token_hash_key',
  'unique oauth_clients_client_key_key',
  // Foreign keys that gain account_id.
  'foreign key oauth1_tokens_client_id_fkey',
  'foreign key oauth1_tokens_user_id_fkey',
  'foreign key oauth2_tokens_client_id_fkey',
  'foreign key oauth2_tokens_user_id_fkey',
  'foreign key oauth_clients_created_by_id_fkey',
  'foreign key outbox_webhook_id_fkey',
  'foreign key rates_project_id_fkey',
  'foreign key rates_user_id_fkey',
  // Request tokens exist before a user (and so an account) authorizes them.
  'nullable account_id: oauth1_tokens',
  // Authorization codes gain account_id and become a tenant table.
  'shared table refers to a tenant table: oauth2_codes_client_id_fkey',
  'shared table refers to a tenant table: oauth2_codes_user_id_fkey',
].sort();

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
             (select a.attnum from pg_attribute a where a.attrelid = c.oid and a.attname = 'account_id' and not a.attisdropped) as account_attnum,
             (select a.attnotnull from pg_attribute a where a.attrelid = c.oid and a.attname = 'account_id' and not a.attisdropped) as account_not_null
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
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
    select 'shared table refers to a tenant table: ' || f.conname
      from pg_constraint f join tables src on src.oid = f.conrelid join tables dst on dst.oid = f.confrelid
     where f.contype = 'f' and src.account_attnum is null and dst.account_attnum is not null
    union all
    select 'statement-level trigger ' || g.tgname
      from pg_trigger g join tables t on t.oid = g.tgrelid join pg_proc f on f.oid = g.tgfoid
     where not g.tgisinternal and t.account_attnum is not null and g.tgtype & 1 = 0
       -- The set-based bodies fed a distributed insert from the transition tables.
       and (f.proname <> all (?::text[]) or f.prosrc ~ '(project_totals|time_rollups)_add[(]')`,
    [`{${SHARD_LOCAL.join(',')}}`],
  );
  expect(gaps.map((row) => row.gap).sort()).toEqual(PLANNED);
});
