import type { Knex } from '@mikro-orm/postgresql';
import type { MikroORM } from '@mikro-orm/postgresql';
import { lastResortLogger, type Logger } from '../../core/logger';
import { currentRateUpdate, RateKind } from './rate.service';

const SERIALIZATION_FAILURE = '40001';

/** How often entries that came into force are looked for: a rate set for the 1st shows by 00:01. */
export const CURRENT_RATE_CHECK_MS = 60_000;

/**
 * Time passing makes a rate entry set for later the one in force: this sets the current rate
 * columns (a project's and user's `hourlyRateCents`, a user's `costRateCents`, which lists filter
 * and sort by and the legacy interfaces show) to their histories' rates in force, at start and
 * every CURRENT_RATE_CHECK_MS. Writes of rates keep them at once (RateService); shifts are priced
 * from the histories whatever the columns say. Every process may run it: a column already right
 * is not written.
 */
export class CurrentRateClock {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();
  /**
   * The database's instant of the last round that went through: entries in force by then are
   * done (by that round, or by the write itself, which keeps its owner's column), so a round
   * looks only at those that came into force since. The first round looks at every history.
   */
  private since: Date | undefined;

  constructor(
    private readonly orm: MikroORM,
    private readonly log: Logger = lastResortLogger(),
    private readonly intervalMs = CURRENT_RATE_CHECK_MS,
  ) {}

  start(): void {
    const tick = () => {
      this.running = this.catchUp()
        .catch((error: unknown) => this.log.error({ err: error }, 'current rates: update failed'))
        .finally(() => {
          if (this.timer) this.timer = setTimeout(tick, this.intervalMs);
        });
    };
    this.timer = setTimeout(tick, 0);
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /**
   * Sets the current rate columns of entries that came into force since the last round (at first,
   * of every history) to their histories' rates now; answers how many changed. Account by account
   * (on Citus each a transaction on the one worker that holds it), each in a repeatable-read
   * transaction: a rate written meanwhile makes it fail (a serialization failure) instead of
   * writing back the rate it read before, which the history would then record as a new entry; the
   * next round does that account again, and the others find nothing left to do.
   */
  async catchUp(): Promise<number> {
    const knex = this.orm.em.getConnection().getKnex();
    const since = this.since;
    const [{ now }] = (await knex.raw('select now() as now')).rows as [{ now: Date }];
    const accounts = (
      await knex.raw(
        since
          ? 'select distinct account_id from rates where effective_from > ? and effective_from <= ?'
          : 'select distinct account_id from rates',
        since ? [since, now] : [],
      )
    ).rows as { account_id: number }[];
    let changed = 0;
    let complete = true;
    for (const { account_id: accountId } of accounts) {
      try {
        changed += await this.catchUpAccount(knex, accountId, since);
      } catch (error) {
        if ((error as { code?: string }).code !== SERIALIZATION_FAILURE) throw error;
        this.log.info(
          { accountId },
          'current rates: a rate was written meanwhile; again next round',
        );
        complete = false;
      }
    }
    if (complete) this.since = now;
    return changed;
  }

  private catchUpAccount(knex: Knex, accountId: number, since: Date | undefined): Promise<number> {
    return knex.transaction(
      async (trx) => {
        let changed = 0;
        for (const [column, kind] of [
          ['project_id', RateKind.BILLABLE],
          ['user_id', RateKind.BILLABLE],
          ['user_id', RateKind.COST],
        ] as const) {
          const [sql, params] = currentRateUpdate(column, kind, { accountId, since });
          changed += (await trx.raw(sql, params as Knex.RawBinding[])).rowCount ?? 0;
        }
        return changed;
      },
      { isolationLevel: 'repeatable read' },
    );
  }
}
