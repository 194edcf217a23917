import { z } from 'zod';
import { ValidationError } from '../../core/errors';
import type { RequestContext } from '../../core/request-context';
import { mayReadCosts, mayReadMoney } from '../accounts';
import { intArray } from '../paging';
import {
  fields,
  inTransaction,
  type Locator,
  rateEntryConflict,
  type RateOwner,
  validate,
} from '../writes';
import type { ProjectService } from '../projects';
import type { StaffService } from '../staff';
import { assertMaySetRateOf, assertMaySetRates, mayReadRatesOf } from './rate.policy';

/** Which rate: what an hour bills (a project's or a user's), or what it costs (a user's). */
export enum RateKind {
  BILLABLE = 'billable',
  COST = 'cost',
}

/** One entry of a rate history: `cents` from `effectiveFrom` (null: since always) until the next. */
export interface RateEntry {
  id: number;
  kind: RateKind;
  cents: number | null;
  effectiveFrom: Date | null;
}

export interface SetRate {
  project?: Locator | null;
  user?: Locator | null;
  kind?: RateKind | null;
  cents: number | null;
  effectiveFrom: Date;
}

const setSchema = z.object({
  kind: z.enum(RateKind).nullish(),
  cents: fields.cents().nullable(),
  effectiveFrom: z.date(),
});

/** An entry written or removed, with whose history it is: their current rate may have changed. */
export interface RateChange {
  rate: RateEntry;
  /** The integer id of the project or user whose history it is. */
  projectId: number | null;
  userId: number | null;
}

function changeOf(owner: RateOwner, rate: RateEntry): RateChange {
  return {
    rate,
    projectId: owner.column === 'project_id' ? owner.id : null,
    userId: owner.column === 'user_id' ? owner.id : null,
  };
}

/**
 * Rate histories (the `rates` table; docs/reports.md#rates-over-time). The database prices every
 * shift by the rates in force at its start and prices again the shifts a change concerns; this
 * service writes the history and keeps each current rate (`Project.hourlyRateCents`,
 * `Staff.hourlyRateCents`, `Staff.costRateCents`) the one in force now. Money: read and written
 * by those who read money (accounts' mayReadMoney; cost rates: mayReadCosts), written by the owner
 * and the managers, who set rates.
 */
export class RateService {
  constructor(
    private readonly projects: ProjectService,
    private readonly staff: StaffService,
  ) {}

  /**
   * The history of a project's billable rate, oldest first; empty for a caller who reads no
   * money. The histories of every project of the request come from one query.
   */
  async ofProject(ctx: RequestContext, projectId: number): Promise<RateEntry[]> {
    return this.history(ctx, 'project_id', projectId);
  }

  /** A user's billable and cost rates (by kind, oldest first), batched as `ofProject`. */
  async ofUser(ctx: RequestContext, userId: number): Promise<RateEntry[]> {
    if (!mayReadRatesOf(ctx.viewer, userId)) return [];
    return this.history(ctx, 'user_id', userId);
  }

  /**
   * Sets the rate in force from `effectiveFrom` (replacing an entry from the same instant): past
   * instants reprice the shifts that started since; `cents: null` means no rate from then (a
   * project's shifts then bill at their users' rates).
   */
  async set(ctx: RequestContext, input: SetRate): Promise<RateChange> {
    const data = validate('Rate', setSchema, input);
    const kind = data.kind ?? RateKind.BILLABLE;
    return inTransaction(ctx, async (tx) => {
      const owner = await this.ownerOf(tx, input);
      if (owner.column === 'project_id' && kind === RateKind.COST)
        throw ValidationError.field('Rate', 'kind', 'a project has no cost rate; users do');
      await this.lockOwner(tx, owner);
      const rows = await tx.em.getConnection().execute<{ id: number }[]>(
        `insert into rates (account_id, ${owner.column}, kind, cents, effective_from) values (?, ?, ?, ?, ?)
         ${rateEntryConflict(owner.column)} returning id`,
        [owner.accountId, owner.id, kind, data.cents, data.effectiveFrom],
        'all',
        tx.em.getTransactionContext(),
      );
      await this.keepCurrent(tx, owner, kind);
      return changeOf(owner, {
        id: rows[0]!.id,
        kind,
        cents: data.cents,
        effectiveFrom: data.effectiveFrom,
      });
    });
  }

  /** Removes an entry of a history; the shifts it priced take the rates in force without it. */
  async delete(ctx: RequestContext, id: number): Promise<RateChange> {
    assertMaySetRates(ctx.viewer, 'delete');
    return inTransaction(ctx, async (tx) => {
      const connection = tx.em.getConnection();
      const [found] = await connection.execute<Pick<RateRow, 'project_id' | 'user_id'>[]>(
        'select project_id, user_id from rates where id = ? and account_id = ?',
        [id, tx.viewer.accountId],
        'all',
        tx.em.getTransactionContext(),
      );
      if (!found) throw new ValidationError('Rate', [{ field: 'id', message: 'names no rate' }]);
      // The rule of setting it: the caller must see the project, or may manage the user.
      const owner = await this.ownerOf(tx, {
        project: found.project_id ? { legacyId: found.project_id } : null,
        user: found.user_id ? { legacyId: found.user_id } : null,
      });
      await this.lockOwner(tx, owner);
      const [row] = await connection.execute<RateRow[]>(
        `delete from rates where id = ? and account_id = ?
         returning id, project_id, user_id, kind, cents, ${EFFECTIVE_FROM}`,
        [id, tx.viewer.accountId],
        'all',
        tx.em.getTransactionContext(),
      );
      // Gone meanwhile: a write that held the row deleted it.
      if (!row) throw new ValidationError('Rate', [{ field: 'id', message: 'names no rate' }]);
      await this.keepCurrent(tx, owner, row.kind);
      return changeOf(owner, entryOf(row));
    });
  }

