import type { EntityManager } from '@mikro-orm/postgresql';
import { ValidationError } from '../../core/errors';

/**
 * The `logins` table: every user's login, lower-cased, with the account and user it belongs to
 * (migration 20261217000000-logins). Signing in reads it first, so the user is then read by
 * account; its primary key keeps a login unique across accounts. Nothing in the database ties it
 * to `users` (on Citus it is a reference table, `users` is distributed), so every write that
 * creates, renames or deletes a user calls one of these in the same transaction.
 */

/** A user, by the keys of its row. */
export interface UserKey {
  accountId: number;
  id: number;
}

/** Whose a login is, or undefined. */
export async function ownerOfLogin(
  em: EntityManager,
  login: string,
): Promise<{ accountId: number; userId: number } | undefined> {
  const [row] = await em
    .getConnection()
    .execute<{ accountId: number; userId: number }[]>(
      'select account_id as "accountId", user_id as "userId" from logins where login = ?',
      [login.toLowerCase()],
      'all',
      em.getTransactionContext(),
    );
  return row;
}

/** Refuses a login another user has (in any account, in any case). */
export async function assertLoginFree(em: EntityManager, login: string): Promise<void> {
  if (await ownerOfLogin(em, login))
    throw ValidationError.field('Staff', 'login', 'is already taken');
}

/**
 * Records a user's login: a new user's (`previous` absent) or a changed one. A login taken since
 * `assertLoginFree` fails on the key `logins_login_unique`, which the error catalogue answers as
 * the same "is already taken".
 */
export async function recordLogin(
  em: EntityManager,
  user: UserKey & { login: string },
  previous?: string,
): Promise<void> {
  const login = user.login.toLowerCase();
  if (previous === undefined)
    await execute(em, 'insert into logins (login, account_id, user_id) values (?, ?, ?)', [
      login,
      user.accountId,
      user.id,
    ]);
  else if (previous.toLowerCase() !== login)
    await execute(em, 'update logins set login = ? where account_id = ? and user_id = ?', [
      login,
      user.accountId,
      user.id,
    ]);
}

/** Frees a deleted user's login. */
export async function forgetLogin(em: EntityManager, user: UserKey): Promise<void> {
  await execute(em, 'delete from logins where account_id = ? and user_id = ?', [
    user.accountId,
    user.id,
  ]);
}

async function execute(em: EntityManager, sql: string, params: unknown[]): Promise<void> {
  await em.getConnection().execute(sql, params, 'run', em.getTransactionContext());
}
