import { Migration } from '@mikro-orm/migrations';

/**
 * Indexes for nested pages in their default order (by id): a project's page of shifts and a
 * company's page of projects read the first rows of an index range, not every row of the parent.
 * `projects (company_id, id)` also serves what `projects_company_idx` served, so it replaces it.
 */
export class PageIndexesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index shifts_project_id_idx on shifts (project_id, id);`);
    this.addSql(`create index projects_company_id_idx on projects (company_id, id);`);
    this.addSql(`drop index projects_company_idx;`);
  }

  override async down(): Promise<void> {
    this.addSql(`create index projects_company_idx on projects (company_id);`);
    this.addSql(`drop index if exists projects_company_id_idx;`);
    this.addSql(`drop index if exists shifts_project_id_idx;`);
  }
}
