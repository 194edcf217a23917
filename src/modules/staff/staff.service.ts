import { raw, type EntityManager, type FilterQuery } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, type PasswordHasher } from './passwords';
import { isManagerOrOwner, isOwner } from '../../core/viewer';
import { PermissionDeniedError, ValidationError } from '../../core/errors';
import type { RequestContext } from '../../core/request-context';
import {
  findByUuids,
  type OrderSpec,
  StaffType,
  compileFilter,
  findPage,
  type PageRequest,
  idempotentTransaction,
  assertUuidFree,
  assignDefined,
  fields,
  findLocated,
  inTransaction,
  validate,
  type DeletionCascade,
  type Locator,
  type ShiftCascades,
  timeZoneField,
} from '../common';
import { assertStaffRoom } from './staff-limits';
import { enqueueConfirmationEmail } from './confirmation-email';
import {
  STAFF_FILTER_FIELDS,
  type CreateStaffInput,
  type StaffFilter,
  type StaffInput,
} from './graphql/staff.inputs';
import { Staff } from './staff.entity';
import { assertStaffQueryReadable, mayReadStaff, readableStaffWhere } from './staff.policy';

const login = fields
  .requiredText(255)
  .refine(
    (s) => !s.includes(':'),
    'must not contain ":" (it separates login and password in Basic auth)',
  );
