import { Migration } from '@mikro-orm/migrations';

/**
 * A password reset ends every OAuth grant given with the old password, also those issued while it
 * runs (issue 33, looked at again: the password-reset paths). Deleting the user's grants in the reset's
 * transaction misses a grant written by a statement that does not see that transaction: an approval
 * that verified the old password just before, a refresh between deleting the old pair and inserting
 * the new one, a 1.0a exchange that held the request token's lock.
 *
 * So the user has a credentials version, raised by every password change in its transaction, and
 * each grant (code, token, approved 1.0a request token) records the version of the password it was
 * given with: the one read with the hash the approval page verified, or its parent grant's. A grant
 * is honoured only while its version is the user's, whenever it was written. Existing rows start
 * equal (0), so every grant valid before the upgrade stays valid.
 */
export class CredentialsVersionMigration extends Migration {
  override async up(): Promise<void> {
    for (const table of ['users', 'oauth2_codes', 'oauth2_tokens', 'oauth1_tokens'])
      this.addSql(
        `alter table ${table} add column credentials_version integer not null default 0;`,
      );
  }

  override async down(): Promise<void> {
    for (const table of ['oauth1_tokens', 'oauth2_tokens', 'oauth2_codes', 'users'])
      this.addSql(`alter table ${table} drop column credentials_version;`);
  }
}
