import type { Knex } from '@mikro-orm/postgresql';
import type { Config } from '../core/config';
import type { ThrottleScope, ThrottleStatus } from '../core/request-context';

/** Who an operation is charged to: its user's budget and its account's. */
export interface CostPayer {
  readonly userId: number;
  readonly accountId: number;
}

/**
 * What charging an operation did: its budgets' state, and when refused how long to wait. An
 * allowed charge can give points back (`refund`), answering the budgets' state after it.
 */
export type Charge =
  | {
      readonly allowed: true;
      readonly status: ThrottleStatus;
      refund(points: number): ThrottleStatus;
    }
  | {
      readonly allowed: false;
      readonly status: ThrottleStatus;
      /** Whole seconds until the refusing budget holds the operation's cost again. */
      readonly retryAfterSeconds: number;
    };

/** One budget's settings: how many points it holds full and how many it gets back a second. */
interface Bucket {
  readonly scope: ThrottleScope;
  readonly key: string;
  readonly maximum: number;
  readonly restoreRate: number;
}

/**
 * Each caller's GraphQL cost budget, the leaky bucket Shopify's Admin API documents: a budget holds
 * up to `maximumAvailable` points, an operation takes its estimated cost from it up front
 * (`requestedQueryCost`, the same estimate the per-operation limit uses), and it fills up again at
 * `restoreRate` points a second. An operation costing more than is left is refused, and told how
 * many seconds until enough has flowed back. A user and their account have a budget each; an
 * operation takes its cost from both, or from neither.
 *
 * rate-limiter-flexible (the request counters' library) keeps fixed windows in PostgreSQL, and its
 * bursty and queue wrappers are windows too, in memory: none refills continuously. So this is one
 * SQL statement on the same table (`rate_limits`), shared by every server process like the
 * counters: a budget is stored as the instant it will be full again (GCRA, the leaky bucket's
 * usual form), in `expire`, in microseconds since the epoch (milliseconds would round a cheap
 * operation at a high restore rate up to a whole millisecond's worth of points). A missing row, or
 * one whose instant has passed, is a full budget. Those microseconds are far beyond the
 * milliseconds rate-limiter-flexible's clean-up compares with, so it leaves these rows alone: one
 * per user and per account.
 * The decision is the upsert's own `WHERE`, which PostgreSQL evaluates on the row it has locked, so
 * concurrent operations of every process never take more than a budget holds. The account's
 * budget is charged only when the user's was; when the account's then refuses, the user's charge
 * is given back (a second statement, on refusals only).
 *
 * What an answer did not read is given back (`refund`, Shopify's `actualQueryCost`) without a
 * statement of its own: this process owes it to the budget and takes it off at its next charge
 * of that budget, in the same upsert. The answer reports the budget with the refund; until that
 * next charge other processes see the points as spent, which is never more than a budget holds.
 */
export class CostBudget {
  private readonly knex: Knex;
  private readonly limits: Config['costBudgets'];
  private readonly clock: () => number;
  /** Microseconds this process owes each budget (by key) back, taken off at its next charge. */
  private readonly owed = new Map<string, number>();

  constructor(knex: Knex, limits: Config['costBudgets'], clock: () => number = Date.now) {
    this.knex = knex;
    this.limits = limits;
    this.clock = clock;
  }

  /** Whether any budget is on (both 0: nothing is charged, nothing reported). */
  get enabled(): boolean {
    return this.limits.perUser > 0 || this.limits.perAccount > 0;
  }

