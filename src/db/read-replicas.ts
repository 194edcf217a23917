import { MikroORM, type Knex } from '@mikro-orm/postgresql';
import { withDeadline } from '../core/deadline';
import type { Logger } from '../core/logger';
import { installConnectionLanes } from './connection-lanes';
import { ormOptions, type OrmConnectionSettings } from './orm-options';

/** How often each replica's replay position (and the primary's WAL position) is read. */
export const REPLICA_CHECK_MS = 250;
/** How long one check of a replica may take before it counts as down. */
const CHECK_DEADLINE_MS = 2_000;

/**
 * - `starting`: not checked yet;
 * - `streaming`: in recovery, at most REPLICA_MAX_LAG_MS behind the primary: it takes reads;
 * - `lagging`: further behind: skipped until it catches up;
 * - `down`: it did not answer, a read on it failed for the database's sake, or it is no longer in
 *   recovery (promoted, so the primary's writes no longer reach it): skipped until a check finds
 *   it streaming again.
 */
export type ReplicaState = 'starting' | 'streaming' | 'lagging' | 'down';

export interface ReplicaStatus {
  /** Host, port and database of the replica (never its credentials). */
  readonly name: string;
  readonly state: ReplicaState;
  /** How far behind the primary it was at the last check; null when it is not known. */
  readonly lagMs: number | null;
  /** Operations it has answered. */
  readonly reads: number;
  /** Operations that failed on it and ran again on the primary. */
  readonly failedReads: number;
}

export interface Replica {
  readonly name: string;
  readonly orm: MikroORM;
}

interface Tracked extends Replica {
  state: ReplicaState;
  lagMs: number | null;
  /** The WAL position it had replayed at the last check. */
  replayed: bigint;
  reads: number;
  failedReads: number;
}

/** The primary's WAL position at an instant: the replica that replayed it is that fresh. */
interface Sample {
  readonly at: number;
  readonly lsn: bigint;
}

/**
 * The streaming replicas of DATABASE_REPLICA_URLS, and how far behind the primary each one is.
 *
 * Every REPLICA_CHECK_MS the primary's `pg_current_wal_lsn()` is sampled, then each replica's
 * `pg_last_wal_replay_lsn()`. A replica that has replayed the primary's position of an instant is
 * at most as old as that instant, so its lag is the age of the oldest sample it has not replayed
 * (0 when it has replayed the newest): a replay timestamp would grow while the primary is idle,
 * and a byte count says nothing about time. Each replica has a pool (DB_POOL_MAX) of its own,
 * shared out between accounts like the primary's.
 */
export class ReadReplicas {
  private readonly replicas: Tracked[];
  private samples: Sample[] = [];
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;
  private next = 0;
  private log: Logger | undefined;

  private constructor(
    replicas: Replica[],
    private readonly primary: Knex,
    private readonly maxLagMs: number,
  ) {
    this.replicas = replicas.map((replica) => ({
      ...replica,
      state: 'starting',
      lagMs: null,
      replayed: 0n,
      reads: 0,
      failedReads: 0,
    }));
  }

  static async open(
    urls: readonly string[],
    settings: Omit<OrmConnectionSettings, 'clientUrl'> & { perAccount: number },
    primary: Knex,
    maxLagMs: number,
  ): Promise<ReadReplicas> {
    const replicas: Replica[] = [];
    try {
      for (const url of urls) {
        const orm = await MikroORM.init(ormOptions({ ...settings, clientUrl: url, replica: true }));
        installConnectionLanes(orm.em.getConnection().getKnex(), {
          poolMax: settings.poolMax,
          perAccount: settings.perAccount,
          acquireTimeoutMs: settings.acquireTimeoutMs,
        });
        replicas.push({ name: nameOf(url), orm });
      }
    } catch (error) {
      await Promise.all(replicas.map((replica) => replica.orm.close(true)));
      throw error;
    }
    return new ReadReplicas(replicas, primary, maxLagMs);
  }

