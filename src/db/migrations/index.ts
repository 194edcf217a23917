import type { MigrationObject } from '@mikro-orm/core';
import { InitialMigration } from './20261121000000-initial.migration';
import { OutboxMigration } from './20261122000000-outbox.migration';
import { OAuthMigration } from './20261123000000-oauth.migration';
import { ProjectTotalsMigration } from './20261124000000-project-totals.migration';
import { IdempotencyKeysMigration } from './20261125000000-idempotency-keys.migration';
import { WebhooksMigration } from './20261127000000-webhooks.migration';
import { ProjectDefaultTagsTextMigration } from './20261128000000-project-default-tags-text.migration';
import { CredentialNotificationsMigration } from './20261129120000-credential-notifications.migration';
import { SyncMigration } from './20261130000000-sync.migration';
import { PageIndexesMigration } from './20261201000000-page-indexes.migration';
import { RateHistoryMigration } from './20261202000000-rate-history.migration';
import { StaffMoneyMigration } from './20261203000000-staff-money.migration';
import { TimeRollupsMigration } from './20261204000000-time-rollups.migration';
import { CallerPositionsMigration } from './20261205000000-caller-positions.migration';
import { OAuthClientAccountsMigration } from './20261206000000-oauth-client-accounts.migration';
import { CredentialsVersionMigration } from './20261207000000-credentials-version.migration';
import { OAuthTokenLifetimeMigration } from './20261208120000-oauth-token-lifetime.migration';
import { ProjectCodeMigration } from './20261209000000-project-code.migration';

/** Every migration, in order. Listed explicitly so no file globbing or dynamic import is needed. */
export const migrations: MigrationObject[] = [
  { name: '20261121000000-initial', class: InitialMigration },
  { name: '20261122000000-outbox', class: OutboxMigration },
  { name: '20261123000000-oauth', class: OAuthMigration },
  { name: '20261124000000-project-totals', class: ProjectTotalsMigration },
  { name: '20261125000000-idempotency-keys', class: IdempotencyKeysMigration },
  { name: '20261127000000-webhooks', class: WebhooksMigration },
  { name: '20261128000000-project-default-tags-text', class: ProjectDefaultTagsTextMigration },
  {
    name: '20261129120000-credential-notifications',
    class: CredentialNotificationsMigration,
  },
  { name: '20261130000000-sync', class: SyncMigration },
  { name: '20261201000000-page-indexes', class: PageIndexesMigration },
  { name: '20261202000000-rate-history', class: RateHistoryMigration },
  { name: '20261203000000-staff-money', class: StaffMoneyMigration },
  { name: '20261204000000-time-rollups', class: TimeRollupsMigration },
  { name: '20261205000000-caller-positions', class: CallerPositionsMigration },
  { name: '20261206000000-oauth-client-accounts', class: OAuthClientAccountsMigration },
  { name: '20261207000000-credentials-version', class: CredentialsVersionMigration },
  { name: '20261208120000-oauth-token-lifetime', class: OAuthTokenLifetimeMigration },
  { name: '20261209000000-project-code', class: ProjectCodeMigration },
];
