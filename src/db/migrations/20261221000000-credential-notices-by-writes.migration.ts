import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 38: the writes that change a user's credentials announce it themselves, in their
 * transaction (src/modules/staff/credential-notices.ts), instead of triggers on `users` and the
 * token tables. On Citus those triggers run on the worker that holds the row: its NOTIFY reaches
 * no listener (the service listens on the coordinator), and a transaction that wrote more than one
 * worker then fails at commit (`cannot PREPARE a transaction that has executed LISTEN, UNLISTEN, or
 * NOTIFY`). What changes credentials by hand (an operator's SQL) is caught by each process's
 * periodic re-check (SUBSCRIPTION_RECHECK_MS).
 */
export class CredentialNoticesByWritesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop trigger users_credentials_changed on users;`);
    this.addSql(`drop trigger users_credentials_deleted on users;`);
    this.addSql(`drop trigger oauth1_tokens_credentials_deleted on oauth1_tokens;`);
    this.addSql(`drop trigger oauth2_tokens_credentials_deleted on oauth2_tokens;`);
    this.addSql(`drop function notify_credentials_changed();`);
  }

  override async down(): Promise<void> {
    throw new Error(
      '20261221000000-credential-notices-by-writes cannot be undone: restore a backup taken before it',
    );
  }
}