  /**
   * Checks every replica now and then every REPLICA_CHECK_MS, until close(); changes of state are
   * logged to `log`.
   */
  async start(log: Logger): Promise<void> {
    this.log = log;
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), REPLICA_CHECK_MS);
    this.timer.unref();
  }

  /** Whether any replica takes reads now. */
  get available(): boolean {
    return this.replicas.some((replica) => replica.state === 'streaming');
  }

  /**
   * A streaming replica that has replayed `seen` (the caller's position, callerPosition), taken in
   * turn; undefined when none has: the primary answers.
   */
  choose(seen: bigint | undefined): Replica | undefined {
    const count = this.replicas.length;
    for (let i = 0; i < count; i++) {
      const replica = this.replicas[(this.next + i) % count]!;
      if (replica.state !== 'streaming' || (seen !== undefined && replica.replayed < seen))
        continue;
      this.next = (this.next + i + 1) % count;
      return replica;
    }
    return undefined;
  }

  /** `replica` answered an operation. */
  served(replica: Replica): void {
    this.tracked(replica).reads += 1;
  }

  /**
   * An operation failed on `replica` (and runs again on the primary); when it `lostConnection`,
   * the replica is skipped until a check finds it streaming again.
   */
  failed(replica: Replica, lostConnection: boolean): void {
    const tracked = this.tracked(replica);
    tracked.failedReads += 1;
    if (!lostConnection) return;
    tracked.state = 'down';
    tracked.lagMs = null;
  }

  statuses(): ReplicaStatus[] {
    return this.replicas.map(({ name, state, lagMs, reads, failedReads }) => ({
      name,
      state,
      lagMs,
      reads,
      failedReads,
    }));
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.checking;
    await Promise.all(this.replicas.map((replica) => replica.orm.close(true)));
  }

  private tracked(replica: Replica): Tracked {
    return this.replicas.find((tracked) => tracked.orm === replica.orm)!;
  }

  /** Checks every replica now (a round still running is joined, not overlapped). */
  refresh(): Promise<void> {
    return (this.checking ??= this.round().finally(() => (this.checking = undefined)));
  }

  private async round(): Promise<void> {
    const at = Date.now();
    try {
      const { rows } = await withDeadline(
        this.primary.raw<{ rows: { lsn: string }[] }>('select pg_current_wal_lsn()::text as lsn'),
        CHECK_DEADLINE_MS,
        'the primary WAL position',
      );
      this.samples.push({ at, lsn: parseLsn(rows[0]!.lsn) });
    } catch {
      // The primary did not answer: the replicas are measured against the samples so far.
    }
    await Promise.all(this.replicas.map((replica) => this.checkReplica(replica)));
    this.forgetSamples(at);
  }

  private async checkReplica(replica: Tracked): Promise<void> {
    const before = replica.state;
    try {
      const { rows } = await withDeadline(
        replica.orm.em
          .getConnection()
          .getKnex()
          .raw<{ rows: { recovering: boolean; lsn: string | null }[] }>(
            'select pg_is_in_recovery() as recovering, pg_last_wal_replay_lsn()::text as lsn',
          ),
        CHECK_DEADLINE_MS,
        'the replica check',
      );
      const { recovering, lsn } = rows[0]!;
      if (!recovering || lsn === null) throw new Error('it is not in recovery (promoted?)');
      replica.replayed = parseLsn(lsn);
      replica.lagMs = this.lagOf(replica.replayed);
      replica.state = replica.lagMs <= this.maxLagMs ? 'streaming' : 'lagging';
    } catch (error) {
      replica.state = 'down';
      replica.lagMs = null;
      if (before !== 'down')
        this.log?.warn(
          { replica: replica.name, err: error },
          `read replica ${replica.name} is down: its reads go to the primary`,
        );
    }
    if (before !== replica.state && replica.state !== 'down')
      this.log?.info(
        { replica: replica.name, lagMs: replica.lagMs },
        `read replica ${replica.name} is ${replica.state}`,
      );
  }

  /** The age of the oldest sample of the primary that `replayed` has not reached; 0 if none. */
  private lagOf(replayed: bigint): number {
    const behind = this.samples.find((sample) => sample.lsn > replayed);
    return behind ? Date.now() - behind.at : 0;
  }

  /**
   * Keeps the samples a lag may still be measured from: those no streaming replica has replayed,
   * within twice the lag limit (a replica behind all of them lags more than the limit anyway).
   */
  private forgetSamples(now: number): void {
    const horizon = now - Math.max(2 * this.maxLagMs, 10 * REPLICA_CHECK_MS);
    let replayed: bigint | undefined;
    for (const replica of this.replicas)
      if (replica.state !== 'down' && (replayed === undefined || replica.replayed < replayed))
        replayed = replica.replayed;
    const newest = this.samples.at(-1);
    this.samples = this.samples.filter(
      (sample) =>
        sample === newest ||
        (sample.at >= horizon && (replayed === undefined || sample.lsn > replayed)),
    );
  }
}

/** A WAL position (`16/B374D848`) as a number. */
export function parseLsn(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

function nameOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
}
