import type { MigrationObject } from '@mikro-orm/core';
import { MODULES, type ModuleDefinition } from '../../modules';
import { InitialMigration } from './20261121000000-initial.migration';
import { OAuthMigration } from './20261123000000-oauth.migration';
import { CredentialNotificationsMigration } from './20261129120000-credential-notifications.migration';
import { SyncMigration } from './20261130000000-sync.migration';
import { PageIndexesMigration } from './20261201000000-page-indexes.migration';
import { RateHistoryMigration } from './20261202000000-rate-history.migration';
import { CallerPositionsMigration } from './20261205000000-caller-positions.migration';
import { OAuthClientAccountsMigration } from './20261206000000-oauth-client-accounts.migration';
import { CredentialsVersionMigration } from './20261207000000-credentials-version.migration';
import { TenantKeysMigration } from './20261213000000-tenant-keys.migration';
import { ShardLocalRowTriggersMigration } from './20261214000000-shard-local-row-triggers.migration';
import { ReferencesClearedByTriggersMigration } from './20261215000000-references-cleared-by-triggers.migration';
import { CurrentRatesRecordedByWritesMigration } from './20261216000000-current-rates-recorded-by-writes.migration';
import { CredentialNoticesByWritesMigration } from './20261221000000-credential-notices-by-writes.migration';

/**
 * The migrations of no one module: the initial tables, and those that change the tables of
 * several modules (or of auth and the database setup). A module's own migrations are in its
 * folder (`migrations/`), named in its index.ts.
 */
const SHARED_MIGRATIONS: readonly MigrationObject[] = [
  { name: '20261121000000-initial', class: InitialMigration },
  { name: '20261123000000-oauth', class: OAuthMigration },
  {
    name: '20261129120000-credential-notifications',
    class: CredentialNotificationsMigration,
  },
  { name: '20261130000000-sync', class: SyncMigration },
  { name: '20261201000000-page-indexes', class: PageIndexesMigration },
  { name: '20261202000000-rate-history', class: RateHistoryMigration },
  { name: '20261205000000-caller-positions', class: CallerPositionsMigration },
  { name: '20261206000000-oauth-client-accounts', class: OAuthClientAccountsMigration },
  { name: '20261207000000-credentials-version', class: CredentialsVersionMigration },
  { name: '20261213000000-tenant-keys', class: TenantKeysMigration },
  { name: '20261214000000-shard-local-row-triggers', class: ShardLocalRowTriggersMigration },
  {
    name: '20261215000000-references-cleared-by-triggers',
    class: ReferencesClearedByTriggersMigration,
  },
  {
    name: '20261216000000-current-rates-recorded-by-writes',
    class: CurrentRatesRecordedByWritesMigration,
  },
  {
    name: '20261221000000-credential-notices-by-writes',
    class: CredentialNoticesByWritesMigration,
  },
];

const modules: readonly ModuleDefinition[] = MODULES;

/** `<yyyymmddhhmmss>-<what>`: the timestamp orders them; the whole name is what the database stores. */
const MIGRATION_NAME = /^\d{14}-[a-z0-9-]+$/;

/**
 * Every migration, in order: the shared ones and every module's, by name (their timestamps).
 * Listed explicitly so no file globbing or dynamic import is needed. A name is what
 * `mikro_orm_migrations` records as applied, so it never changes, wherever its file lives.
 */
export const migrations: MigrationObject[] = [
  ...SHARED_MIGRATIONS,
  ...modules.flatMap((module) => module.migrations ?? []),
].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

for (const [i, { name }] of migrations.entries()) {
  if (!MIGRATION_NAME.test(name))
    throw new Error(`migration name ${name} is not <timestamp>-<what>`);
  if (name === migrations[i - 1]?.name) throw new Error(`migration ${name} is listed twice`);
}
