import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, type PasswordHasher } from './passwords';
import type { RequestContext } from '../../core/request-context';
import { StaffType, declaredInputs } from '../common';
import type { OrderSpec } from '../../core/list-shapes';
import { declaredWhere, type ListSource } from '../paging';
import {
  findByUuids,
  idempotentTransaction,
  assertUuidFree,
  assignDefined,
  fields,
  findLocated,
  inTransaction,
  recordCurrentRate,
  validate,
  type DeletionCascade,
  type Locator,
  type ShiftCascades,
} from '../writes';
import { assertStaffRoom } from './staff-limits';
import { enqueueConfirmationEmail } from './confirmation-email';
import type { NewStaff, StaffChanges } from './staff.changes';
import { announceCredentialChange } from './credential-notices';
import { assertLoginFree, forgetLogin, recordLogin, type UserKey } from './logins';
import { Staff } from './staff.entity';
import { readableStaffWhere } from './staff.policy';
import {
  assertMayCreateStaff,
  assertMayDeleteStaff,
  assertMayReadStaff,
  assertMayUpdateStaff,
  staffReadDenial,
} from './staff.policy';

const { login, ...profile } = declaredInputs(Staff, [
  'login',
  'firstName',
  'lastName',
  'emailAddress',
  'timeZone',
  'type',
  'active',
  'hourlyRateCents',
  'costRateCents',
]);
const password = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`)
  .refine((s) => !s.includes('\u0000'), 'must not contain NUL characters');
const optionalProfile = z.object(profile).partial().shape;
const createSchema = z.object({
  id: fields.uuid().nullish(),
  login,
  password,
  ...optionalProfile,
});
const updateSchema = z.object({
  login: login.optional(),
  password: password.optional(),
  ...optionalProfile,
});

/**
 * What else must end when a user's password is set, in the same transaction: the authorisations
 * they gave applications (OAuth tokens, which otherwise outlive the password by up to 14 days;
 * issue 20, finding 11). The oauth module does it (OAuthClientService), handed in by
 * createServices, so this module does not reach into another module's tables.
 */
export interface PasswordChangeListener {
  passwordChanged(em: EntityManager, user: UserKey): Promise<void>;
}

export class StaffService {
  constructor(
    private readonly hasher: PasswordHasher,
    private readonly passwordChanges: PasswordChangeListener,
    private readonly cascades: ShiftCascades,
  ) {}

  async get(ctx: RequestContext, locator: Locator): Promise<Staff> {
    const staff = await findLocated(ctx.em, Staff, 'Staff', locator);
    assertMayReadStaff(ctx.viewer, staff);
    return staff;
  }

  /** The staff among `ids` (lower-case uuids) that `get` would answer, in one statement: for `nodes`. */
  async getMany(ctx: RequestContext, ids: readonly string[]): Promise<Map<string, Staff | Error>> {
    const found = await findByUuids(ctx.em, Staff, ids);
    return new Map(
      [...found].map(([id, staff]) => [id, staffReadDenial(ctx.viewer, staff) ?? staff]),
    );
  }

  /** The staff records the caller may list by the filter and order, before paging. */
  async listSource(
    ctx: RequestContext,
    filter: object | undefined,
    order: OrderSpec[] | undefined,
  ): Promise<ListSource<Staff>> {
    const where: FilterQuery<Staff> = {
      $and: [
        declaredWhere(ctx.viewer, 'Staff', Staff, filter, order),
        readableStaffWhere(ctx.viewer),
      ],
    };
    return { entityClass: Staff, entity: 'Staff', where, order };
  }

  async create(ctx: RequestContext, input: NewStaff): Promise<Staff> {
    assertMayCreateStaff(ctx.viewer);
    const data = validate('Staff', createSchema, input);
    assertMayCreateStaff(ctx.viewer, data.type);
    const passwordHash = await this.hasher.hash(data.password);
    // The password stays out of the stored request hash: a retry is recognised by everything else.
    const act = {
      name: 'createStaff',
      request: { ...input, password: undefined },
      entityClass: Staff,
      entity: 'Staff',
    } as const;
    return idempotentTransaction(ctx, act, async (tx) => {
      if (data.id) await assertUuidFree(tx.em, 'Staff', data.id);
      await assertLoginFree(tx.em, data.login);
      // Checked before the new row exists: auto-flush would otherwise count it twice.
      const account =
        (data.active ?? true) ? await assertStaffRoom(tx.em, tx.viewer.accountId, 1) : undefined;
      const staff = tx.em.create(Staff, {
        account: tx.viewer.accountId,
        login: data.login,
        passwordHash,
        firstName: data.firstName ?? '',
        lastName: data.lastName ?? '',
        emailAddress: data.emailAddress ?? '',
        timeZone: data.timeZone ?? 'UTC',
        type: data.type ?? StaffType.STAFF,
        active: data.active ?? true,
        hourlyRateCents: data.hourlyRateCents ?? null,
        costRateCents: data.costRateCents ?? null,
        ...(data.id ? { uuid: data.id } : {}),
      });
      // An inactive user costs nothing yet: the e-mail waits until it is enabled.
      if (account) await enqueueConfirmationEmail(tx.em, account, staff, 'created');
      await tx.em.flush();
      await recordLogin(tx.em, {
        accountId: tx.viewer.accountId,
        id: staff.id,
        login: staff.login,
      });
      await recordRates(tx, staff, undefined);
      return staff;
    });
  }

  async update(ctx: RequestContext, locator: Locator, input: StaffChanges): Promise<Staff> {
    const data = validate('Staff', updateSchema, input);
    const passwordHash =
      data.password !== undefined ? await this.hasher.hash(data.password) : undefined;
    return inTransaction(ctx, async (tx) => {
      const staff = await findLocated(tx.em, Staff, 'Staff', locator);
      assertMayUpdateStaff(tx.viewer, staff, data);
      if (data.login !== undefined && data.login.toLowerCase() !== staff.login.toLowerCase()) {
        await assertLoginFree(tx.em, data.login);
      }
      const activated =
        data.active === true && !staff.active
          ? await assertStaffRoom(tx.em, tx.viewer.accountId, 1)
          : undefined;
      const { password: _ignored, ...rest } = data;
      const ratesBefore = ratesOf(staff);
      const credentialsBefore = credentialsOf(staff);
      const loginBefore = staff.login;
      assignDefined(staff, {
        ...rest,
        ...(passwordHash ? { passwordHash } : {}),
      });
      // After the assignment, so the e-mail names the user as this update leaves them.
      if (activated) await enqueueConfirmationEmail(tx.em, activated, staff, 'enabled');
      await tx.em.flush();
      await recordLogin(
        tx.em,
        { accountId: tx.viewer.accountId, id: staff.id, login: staff.login },
        loginBefore,
      );
      await recordRates(tx, staff, ratesBefore);
      if (credentialsOf(staff) !== credentialsBefore)
        await announceCredentialChange(tx.em, [staff.id]);
      if (passwordHash)
        await this.passwordChanges.passwordChanged(tx.em, {
          accountId: tx.viewer.accountId,
          id: staff.id,
        });
      return staff;
    });
  }

  async setActive(ctx: RequestContext, locator: Locator, active: boolean): Promise<Staff> {
    return inTransaction(ctx, async (tx) => {
      const staff = await findLocated(tx.em, Staff, 'Staff', locator);
      assertMayUpdateStaff(tx.viewer, staff, { active });
      const activated =
        active && !staff.active ? await assertStaffRoom(tx.em, tx.viewer.accountId, 1) : undefined;
      const changed = staff.active !== active;
      staff.active = active;
      if (activated) await enqueueConfirmationEmail(tx.em, activated, staff, 'enabled');
      await tx.em.flush();
      if (changed) await announceCredentialChange(tx.em, [staff.id]);
      return staff;
    });
  }

  /** Deletes a user with their shifts; answers them as they were and what the deletion changed. */
  async delete(
    ctx: RequestContext,
    locator: Locator,
  ): Promise<{ staff: Staff; cascade: DeletionCascade }> {
    return inTransaction(ctx, async (tx) => {
      const staff = await findLocated(tx.em, Staff, 'Staff', locator);
      assertMayDeleteStaff(tx.viewer, staff);
      // Their shifts go with them (ON DELETE CASCADE); each deletion is announced first (events,
      // webhooks), in this transaction.
      const cascade = await this.cascades.deleting(tx, { user: staff.id });
      await tx.em.remove(staff).flush();
      await forgetLogin(tx.em, { accountId: tx.viewer.accountId, id: staff.id });
      await announceCredentialChange(tx.em, [staff.id]);
      return { staff, cascade };
    });
  }
}

/** What signing in and a connection's rights depend on, as one comparable value. */
function credentialsOf(staff: Staff): string {
  return JSON.stringify([staff.active, staff.type, staff.login, staff.passwordHash]);
}

function ratesOf(staff: Staff) {
  return { billable: staff.hourlyRateCents, cost: staff.costRateCents };
}

/** The user's rates, as the write just left them, in their histories: all when `before` is absent (a new user). */
async function recordRates(
  tx: RequestContext,
  staff: Staff,
  before: ReturnType<typeof ratesOf> | undefined,
): Promise<void> {
  const owner = { column: 'user_id', accountId: tx.viewer.accountId, id: staff.id } as const;
  const now = ratesOf(staff);
  for (const kind of ['billable', 'cost'] as const)
    if (!before || now[kind] !== before[kind])
      await recordCurrentRate(tx, owner, kind, now[kind], !before);
}
