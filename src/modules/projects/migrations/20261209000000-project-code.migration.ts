import { Migration } from '@mikro-orm/migrations';

/**
 * A project's short code for invoices and exports (issue 35). Unique within the account when set:
 * the index leads with the account, which is also what a distributed table's unique index needs.
 */
export class ProjectCodeMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table projects add column code varchar(32) null;`);
    this.addSql(
      `create unique index projects_code_unique on projects (account_id, code) where code is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index projects_code_unique;`);
    this.addSql(`alter table projects drop column code;`);
  }
}
