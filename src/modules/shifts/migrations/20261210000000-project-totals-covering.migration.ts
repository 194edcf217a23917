import { Migration } from '@mikro-orm/migrations';

/**
 * A project's kept totals read from the primary key alone (issue 36). A list of projects with
 * their totals adds up one row per project and user (50 a project on the benchmark's account):
 * the key found them, then read each from the table, several pages a project, 0.027 ms each, 11
 * of the 16.6 ms of a list of 400 projects. With the seconds in the key's index (`include`), an
 * index-only scan reads them where the key is: 0.006 ms a project. An update of the seconds is
 * then no longer a HOT update (a column of an index changes): one more index entry per total
 * the totals' trigger changes, once per statement.
 */
export class ProjectTotalsCoveringMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table project_user_totals
        drop constraint project_user_totals_pkey,
        add constraint project_user_totals_pkey primary key (project_id, user_id) include (stopped_seconds);`);
  }

  override async down(): Promise<void> {
    this.addSql(`
      alter table project_user_totals
        drop constraint project_user_totals_pkey,
        add constraint project_user_totals_pkey primary key (project_id, user_id);`);
  }
}
