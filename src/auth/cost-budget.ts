import type { Knex } from '@mikro-orm/postgresql';
import type { Config } from '../core/config';
import type { ThrottleScope, ThrottleStatus } from '../core/request-context';

/** Who an operation is charged to: its user's budget and its account's. */
export interface CostPayer {
  readonly userId: number;
  readonly accountId: number;
}

/** What charging an operation did: its budgets' state, and when refused how long to wait. */
export type Charge =
  | { readonly allowed: true; readonly status: ThrottleStatus }
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
 */
export class CostBudget {
  private readonly knex: Knex;
  private readonly limits: Config['costBudgets'];
  private readonly clock: () => number;

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
    // Bucket i is charged only if bucket i-1 was (`exists (select from charged_{i-1})`), so the
    // first refusal stops the chain; the plain reads see the rows as they were before this
    // statement (one snapshot), which is the state of the budget that refused.
    const charges = buckets.map((_, i) => {
      const after = i === 0 ? '' : `where exists (select 1 from charged_${i - 1})`;
      return `charged_${i} as (
        insert into rate_limits as b (key, points, expire)
        select ?, 0, ?::bigint + ?::bigint ${after}
        on conflict (key) do update
          set expire = greatest(coalesce(b.expire, 0), ?::bigint) + ?::bigint
          where ?::boolean
            or greatest(coalesce(b.expire, 0), ?::bigint) + ?::bigint - ?::bigint <= ?::bigint
        returning expire
      )`;
    });
    const bindings = buckets.flatMap((bucket, i) => {
      const inc = increments[i]!;
      const force = options.force === true;
      return [bucket.key, now, inc, now, inc, force, now, inc, now, tolerances[i]!];
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
    if (refusedAt < 0) {
      const statuses = buckets.map((bucket, i) => statusOf(bucket, full(row[`charged_${i}`]), now));
      return { allowed: true, status: tightest(statuses) };
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

  /**
   * Gives `points` back to both of the payer's budgets: what an operation was charged up front
   * past what it read (Shopify's `actualQueryCost`). Answers where the tighter budget stands.
   */
  async refund(payer: CostPayer, points: number): Promise<ThrottleStatus> {
    const buckets = this.bucketsOf(payer);
    const now = Math.round(this.clock() * 1000);
    // A budget is never fuller than full: an instant already past is as good as now.
    const result = await this.knex.raw<{ rows: { key: string; expire: string }[] }>(
      `update rate_limits set expire = greatest(expire - case key ${buckets.map(() => 'when ? then ?::bigint').join(' ')} end, ?::bigint)
       where key in (${buckets.map(() => '?').join(', ')}) returning key, expire`,
      [
        // Rounded down, never more than the charge (rounded up) took.
        ...buckets.flatMap((bucket) => [
          bucket.key,
          Math.floor((points * 1_000_000) / bucket.restoreRate),
        ]),
        now,
        ...buckets.map((bucket) => bucket.key),
      ],
    );
    const fullAt = new Map(result.rows.map((row) => [row.key, Number(row.expire)]));
    return tightest(buckets.map((bucket) => statusOf(bucket, fullAt.get(bucket.key) ?? now, now)));
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
