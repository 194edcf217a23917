import { Migration } from '@mikro-orm/migrations';

/**
 * Project totals kept by the database: the seconds of every stopped shift, per project and user,
 * so that a list of projects with totals reads one small row per project and user instead of
 * every shift ever punched (a million of them take half a second to add up). Statement-level
 * triggers with transition tables keep the sums exact for every write path, bulk ones included;
 * running shifts are added at read time, up to the request's instant.
 */
export class ProjectTotalsMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table project_user_totals (
        account_id integer not null,
        project_id integer not null,
        user_id integer not null,
        stopped_seconds numeric not null default 0,
        primary key (project_id, user_id),
        foreign key (account_id, project_id) references projects (account_id, id) on delete cascade,
        foreign key (account_id, user_id) references users (account_id, id) on delete cascade
      );`);
    this.addSql(
      `create index project_user_totals_account_idx on project_user_totals (account_id);`,
    );
    // Running shifts by project: what the totals add at read time.
    this.addSql(
      `create index shifts_running_project_idx on shifts (project_id) where stop is null;`,
    );

    // Adds signed per-(project, user) sums; rows of a project or user being deleted are skipped,
    // since the cascade removes their totals anyway.
    this.addSql(`
      create function project_totals_add(account integer[], project integer[], member integer[], seconds numeric[]) returns void
      language sql as $$
        insert into project_user_totals as t (account_id, project_id, user_id, stopped_seconds)
        select d.account_id, d.project_id, d.user_id, sum(d.seconds)
          from unnest(account, project, member, seconds) as d(account_id, project_id, user_id, seconds)
          join projects p on p.id = d.project_id join users u on u.id = d.user_id
         group by d.account_id, d.project_id, d.user_id
         -- One order for every writer, so two transactions never wait on each other's rows in a cycle.
         order by d.project_id, d.user_id
        on conflict (project_id, user_id) do update set stopped_seconds = t.stopped_seconds + excluded.stopped_seconds
      $$;`);
    this.addSql(`
      create function shifts_totals_on_insert() returns trigger language plpgsql as $$
      begin
        perform project_totals_add(array_agg(account_id), array_agg(project_id), array_agg(user_id), array_agg(extract(epoch from (stop - start))))
           from new_rows where stop is not null having count(*) > 0;
        return null;
      end $$;`);
    this.addSql(`
      create function shifts_totals_on_delete() returns trigger language plpgsql as $$
      begin
        perform project_totals_add(array_agg(account_id), array_agg(project_id), array_agg(user_id), array_agg(-extract(epoch from (stop - start))))
           from old_rows where stop is not null having count(*) > 0;
        return null;
      end $$;`);
    this.addSql(`
      create function shifts_totals_on_update() returns trigger language plpgsql as $$
      begin
        perform project_totals_add(array_agg(account_id), array_agg(project_id), array_agg(user_id), array_agg(seconds))
           from (select account_id, project_id, user_id, -extract(epoch from (stop - start)) as seconds from old_rows where stop is not null
                 union all
                 select account_id, project_id, user_id, extract(epoch from (stop - start)) from new_rows where stop is not null) changes
         having count(*) > 0;
        return null;
      end $$;`);
    this.addSql(
      `create trigger shifts_totals_insert after insert on shifts referencing new table as new_rows for each statement execute function shifts_totals_on_insert();`,
    );
    this.addSql(
      `create trigger shifts_totals_delete after delete on shifts referencing old table as old_rows for each statement execute function shifts_totals_on_delete();`,
    );
    this.addSql(
      `create trigger shifts_totals_update after update on shifts referencing old table as old_rows new table as new_rows for each statement execute function shifts_totals_on_update();`,
    );
    this.addSql(`
      insert into project_user_totals (account_id, project_id, user_id, stopped_seconds)
      select account_id, project_id, user_id, sum(extract(epoch from (stop - start))) from shifts where stop is not null
       group by account_id, project_id, user_id;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists shifts_totals_insert on shifts;`);
    this.addSql(`drop trigger if exists shifts_totals_delete on shifts;`);
    this.addSql(`drop trigger if exists shifts_totals_update on shifts;`);
    this.addSql(
      `drop function if exists shifts_totals_on_insert, shifts_totals_on_delete, shifts_totals_on_update, project_totals_add;`,
    );
    this.addSql(`drop index if exists shifts_running_project_idx;`);
    this.addSql(`drop table if exists project_user_totals;`);
  }
}
