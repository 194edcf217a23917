import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, type PasswordHasher } from './passwords';
import { StaffType, declaredInputs } from '../common';
import { fields, validate } from '../writes';
import { assertLoginFree, recordLogin } from './logins';
import { Staff } from './staff.entity';
import { Account } from '../accounts';

/** The owner's profile, as a staff member's create writes it. */
const owner = declaredInputs(Staff, ['firstName', 'lastName', 'timeZone']);

export const createAccountSchema = z.object({
  login: fields.requiredText().refine((s) => !s.includes(':'), 'must not contain ":"'),
  password: z
    .string()
    .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
    .max(PASSWORD_MAX_LENGTH),
  email: fields
    .requiredText()
    .refine((s) => /^[^\s@]+@[^\s@]+$/.test(s), 'is not an e-mail address'),
  firstName: owner.firstName.default(''),
  lastName: owner.lastName.default(''),
  timeZone: owner.timeZone.default('UTC'),
  staffMax: z.number().int().min(0).max(1_000_000).nullable().default(null),
  timeMaxHours: z.number().min(0).max(500_000).nullable().default(null),
  name: fields.text().optional(),
  currency: fields.currency().default('USD'),
});
export type CreateAccountInput = z.input<typeof createAccountSchema>;

export interface CreateAccountOptions {
  /**
   * A transaction to create the account in (a savepoint of it), so that a caller building more on
   * the account (the demo seed) commits or rolls back all of it together.
   */
  readonly em?: EntityManager;
}

/**
 * What else opening an account sets up, in its transaction: the oauth module registers the web
 * app's client with the service's first account (OAuthClientService.accountOpened), handed in by
 * whoever opens one, so this module does not reach into another module's tables.
 */
export interface AccountOpeningListener {
  accountOpened(em: EntityManager, accountId: number): Promise<void>;
}

/**
 * Creates an account with its owner: an operator's act (CLI), not one of a signed-in user, so it
 * runs outside any tenant scope, in one transaction.
 */
export async function createAccount(
  orm: MikroORM,
  hasher: PasswordHasher,
  opened: AccountOpeningListener,
  input: CreateAccountInput,
  options: CreateAccountOptions = {},
): Promise<{ account: Account; owner: Staff }> {
  const data = validate('Account', createAccountSchema, input);
  const passwordHash = await hasher.hash(data.password);
  return (options.em ?? orm.em.fork()).transactional(async (em) => {
    await assertLoginFree(em, data.login);
    const account = em.create(Account, {
      name: data.name ?? (`${data.firstName} ${data.lastName}`.trim() || data.login),
      staffMax: data.staffMax,
      currency: data.currency,
      timeMaxSeconds: data.timeMaxHours === null ? null : Math.round(data.timeMaxHours * 3600),
    });
    await em.flush();
    const owner = em.create(Staff, {
      account,
      login: data.login,
      passwordHash,
      emailAddress: data.email,
      firstName: data.firstName,
      lastName: data.lastName,
      timeZone: data.timeZone,
      type: StaffType.OWNER,
      active: true,
    });
    await em.flush();
    await recordLogin(em, { accountId: account.id, id: owner.id, login: owner.login });
    await opened.accountOpened(em, account.id);
    return { account, owner };
  });
}
