import { Migration } from '@mikro-orm/migrations';

/**
 * A project's default tags as the client wrote them (`default_tags` of the legacy interfaces), so
 * they read back exactly; `default_tags` keeps the parsed list that punch-in applies. Existing
 * projects get the text the interfaces showed for them until now.
 */
export class ProjectDefaultTagsTextMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table projects add column default_tags_text text;`);
    this.addSql(
      `update projects set default_tags_text = array_to_string(default_tags, ',') where cardinality(default_tags) > 0;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table projects drop column if exists default_tags_text;`);
  }
}
