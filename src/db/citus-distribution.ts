import { Client } from 'pg';
import { ConfigError } from '../core/config';

/**
 * Tables with `account_id` that Citus copies to every node instead of distributing, because they
 * are read before the account is known: a login's account and user (`logins`, read at sign-in),
 * the OAuth applications (read by key, some serving every account) and the account of each key an
 * OAuth client presents (`oauth_token_accounts`). Every other table with `account_id` is a tenant
 * table, distributed by it and co-located with `accounts` (by its `id`).
 */
export const REFERENCE_TABLES: readonly string[] = [
  'logins',
  'oauth_clients',
  'oauth_token_accounts',
];

/** What `distributeSchema` did: the tables it distributed or copied, in order (none when done before). */
export interface Distribution {
  readonly distributed: string[];
  readonly reference: string[];
}

/** The database of `url` is not a Citus coordinator. */
export class NotCitusError extends ConfigError {}

/**
 * Distributes the migrated schema on a Citus coordinator (docs/scaling.md, "7. Citus"):
 * `accounts` by `id`, every other table with `account_id` by it, co-located, and the lookups of
 * REFERENCE_TABLES as reference tables; tables with neither stay local to the coordinator. Only
 * what is not a Citus table yet, so it is run again after a migration that adds a table.
 *
 * The order is Citus's: a local table that refers to a reference table is made a Citus table
 * together with every table joined to it by foreign keys, which fails once one of those is
 * distributed, so the foreign keys to the reference tables are dropped first and added again, as
 * they were, last. The row-level and statement-level triggers need `citus.enable_unsafe_triggers`
 * (docs/scaling.md, "Triggers on a distributed table"), set on the database.
 */
export async function distributeSchema(url: string): Promise<Distribution> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const rows = async <T>(text: string, params: unknown[] = []): Promise<T[]> =>
      (await client.query(text, params)).rows as T[];
    const [citus] = await rows<{ installed: boolean }>(
      `select exists (select 1 from pg_extension where extname = 'citus') as installed`,
    );
    if (!citus!.installed)
      throw new NotCitusError(
        'The database is not a Citus coordinator: create extension citus and add the workers first (docs/scaling.md)',
      );
    await client.query('set citus.enable_unsafe_triggers = on');
    const [database] = await rows<{ name: string }>('select current_database() as name');
    await client.query(
      `alter database ${client.escapeIdentifier(database!.name)} set citus.enable_unsafe_triggers = on`,
    );

    const pending = await rows<{ table: string; reference: boolean }>(
      `select c.relname as table, c.relname = any($1) as reference
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = current_schema() and c.relkind in ('r', 'p')
          and (c.relname = 'accounts' or exists (select 1 from pg_attribute a
                where a.attrelid = c.oid and a.attname = 'account_id' and not a.attisdropped))
          and not exists (select 1 from pg_dist_partition p where p.logicalrelid = c.oid)
        order by c.relname <> 'accounts', c.relname`,
      [REFERENCE_TABLES],
    );
    if (pending.length === 0) return { distributed: [], reference: [] };
    const reference = pending.filter((t) => t.reference).map((t) => t.table);
    const edges = await rows<{ from: string; to: string }>(
      `select conrelid::regclass::text as from, confrelid::regclass::text as to
         from pg_constraint where contype = 'f' and conrelid <> confrelid`,
    );
    const distributed = referencedFirst(
      pending.filter((t) => !t.reference).map((t) => t.table),
      edges,
    );

    const references = await rows<{ name: string; table: string; definition: string }>(
      `select conname as name, conrelid::regclass::text as table, pg_get_constraintdef(oid) as definition
         from pg_constraint where contype = 'f' and confrelid::regclass::text = any($1)
        order by conname`,
      [REFERENCE_TABLES],
    );
    for (const { name, table } of references)
      await client.query(
        `alter table ${client.escapeIdentifier(table)} drop constraint ${client.escapeIdentifier(name)}`,
      );
    // Citus copies a table's rows into its shards, whose triggers would fire for each row: a
    // database moved from a single server with its rows would have its kept totals and rollups
    // added again. So the tables' own triggers are off while their rows move, and on again
    // after, on every shard (Citus passes a trigger's state on to the shards).
    const triggers = await rows<{ table: string; name: string }>(
      `select c.relname as table, t.tgname as name
         from pg_trigger t join pg_class c on c.oid = t.tgrelid
        where c.relname = any($1) and not t.tgisinternal and t.tgenabled <> 'D'
        order by 1, 2`,
      [pending.map((t) => t.table)],
    );
    const triggerState = async (state: 'enable' | 'disable') => {
      for (const { table, name } of triggers)
        await client.query(
          `alter table ${client.escapeIdentifier(table)} ${state} trigger ${client.escapeIdentifier(name)}`,
        );
    };
    await triggerState('disable');
    for (const table of distributed)
      await client.query(
        table === 'accounts'
          ? `select create_distributed_table('accounts', 'id')`
          : `select create_distributed_table($1, 'account_id', colocate_with => 'accounts')`,
        table === 'accounts' ? [] : [table],
      );
    for (const table of reference) await client.query('select create_reference_table($1)', [table]);
    await triggerState('enable');
    for (const { name, table, definition } of references)
      await client.query(
        `alter table ${client.escapeIdentifier(table)} add constraint ${client.escapeIdentifier(name)} ${definition}`,
      );
    return { distributed, reference };
  } finally {
    await client.end();
  }
}

/**
 * `tables` in an order in which each comes after the tables among them that it refers to (`edges`
 * hold no table's references to itself): Citus
 * distributes a table only once the tables its foreign keys point to are distributed.
 */
function referencedFirst(tables: string[], edges: { from: string; to: string }[]): string[] {
  const ordered: string[] = [];
  const left = new Set(tables);
  while (left.size > 0) {
    const ready = [...left].filter(
      (table) => !edges.some((e) => e.from === table && left.has(e.to)),
    );
    // A cycle of foreign keys cannot be distributed one table at a time; Citus says which.
    const next = ready.length > 0 ? ready : [...left];
    for (const table of next) {
      ordered.push(table);
      left.delete(table);
    }
  }
  return ordered;
}
