import { Migration } from '@mikro-orm/migrations';

/** `[table, constraint, definition before, definition after]`. */
const CONSTRAINTS: readonly (readonly [string, string, string, string])[] = [
  ...[
    ['rates', 'project_id', 'projects'],
    ['rates', 'user_id', 'users'],
    ['outbox', 'webhook_id', 'webhooks'],
  ].map(
    ([table, column, parent]) =>
      [
        table!,
        `${table}_${column}_fkey`,
        `foreign key (${column}) references ${parent} (id) on delete cascade`,
        `foreign key (account_id, ${column}) references ${parent} (account_id, id) on delete cascade`,
      ] as const,
  ),
  ...[
    'activities',
    'companies',
    'company_members',
    'oauth2_tokens',
    'outbox',
    'project_members',
    'projects',
    'rates',
    'shifts',
    'tombstones',
    'webhooks',
  ].map(
    (table) =>
      [table, `${table}_pkey`, 'primary key (id)', 'primary key (id, account_id)'] as const,
  ),
  ...[
    'activities',
    'companies',
    'company_members',
    'outbox',
    'project_members',
    'projects',
    'shifts',
    'users',
    'webhooks',
  ].map(
    (table) => [table, `${table}_uuid_key`, 'unique (uuid)', 'unique (uuid, account_id)'] as const,
  ),
  // accounts is distributed by its own id.
  ['accounts', 'accounts_uuid_key', 'unique (uuid)', 'unique (uuid, id)'],
  ...[
    ['company_members', 'company_id'],
    ['project_members', 'project_id'],
  ].map(
    ([table, parent]) =>
      [
        table!,
        `${table}_${parent}_user_id_key`,
        `unique (${parent}, user_id)`,
        `unique (${parent}, user_id, account_id)`,
      ] as const,
  ),
  [
    'idempotency_keys',
    'idempotency_keys_pkey',
    'primary key (user_id, key)',
    'primary key (user_id, key, account_id)',
  ],
  [
    'project_user_totals',
    'project_user_totals_pkey',
    'primary key (project_id, user_id) include (stopped_seconds)',
    'primary key (project_id, user_id, account_id) include (stopped_seconds)',
  ],
];

/** `[index, definition before, definition after]`: partial unique indexes. */
const INDEXES: readonly (readonly [string, string, string])[] = [
  [
    'rates_project_from_idx',
    'rates (project_id, effective_from) where project_id is not null',
    'rates (project_id, effective_from, account_id) where project_id is not null',
  ],
  [
    'rates_user_from_idx',
    'rates (user_id, kind, effective_from) where user_id is not null',
    'rates (user_id, kind, effective_from, account_id) where user_id is not null',
  ],
  [
    'shifts_one_running_per_user',
    'shifts (user_id) where stop is null',
    'shifts (user_id, account_id) where stop is null',
  ],
];

/**
 * `[before, after]`: the conflict targets of the trigger functions' upserts that name these keys
 * (shifts_totals_on_*, record_current_rate). The functions are redefined with the targets
 * replaced; their bodies are otherwise unchanged.
 */
const CONFLICT_TARGETS: readonly (readonly [string, string])[] = [
  ['(project_id, user_id)', '(project_id, user_id, account_id)'],
  ['(project_id, effective_from)', '(project_id, effective_from, account_id)'],
  ['(user_id, kind, effective_from)', '(user_id, kind, effective_from, account_id)'],
];

/**
 * Issue 38, the keys of the tenant tables that Citus can distribute by `account_id`: a primary key
 * or unique key of a distributed table must hold the distribution column, and so must a foreign key
 * between two of them (docs/scaling.md, "Before distributing", steps 1 and 2).
 *
 * - The primary keys become `(id, account_id)` and the uuid keys `(uuid, account_id)` (the
 *   accounts' `(uuid, id)`: they are distributed by their own id). `account_id` comes last so
 *   that a row is still found by its id or uuid alone through the same index: the unit of work
 *   updates and deletes by id, and the ids stay unique by their sequences.
 * - The per-parent unique keys gain `account_id`, last for the same reason: the members of a
 *   project or company, the rate histories, the one running shift per user, the idempotency keys,
 *   the project totals. The conflict targets that name them (the totals triggers and the
 *   current-rate trigger, below; the services' own SQL) name `account_id` too.
 * - The foreign keys that named an id alone (rates to projects and users, the outbox to its
 *   webhook) become `(account_id, …)` pairs, as the core tables' already are.
 *
 * Every constraint and index keeps its name: the error catalogue maps some of them to messages.
 * What is left (the users' and OAuth tables' keys, which sign-in and OAuth need before the account
 * is known, and the `on delete set null` references) is listed in
 * test/integration/distribution-plan.test.ts.
 */
export class TenantKeysMigration extends Migration {
  override async up(): Promise<void> {
    this.change(1);
  }

  override async down(): Promise<void> {
    this.change(-1);
  }

  /** 1: to the new keys; -1: back. */
  private change(direction: 1 | -1): void {
    const pick = <T>(before: T, after: T) => (direction === 1 ? after : before);
    // The foreign keys go first (up) or last (down): they need the parents' (account_id, id) keys,
    // which the core tables already have, and block the primary keys they named.
    const constraints = direction === 1 ? CONSTRAINTS : [...CONSTRAINTS].reverse();
    for (const [table, name, before, after] of constraints)
      this.addSql(
        `alter table ${table} drop constraint ${name}, add constraint ${name} ${pick(before, after)};`,
      );
    for (const [name, before, after] of INDEXES) {
      this.addSql(`drop index ${name};`);
      this.addSql(`create unique index ${name} on ${pick(before, after)};`);
    }
    const targets = CONFLICT_TARGETS.map(([before, after]) =>
      pick([after, before], [before, after]),
    );
    this.addSql(`
      do $$
      declare
        f oid;
        definition text;
      begin
        for f in select p.oid from pg_proc p
                  where p.pronamespace = current_schema()::regnamespace and p.prokind = 'f'
                    and (${targets.map(([from]) => `strpos(p.prosrc, 'on conflict ${from}') > 0`).join(' or ')}) loop
          definition := pg_get_functiondef(f);
          ${targets.map(([from, to]) => `definition := replace(definition, 'on conflict ${from}', 'on conflict ${to}');`).join(' ')}
          execute definition;
        end loop;
      end $$;`);
  }
}