  private async history(
    ctx: RequestContext,
    column: RateOwner['column'],
    id: number,
  ): Promise<RateEntry[]> {
    if (!mayReadMoney(ctx.viewer)) return [];
    const rows = await ctx.loaders.children(
      `rates:${column}`,
      id,
      (ids: readonly number[]) =>
        ctx.em.getConnection().execute<RateRow[]>(
          `select id, project_id, user_id, kind, cents, ${EFFECTIVE_FROM} from rates
            where account_id = ? and ${column} = any(?::int[]) order by kind, rates.effective_from`,
          [ctx.viewer.accountId, intArray(ids)],
          'all',
          ctx.em.getTransactionContext(),
        ),
      (row) => row[column]!,
    );
    return rows
      .filter((row) => (row.kind === RateKind.COST ? mayReadCosts(ctx.viewer) : true))
      .map(entryOf);
  }

  /** The project or user a rate is for, as the caller may name it; the owner and managers only. */
  private async ownerOf(
    ctx: RequestContext,
    input: Pick<SetRate, 'project' | 'user'>,
  ): Promise<RateOwner> {
    assertMaySetRates(ctx.viewer, 'update');
    const named = [input.project, input.user].filter((x) => x != null).length;
    if (named !== 1)
      throw ValidationError.field(
        'Rate',
        'project',
        named ? 'give project or user, not both' : 'give project or user',
      );
    if (input.project) {
      const project = await this.projects.get(ctx, input.project);
      return { column: 'project_id', id: project.id, accountId: ctx.viewer.accountId };
    }
    const user = await this.staff.get(ctx, input.user!);
    assertMaySetRateOf(ctx.viewer, user);
    return { column: 'user_id', id: user.id, accountId: ctx.viewer.accountId };
  }

  /**
   * Rate writes of one project or user take turns: each reads the history, with the others'
   * entries committed, to keep the current rate column (keepCurrent). Without it, two writes at
   * once each saw only their own entry, and the later commit could set the wrong rate.
   */
  private async lockOwner(ctx: RequestContext, owner: RateOwner): Promise<void> {
    await ctx.em
      .getConnection()
      .execute(
        `select id from ${owner.column === 'project_id' ? 'projects' : 'users'} where account_id = ? and id = ? for no key update`,
        [owner.accountId, owner.id],
        'all',
        ctx.em.getTransactionContext(),
      );
  }

  /**
   * The current rate column follows the rate in force now, so the interfaces that show one rate
   * (the legacy project and user) show that one. The database records no new entry for it: the
   * value is the history's own.
   */
  private async keepCurrent(ctx: RequestContext, owner: RateOwner, kind: RateKind): Promise<void> {
    await ctx.em
      .getConnection()
      .execute(
        ...currentRateUpdate(owner.column, kind, { accountId: owner.accountId, id: owner.id }),
        'run',
        ctx.em.getTransactionContext(),
      );
  }
}

/**
 * In milliseconds since 1970 (the driver's text form of timestamptz is not ISO 8601), and
 * `-infinity` (since always) as null.
 */
// From an interval, not from the instant: that extract is immutable, and Citus takes no other
// function in a RETURNING clause (a deleted entry's).
const EFFECTIVE_FROM = `case when effective_from = '-infinity' then null else (extract(epoch from effective_from - timestamptz 'epoch') * 1000)::bigint end as effective_from_ms`;

interface RateRow {
  id: number;
  project_id: number | null;
  user_id: number | null;
  kind: RateKind;
  cents: number | null;
  effective_from_ms: string | null;
}

function entryOf(row: RateRow): RateEntry {
  return {
    id: row.id,
    kind: row.kind,
    cents: row.cents,
    effectiveFrom: row.effective_from_ms === null ? null : new Date(Number(row.effective_from_ms)),
  };
}

/**
 * The statement that sets an account's current rate columns to the rates in force now: of one
 * project or user (`id`), or of those with an entry that came into force after `since` (the
 * current-rate clock; every one with a history when `since` is absent). Every table is read by the
 * account, so that on Citus it runs on the worker that holds it.
 */
export function currentRateUpdate(
  column: 'project_id' | 'user_id',
  kind: RateKind,
  scope: { readonly accountId: number } & ({ readonly id: number } | { readonly since?: Date }),
): [sql: string, params: unknown[]] {
  const [table, current, also] =
    column === 'project_id'
      ? // A project's rate "as entered" no longer says what the cents say.
        ['projects', 'hourly_rate_cents', ', hourly_rate = null']
      : ['users', kind === RateKind.BILLABLE ? 'hourly_rate_cents' : 'cost_rate_cents', ''];
  const account = scope.accountId;
  const [owners, params]: [string, unknown[]] =
    'id' in scope
      ? ['o.id = ?', [scope.id]]
      : scope.since
        ? [
            `o.id in (select ${column} from rates where account_id = ? and ${column} is not null and kind = ? and effective_from > ? and effective_from <= now())`,
            [account, kind, scope.since],
          ]
        : [
            `o.id in (select ${column} from rates where account_id = ? and ${column} is not null and kind = ?)`,
            [account, kind],
          ];
  return [
    `update ${table} t set ${current} = now_rate.cents${also}
       from (select o.id, (select cents from rates r where r.account_id = o.account_id and r.${column} = o.id and r.kind = ? and r.effective_from <= now()
                            order by r.effective_from desc limit 1) as cents
               from ${table} o where o.account_id = ? and ${owners}) now_rate
      where t.account_id = ? and t.id = now_rate.id and t.${current} is distinct from now_rate.cents`,
    [kind, account, ...params, account],
  ];
}