  /**
   * Takes `cost` points from the payer's budgets, or nothing when one of them holds too few.
   * `force` takes them anyway, past empty (an operation that must not be refused): the budget
   * then reports 0 until it has restored what it went over by.
   */
  async charge(payer: CostPayer, cost: number, options: { force?: boolean } = {}): Promise<Charge> {
    const buckets = this.bucketsOf(payer);
    if (!buckets.length) throw new Error('No cost budget is on');
    const now = Math.round(this.clock() * 1000);
    const increments = buckets.map((bucket) => microsecondsFor(bucket, cost));
    const tolerances = buckets.map((bucket) => microsecondsFor(bucket, bucket.maximum));
    // Taken out before the statement, so that a concurrent charge does not take it too; put back
    // for a budget this charge does not reach.
    const owed = buckets.map((bucket) => this.take(bucket.key));
    // Bucket i is charged only if bucket i-1 was (`exists (select from charged_{i-1})`), so the
    // first refusal stops the chain; the plain reads see the rows as they were before this
    // statement (one snapshot), which is the state of the budget that refused.
    const charges = buckets.map((_, i) => {
      const after = i === 0 ? '' : `where exists (select 1 from charged_${i - 1})`;
      return `charged_${i} as (
        insert into rate_limits as b (key, points, expire)
        select ?, 0, ?::bigint + ?::bigint ${after}
        on conflict (key) do update
          set expire = greatest(coalesce(b.expire, 0) - ?::bigint, ?::bigint) + ?::bigint
          where ?::boolean
            or greatest(coalesce(b.expire, 0) - ?::bigint, ?::bigint) + ?::bigint - ?::bigint <= ?::bigint
        returning expire
      )`;
    });
    const bindings = buckets.flatMap((bucket, i) => {
      const [inc, back] = [increments[i]!, owed[i]!];
      const force = options.force === true;
      return [bucket.key, now, inc, back, now, inc, force, back, now, inc, now, tolerances[i]!];
    });
    const columns = buckets.map(
      (_, i) =>
        `(select expire from charged_${i}) as charged_${i}, (select expire from rate_limits where key = ?) as before_${i}`,
    );
    const sql = `with ${charges.join(', ')} select ${columns.join(', ')}`;
    const result = await this.knex.raw<{ rows: Record<string, string | null>[] }>(sql, [
      ...bindings,
      ...buckets.map((bucket) => bucket.key),
    ]);
    const row = result.rows[0]!;
    const full = (value: string | null | undefined) => (value == null ? now : Number(value));
    const refusedAt = buckets.findIndex((_, i) => row[`charged_${i}`] == null);
    for (let i = refusedAt < 0 ? buckets.length : refusedAt; i < buckets.length; i += 1)
      this.owe(buckets[i]!.key, owed[i]!);
    if (refusedAt < 0) {
      const fullAt = buckets.map((_, i) => full(row[`charged_${i}`]));
      return {
        allowed: true,
        status: tightest(buckets.map((bucket, i) => statusOf(bucket, fullAt[i]!, now))),
        refund: (points) => {
          const back = buckets.map((bucket) =>
            Math.floor((points * 1_000_000) / bucket.restoreRate),
          );
          buckets.forEach((bucket, i) => this.owe(bucket.key, back[i]!));
          return tightest(
            buckets.map((bucket, i) => statusOf(bucket, Math.max(now, fullAt[i]! - back[i]!), now)),
          );
        },
      };
    }
    // The budgets charged before the refusing one get their points back.
    for (let i = 0; i < refusedAt; i += 1)
      await this.knex.raw('update rate_limits set expire = expire - ?::bigint where key = ?', [
        increments[i]!,
        buckets[i]!.key,
      ]);
    const refusing = buckets[refusedAt]!;
    const status = statusOf(refusing, full(row[`before_${refusedAt}`]), now);
    const missing = Math.max(0, cost - status.currentlyAvailable);
    return {
      allowed: false,
      status,
      retryAfterSeconds: Math.max(1, Math.ceil(missing / refusing.restoreRate)),
    };
  }

  /** What this process owes a budget back, no longer owed. */
  private take(key: string): number {
    const owed = this.owed.get(key) ?? 0;
    this.owed.delete(key);
    return owed;
  }

  /**
   * Owes a budget `microseconds` more (rounded down from points: never more than a charge, rounded
   * up, took). Past 100,000 budgets owed a new one's refund is dropped: that budget then holds
   * less than it could, never more.
   */
  private owe(key: string, microseconds: number): void {
    if (microseconds <= 0) return;
    if (!this.owed.has(key) && this.owed.size >= 100_000) return;
    this.owed.set(key, (this.owed.get(key) ?? 0) + microseconds);
  }

  private bucketsOf(payer: CostPayer): Bucket[] {
    const buckets: Bucket[] = [];
    const { perUser, perAccount, userRestoreRate, accountRestoreRate } = this.limits;
    if (perUser > 0)
      buckets.push({
        scope: 'USER',
        key: `cost-user:${payer.userId}`,
        maximum: perUser,
        restoreRate: userRestoreRate,
      });
    if (perAccount > 0)
      buckets.push({
        scope: 'ACCOUNT',
        key: `cost-account:${payer.accountId}`,
        maximum: perAccount,
        restoreRate: accountRestoreRate,
      });
    return buckets;
  }
}

/** The microseconds a budget takes to get `points` back. */
function microsecondsFor(bucket: Bucket, points: number): number {
  return Math.ceil((points * 1_000_000) / bucket.restoreRate);
}

/** A budget's state at `now`, given the instant it will be full again (both in microseconds). */
function statusOf(bucket: Bucket, fullAt: number, now: number): ThrottleStatus {
  const emptyUs = Math.max(0, fullAt - now);
  // Whole points, rounded down (past the microsecond rounding of charges): never more than an
  // operation could take.
  const available = Math.max(
    0,
    Math.floor(bucket.maximum - (emptyUs * bucket.restoreRate) / 1_000_000 + 1e-3),
  );
  return {
    scope: bucket.scope,
    maximumAvailable: bucket.maximum,
    currentlyAvailable: available,
    restoreRate: bucket.restoreRate,
    fullInSeconds: Math.ceil(emptyUs / 1_000_000),
  };
}

/** The budget with the fewest points left is the one that will refuse first. */
function tightest(statuses: readonly ThrottleStatus[]): ThrottleStatus {
  return statuses.reduce((a, b) => (b.currentlyAvailable < a.currentlyAvailable ? b : a));
}
