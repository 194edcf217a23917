import { Migration } from '@mikro-orm/migrations';

/** The tables whose rows GraphQL serves as objects, with `updated_at` the database keeps. */
const TOUCHED_TABLES = [
  'accounts',
  'users',
  'companies',
  'projects',
  'activities',
  'shifts',
  'company_members',
  'project_members',
  'webhooks',
  'oauth_clients',
] as const;

/** The tables whose deletions leave a tombstone, with the GraphQL type their rows stand for. */
const TOMBSTONED_TABLES = [
  ['users', 'Staff'],
  ['companies', 'Company'],
  ['projects', 'Project'],
  ['activities', 'Activity'],
  ['shifts', 'Shift'],
] as const;

/**
 * Incremental sync (issue 21 item 8, docs/sync.md): the database itself keeps the two things an
 * app's `updatedSince` and `deletions(since:)` read, so that no write path can miss them (the
 * services, punch-out's own SQL, foreign-key cascades, the CLI, an operator's SQL).
 *
 * - `updated_at` is set to now() (the transaction's start) on every insert and update of a row
 *   type, whatever the statement wrote. The transaction's start, not the clock: the sync watermark
 *   (src/modules/sync) is the start of the oldest transaction still in flight, so a row committed
 *   late carries an `updated_at` no earlier than a watermark handed out while it was in flight.
 *   Adding or removing a member of a CUSTOM list touches its company or project, which may have
 *   become visible (or hidden) to that member.
 * - `tombstones` gets one row for every deleted staff member, company, project, activity and
 *   shift, cascades included (a project deleted deletes its activities and shifts: each leaves
 *   one), written by a BEFORE DELETE trigger in the deleting transaction. `listed` keeps the
 *   company or project whose visibility rule decides who may learn of the deletion, as it was at
 *   the deletion (visibility, creator, CUSTOM members): the rows the rule reads are gone by the
 *   time an app asks. A shift or activity deleted by its project's cascade finds the project
 *   already gone and copies the project's own tombstone, written a moment before.
 */
export class SyncMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create function touch_updated_at() returns trigger language plpgsql as $$
      begin
        new.updated_at := date_trunc('milliseconds', now());
        return new;
      end $$;`);
    for (const table of TOUCHED_TABLES) {
      this.addSql(`
        create trigger ${table}_touch_updated_at before insert or update on ${table}
          for each row execute function touch_updated_at();`);
    }
    this.addSql(`
      create function touch_listed_parent() returns trigger language plpgsql as $$
      declare
        member record;
      begin
        if tg_op = 'DELETE' then member := old; else member := new; end if;
        if tg_table_name = 'project_members' then
          update projects set updated_at = date_trunc('milliseconds', now()) where id = member.project_id;
        else
          update companies set updated_at = date_trunc('milliseconds', now()) where id = member.company_id;
        end if;
        return null;
      end $$;`);
    for (const table of ['company_members', 'project_members']) {
      this.addSql(`
        create trigger ${table}_touch_parent after insert or delete on ${table}
          for each row execute function touch_listed_parent();`);
    }

    this.addSql(`
      create table tombstones (
        id bigserial primary key,
        account_id integer not null,
        typename varchar(32) not null,
        uuid uuid not null,
        legacy_id integer not null,
        deleted_at timestamptz not null default date_trunc('milliseconds', now()),
        user_id integer,
        listed jsonb
      );`);
    this.addSql(
      `create index tombstones_account_deleted_idx on tombstones (account_id, deleted_at);`,
    );
    this.addSql(`create index tombstones_listed_idx on tombstones (typename, legacy_id);`);

    // A company or project as its visibility rule reads it: live, or as its tombstone kept it.
    this.addSql(`
      create function tombstone_listing(kind text, row_id integer) returns jsonb language sql stable as $$
        select coalesce(
          (select jsonb_build_object('id', p.id, 'visibility', p.visibility, 'createdBy', p.created_by_id,
                  'memberIds', coalesce((select jsonb_agg(m.user_id) from project_members m where m.project_id = p.id), '[]'::jsonb))
             from projects p where kind = 'Project' and p.id = row_id),
          (select jsonb_build_object('id', c.id, 'visibility', c.visibility, 'createdBy', c.created_by_id,
                  'memberIds', coalesce((select jsonb_agg(m.user_id) from company_members m where m.company_id = c.id), '[]'::jsonb))
             from companies c where kind = 'Company' and c.id = row_id),
          (select t.listed from tombstones t where t.typename = kind and t.legacy_id = row_id
            order by t.id desc limit 1))
      $$;`);
    this.addSql(`
      create function record_tombstone() returns trigger language plpgsql as $$
      declare
        owner integer;
        listing jsonb;
      begin
        case tg_argv[0]
          when 'Shift' then owner := old.user_id; listing := tombstone_listing('Project', old.project_id);
          when 'Activity' then listing := tombstone_listing('Project', old.project_id);
          when 'Project' then listing := tombstone_listing('Project', old.id);
          when 'Company' then listing := tombstone_listing('Company', old.id);
          else owner := old.id;
        end case;
        insert into tombstones (account_id, typename, uuid, legacy_id, user_id, listed)
          values (old.account_id, tg_argv[0], old.uuid, old.id, owner, listing);
        return old;
      end $$;`);
    for (const [table, typename] of TOMBSTONED_TABLES) {
      this.addSql(`
        create trigger ${table}_tombstone before delete on ${table}
          for each row execute function record_tombstone('${typename}');`);
    }
  }

  override async down(): Promise<void> {
    for (const [table] of TOMBSTONED_TABLES)
      this.addSql(`drop trigger if exists ${table}_tombstone on ${table};`);
    this.addSql(`drop function if exists record_tombstone();`);
    this.addSql(`drop function if exists tombstone_listing(text, integer);`);
    this.addSql(`drop table if exists tombstones;`);
    for (const table of ['company_members', 'project_members'])
      this.addSql(`drop trigger if exists ${table}_touch_parent on ${table};`);
    this.addSql(`drop function if exists touch_listed_parent();`);
    for (const table of TOUCHED_TABLES)
      this.addSql(`drop trigger if exists ${table}_touch_updated_at on ${table};`);
    this.addSql(`drop function if exists touch_updated_at();`);
  }
}
