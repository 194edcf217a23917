import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 38: signing in finds a login's account before it reads the user. `logins` maps every
 * login (lower-cased) to its account and user; its primary key keeps logins unique across
 * accounts, which `users_login_unique` did. On Citus `logins` is a reference table (a copy on every
 * node, read where the request arrives) and `users` is distributed by account, so the user is read
 * by a router query to the one worker that holds it, where a read by login would scan every shard.
 * No foreign key joins the two (Citus allows none from a reference table to a distributed one): the
 * staff service and the account opening write both in one transaction (src/modules/staff/logins.ts).
 */
export class LoginsMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table logins (
        login varchar(255) not null constraint logins_login_unique primary key
          constraint logins_login_lower check (login = lower(login)),
        account_id integer not null,
        user_id integer not null,
        constraint logins_user_key unique (account_id, user_id)
      );`);
    this.addSql(`insert into logins (login, account_id, user_id)
      select lower(login), account_id, id from users;`);
    this.addSql(`drop index users_login_unique;`);
  }

  override async down(): Promise<void> {
    this.addSql(`create unique index users_login_unique on users (lower(login));`);
    this.addSql(`drop table logins;`);
  }
}