const password = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`)
  .refine((s) => !s.includes('\u0000'), 'must not contain NUL characters');
const timeZone = timeZoneField();
const profile = {
  firstName: fields.text(),
  lastName: fields.text(),
  emailAddress: fields
    .text()
    .refine((s) => s === '' || /^[^\s@]+@[^\s@]+$/.test(s), 'is not an e-mail address'),
  timeZone,
  type: z.enum([StaffType.MANAGER, StaffType.STAFF]),
  active: z.boolean(),
  hourlyRateCents: fields.cents().nullable(),
  costRateCents: fields.cents().nullable(),
};
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
  passwordChanged(em: EntityManager, userId: number): Promise<void>;
}

/** What a staff member may change on their own record. */
const SELF_EDITABLE = new Set(['firstName', 'lastName', 'emailAddress', 'timeZone', 'password']);

export class StaffService {
  constructor(
    private readonly hasher: PasswordHasher,
    private readonly passwordChanges: PasswordChangeListener,
    private readonly cascades: ShiftCascades,
  ) {}

  async get(ctx: RequestContext, locator: Locator): Promise<Staff> {
    const staff = await findLocated(ctx.em, Staff, 'Staff', locator);
    if (!mayReadStaff(ctx.viewer, staff)) throw new PermissionDeniedError('read', 'Staff');
    return staff;
  }

  /** The staff among `ids` (lower-case uuids) that `get` would answer, in one statement: for `nodes`. */
  async getMany(ctx: RequestContext, ids: readonly string[]): Promise<Map<string, Staff | Error>> {
    const found = await findByUuids(ctx.em, Staff, ids);
    return new Map(
      [...found].map(([id, staff]) => [
        id,
        mayReadStaff(ctx.viewer, staff) ? staff : new PermissionDeniedError('read', 'Staff'),
      ]),
    );
  }

  async list(
    ctx: RequestContext,
    filter: StaffFilter | undefined,
    order: OrderSpec[] | undefined,
    page: PageRequest,
  ) {
    assertStaffQueryReadable(ctx.viewer, filter, order);
    const where: FilterQuery<Staff> = {
      $and: [
        compileFilter<Staff>('Staff', filter, STAFF_FILTER_FIELDS),
        readableStaffWhere(ctx.viewer),
      ],
    };
    return findPage(ctx, Staff, 'Staff', where, order, page);
  }

  async create(ctx: RequestContext, input: CreateStaffInput): Promise<Staff> {
    if (!isManagerOrOwner(ctx.viewer)) throw new PermissionDeniedError('create', 'Staff');
    const data = validate('Staff', createSchema, input);
    if (data.type === StaffType.MANAGER && !isOwner(ctx.viewer)) {
      throw new PermissionDeniedError(
        'create',
        'Staff',
        'Create denied: only the owner may create managers',
      );
    }
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
      return staff;
    });
  }

  async update(ctx: RequestContext, locator: Locator, input: StaffInput): Promise<Staff> {
    const data = validate('Staff', updateSchema, input);
    const passwordHash =
      data.password !== undefined ? await this.hasher.hash(data.password) : undefined;
    return inTransaction(ctx, async (tx) => {
      const staff = await findLocated(tx.em, Staff, 'Staff', locator);
      this.assertMayUpdate(tx, staff, data);
      if (data.login !== undefined && data.login.toLowerCase() !== staff.login.toLowerCase()) {
        await assertLoginFree(tx.em, data.login);
      }
      const activated =
        data.active === true && !staff.active
          ? await assertStaffRoom(tx.em, tx.viewer.accountId, 1)
          : undefined;
      const { password: _ignored, ...rest } = data;
      assignDefined(staff, {
        ...rest,
        ...(passwordHash ? { passwordHash } : {}),
      });
      // After the assignment, so the e-mail names the user as this update leaves them.
      if (activated) await enqueueConfirmationEmail(tx.em, activated, staff, 'enabled');
      await tx.em.flush();
      if (passwordHash) await this.passwordChanges.passwordChanged(tx.em, staff.id);
      return staff;
    });
  }

  async setActive(ctx: RequestContext, locator: Locator, active: boolean): Promise<Staff> {
    return inTransaction(ctx, async (tx) => {
      const staff = await findLocated(tx.em, Staff, 'Staff', locator);
      this.assertMayUpdate(tx, staff, { active });
      const activated =
        active && !staff.active ? await assertStaffRoom(tx.em, tx.viewer.accountId, 1) : undefined;
      staff.active = active;
      if (activated) await enqueueConfirmationEmail(tx.em, activated, staff, 'enabled');
      await tx.em.flush();
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
      if (!isManagerOrOwner(tx.viewer)) throw new PermissionDeniedError('delete', 'Staff');
      if (staff.type === StaffType.OWNER)
        throw new PermissionDeniedError(
          'delete',
          'Staff',
          'Delete denied: the account owner cannot be deleted',
        );
      if (staff.id === tx.viewer.id)
        throw new PermissionDeniedError(
          'delete',
          'Staff',
          'Delete denied: you cannot delete yourself',
        );
      if (staff.type === StaffType.MANAGER && !isOwner(tx.viewer))
        throw new PermissionDeniedError(
          'delete',
          'Staff',
          'Delete denied: only the owner may delete managers',
        );
      // Their shifts go with them (ON DELETE CASCADE); each deletion is announced first (events,
      // webhooks), in this transaction.
      const cascade = await this.cascades.deleting(tx, { user: staff.id });
      await tx.em.remove(staff).flush();
      return { staff, cascade };
    });
  }

  private assertMayUpdate(
    ctx: RequestContext,
    staff: Staff,
    changes: Record<string, unknown>,
  ): void {
    // Only real changes count: legacy clients PUT back the whole record they read.
    const changed = Object.keys(changes).filter(
      (k) => changes[k] !== undefined && (k === 'password' || changes[k] !== Reflect.get(staff, k)),
    );
    if (!isManagerOrOwner(ctx.viewer)) {
      if (staff.id !== ctx.viewer.id || changed.some((k) => !SELF_EDITABLE.has(k))) {
        throw new PermissionDeniedError('update', 'Staff');
      }
      return;
    }
    if (!isOwner(ctx.viewer)) {
      // A manager manages staff members and their own profile; managers are the owner's to manage.
      const otherManager = staff.type !== StaffType.STAFF && staff.id !== ctx.viewer.id;
      const promotes = changed.includes('type') && changes.type === StaffType.MANAGER;
      if (otherManager || promotes || (staff.id === ctx.viewer.id && changed.includes('type'))) {
        throw new PermissionDeniedError(
          'update',
          'Staff',
          'Update denied: only the owner may manage managers',
        );
      }
    }
    if (staff.type === StaffType.OWNER) {
      if (changed.includes('type') || changes.active === false) {
        throw new PermissionDeniedError(
          'update',
          'Staff',
          'Update denied: the owner stays an active owner',
        );
      }
    }
    if (staff.id === ctx.viewer.id && changes.active === false) {
      throw new PermissionDeniedError(
        'update',
        'Staff',
        'Update denied: you cannot disable yourself',
      );
    }
  }
}

async function assertLoginFree(em: EntityManager, login: string): Promise<void> {
  const taken = await em.count(
    Staff,
    {
      [raw((alias: string) => `lower(${alias}.login)`)]: login.toLowerCase(),
    } as FilterQuery<Staff>,
    { filters: false },
  );
  if (taken > 0) throw ValidationError.field('Staff', 'login', 'is already taken');
}
