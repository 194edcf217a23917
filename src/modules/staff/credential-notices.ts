import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The channel on which the service announces, at commit, that the credentials of a user may have
 * changed; the payload is the user's id. Each process that listens (with a PostgreSQL server)
 * checks that user's open connections (GraphQL subscriptions) again.
 *
 * The writes announce it themselves, in their transaction (NOTIFY is delivered at commit, once per
 * distinct payload, and not at all on rollback): a user disabled, deleted, given another role,
 * login or password (StaffService), and OAuth access tokens revoked, rotated or gone with their
 * application (the oauth module and the OAuth providers). Triggers did it until migration
 * 20261221000000-credential-notices-by-writes: on Citus a trigger runs on a worker, where no one
 * listens, and NOTIFY there fails a transaction that wrote more than one worker at commit. What
 * changes credentials another way (an operator's SQL) is caught by each process's periodic
 * re-check (SUBSCRIPTION_RECHECK_MS).
 */
export const CREDENTIALS_CHANNEL = 'timetrack_credentials';

/** Announces, at the commit of `em`'s transaction, that these users' credentials may have changed. */
export async function announceCredentialChange(
  em: EntityManager,
  userIds: readonly number[],
): Promise<void> {
  if (userIds.length === 0) return;
  await em
    .getConnection()
    .execute(
      'select pg_notify(?, id::text) from unnest(?::int[]) as id',
      [CREDENTIALS_CHANNEL, `{${userIds.join(',')}}`],
      'all',
      em.getTransactionContext(),
    );
}
