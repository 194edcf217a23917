import { Migration } from '@mikro-orm/migrations';

/** `[table, foreign key, referenced table, the column cleared when its row is deleted]`. */
const CLEARED = [
  ['companies', 'companies_account_id_created_by_id_fkey', 'users', 'created_by_id'],
  ['projects', 'projects_account_id_created_by_id_fkey', 'users', 'created_by_id'],
  ['shifts', 'shifts_account_id_activity_id_fkey', 'activities', 'activity_id'],
] as const;

/**
 * Issue 38: Citus refuses `on delete set null` in a foreign key that holds the distribution column,
 * even with a column list (`set null (created_by_id)`), so the references that a deletion clears
 * (a company's or project's creator, a shift's activity) are cleared by a row-level trigger before
 * the delete, which Citus runs on the worker beside the row (an update of the same account's rows,
 * a router query). The foreign keys stay, without an action: a reference the trigger missed makes
 * the delete fail rather than dangle.
 *
 * Every road keeps the behaviour: the services (which detach an activity's shifts first, to
 * announce them), cascades, the CLI, an operator's SQL. The updates fire the same triggers the
 * foreign-key action's did (`updated_at`, the shifts' totals and rollups, which find nothing moved).
 */
export class ReferencesClearedByTriggersMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create function clear_references() returns trigger language plpgsql as $$
      begin
        if tg_argv[0] = 'user' then
          update companies set created_by_id = null where account_id = old.account_id and created_by_id = old.id;
          update projects set created_by_id = null where account_id = old.account_id and created_by_id = old.id;
        else
          update shifts set activity_id = null where account_id = old.account_id and activity_id = old.id;
        end if;
        return old;
      end $$;`);
    this.addSql(`
      create trigger users_clear_references before delete on users
        for each row execute function clear_references('user');`);
    this.addSql(`
      create trigger activities_clear_references before delete on activities
        for each row execute function clear_references('activity');`);
    for (const [table, name, parent, column] of CLEARED)
      this.addSql(`
        alter table ${table} drop constraint ${name},
          add constraint ${name} foreign key (account_id, ${column}) references ${parent} (account_id, id);`);
  }

  override async down(): Promise<void> {
    for (const [table, name, parent, column] of CLEARED)
      this.addSql(`
        alter table ${table} drop constraint ${name},
          add constraint ${name} foreign key (account_id, ${column}) references ${parent} (account_id, id)
            on delete set null (${column});`);
    this.addSql(`drop trigger activities_clear_references on activities;`);
    this.addSql(`drop trigger users_clear_references on users;`);
    this.addSql(`drop function clear_references();`);
  }
}
