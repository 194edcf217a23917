import type { EntityManager } from '@mikro-orm/postgresql';
import { ownerOfLogin } from './logins';
import type { Staff } from './staff.entity';

/** What signing in reads of a user. */
export interface SignInUser extends Pick<
  Staff,
  'id' | 'uuid' | 'login' | 'type' | 'active' | 'passwordHash'
> {
  accountId: number;
  staffSeeMoney: boolean;
  /**
   * Raised by every password change (OAuthClientService.passwordChanged). Read in the same row as
   * `passwordHash`, so it is the version of the password that signing in verifies: the approval
   * page stamps it on what it issues, and a grant is honoured only while it is still the user's.
   */
  credentialsVersion: number;
}

/**
 * The user of a login, as one plain row: this read runs on every request, so it skips the ORM's
 * query building and hydration (a third of a cached sign-in's cost). Logins are unique across
 * accounts: `logins` names the account, and the user is read in it (on Citus, a router query to
 * the worker that holds the account).
 */
export async function findSignInUser(em: EntityManager, login: string): Promise<SignInUser | null> {
  const owner = await ownerOfLogin(em, login);
  if (!owner) return null;
  const rows = await em
    .getConnection()
    .execute<SignInUser[]>(
      'select id, uuid, login, type, active, password_hash as "passwordHash", credentials_version as "credentialsVersion", account_id as "accountId", (select staff_see_money from accounts a where a.id = ?) as "staffSeeMoney" from users where account_id = ? and id = ?',
      [owner.accountId, owner.accountId, owner.userId],
    );
  return rows[0] ?? null;
}
