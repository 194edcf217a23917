import { Migration } from '@mikro-orm/migrations';

/**
 * Money is the owner's business (issue 23, item 2): whether staff members see rates and amounts
 * is a setting of the account, off unless the owner turns it on.
 */
export class StaffMoneyMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table accounts add column staff_see_money boolean not null default false;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table accounts drop column staff_see_money;`);
  }
}
