import { MikroORM } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import { withDeadline } from '../core/deadline';
import type { Logger } from '../core/logger';
import { installConnectionLanes } from './connection-lanes';
import { ormOptions, type OrmConnectionSettings } from './orm-options';

/** How often each replica's replay position (and the primary's WAL position) is read. */
const REPLICA_CHECK_MS = 250;
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
type ReplicaState = 'starting' | 'streaming' | 'lagging' | 'down';

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

interface Replica {
  readonly name: string;
  readonly orm: MikroORM;
}

interface Tracked extends Replica {
  readonly check: CheckConnection;
  state: ReplicaState;
  lagMs: number | null;
  /** The WAL position it had replayed at the last check. */
  replayed: bigint;
  reads: number;
  failedReads: number;
}

/** The primary's WAL position at an instant: the replica that replayed it is that fresh. */
export interface Sample {
  readonly at: number;
  readonly lsn: bigint;
}

/**
 * How far behind the primary a replica that has replayed `replayed` is, from the primary's
 * positions sampled so far (oldest first): 0 when it has the newest sample, else the age of the
 * newest sample it has (it is at least that fresh; an upper bound, so a replica is never taken
 * for fresher than it is). Undefined when it has none of them: how old it is, is not known.
 */
export function lagOf(
  samples: readonly Sample[],
  replayed: bigint,
  now: number,
): number | undefined {
  const newest = samples.at(-1);
  if (newest === undefined || replayed >= newest.lsn) return 0;
  for (let i = samples.length - 2; i >= 0; i--)
    if (samples[i]!.lsn <= replayed) return now - samples[i]!.at;
  return undefined;
}

/**
 * One connection of the monitor's own, outside the pools: a check must not wait behind the
 * requests that fill a replica's pool, nor count a busy replica as down. Opened on first use and
 * dropped on any failure or a check that takes too long (the next round opens another).
 */
class CheckConnection {
  private client: Promise<Client> | undefined;

  constructor(
    private readonly url: string,
    private readonly connectTimeoutMs: number,
  ) {}

  async query<T>(sql: string, what: string): Promise<T> {
    const client = (this.client ??= this.connect());
    try {
      const { rows } = await withDeadline((await client).query(sql), CHECK_DEADLINE_MS, what);
      return rows[0] as T;
    } catch (error) {
      this.drop(client);
      throw error;
    }
  }

  close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    return client ? client.then((c) => c.end()).catch(() => undefined) : Promise.resolve();
  }

  private async connect(): Promise<Client> {
    const client = new Client({
      connectionString: this.url,
      connectionTimeoutMillis: this.connectTimeoutMs,
      application_name: 'timetrack replica check',
    });
    // A connection that fails between checks is dropped at the next one's error.
    client.on('error', () => undefined);
    await client.connect();
    return client;
  }

  private drop(client: Promise<Client>): void {
    if (this.client === client) this.client = undefined;
    void client.then((c) => c.end()).catch(() => undefined);
  }
}

/**
 * The streaming replicas of DATABASE_REPLICA_URLS, and how far behind the primary each one is.
 *
 * Every REPLICA_CHECK_MS the primary's WAL position is sampled, then each replica's
 * `pg_last_wal_replay_lsn()`, each on a connection of the monitor's own. A replica that has
 * replayed the primary's position of an instant is at least as fresh as that instant, so its lag
 * is the age of the newest sample it has replayed (lagOf): a replay timestamp would grow while the
 * primary is idle, and a byte count says nothing about time. Each replica has a pool
 * (DB_POOL_MAX) of its own for the reads, shared out between accounts like the primary's.
 */
export class ReadReplicas {
  private readonly replicas: Tracked[];
  private samples: Sample[] = [];
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;
  private next = 0;
  private log: Logger | undefined;

  private constructor(
    replicas: (Replica & { readonly check: CheckConnection })[],
    private readonly primary: CheckConnection,
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
    primaryUrl: string,
    maxLagMs: number,
  ): Promise<ReadReplicas> {
    const replicas: (Replica & { check: CheckConnection })[] = [];
    try {
      for (const url of urls) {
        const orm = await MikroORM.init(ormOptions({ ...settings, clientUrl: url, replica: true }));
        installConnectionLanes(orm.em.getConnection().getKnex(), {
          poolMax: settings.poolMax,
          perAccount: settings.perAccount,
          acquireTimeoutMs: settings.acquireTimeoutMs,
        });
        const check = new CheckConnection(url, settings.connectTimeoutMs);
        replicas.push({ name: nameOf(url), orm, check });
      }
    } catch (error) {
      await Promise.all(replicas.map((replica) => replica.orm.close(true)));
      throw error;
    }
    const primary = new CheckConnection(primaryUrl, settings.connectTimeoutMs);
    return new ReadReplicas(replicas, primary, maxLagMs);
  }

  /**
   * Checks every replica now and then every REPLICA_CHECK_MS, until close(); changes of state are
   * logged to `log`.
   */
  async start(log: Logger): Promise<void> {
    this.log = log;
    await this.refresh();
    this.timer = setInterval(() => void this.check(), REPLICA_CHECK_MS);
    this.timer.unref();
  }

  /** Whether any replica takes reads now. */
  get available(): boolean {
    return this.replicas.some((replica) => replica.state === 'streaming');
  }

  /**
   * A streaming replica that has replayed `seen` (the caller's position, callerPosition), taken in
   * turn; with `only`, that replica or none. Undefined when there is none: the primary answers.
   */
  choose(seen: bigint, only?: string): Replica | undefined {
    const count = this.replicas.length;
    for (let i = 0; i < count; i++) {
      const replica = this.replicas[(this.next + i) % count]!;
      if (replica.state !== 'streaming' || replica.replayed < seen) continue;
      if (only !== undefined && replica.name !== only) continue;
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
    await this.primary.close();
    await Promise.all(
      this.replicas.map(async (replica) => {
        await replica.check.close();
        await replica.orm.close(true);
      }),
    );
  }

  private tracked(replica: Replica): Tracked {
    return this.replicas.find((tracked) => tracked.orm === replica.orm)!;
  }

  /** Checks every replica now, in a round that starts after the one running, if any. */
  async refresh(): Promise<void> {
    await this.checking;
    await this.check();
  }

  /** One round; a round still running when the timer is due again is joined, not overlapped. */
  private check(): Promise<void> {
    return (this.checking ??= this.round().finally(() => (this.checking = undefined)));
  }

  private async round(): Promise<void> {
    const at = Date.now();
    try {
      // The insert position: with asynchronous commit a transaction may have returned before its
      // commit was written, and the sample must cover it.
      const { lsn } = await this.primary.query<{ lsn: string }>(
        'select pg_current_wal_insert_lsn()::text as lsn',
        'the primary WAL position',
      );
      this.samples.push({ at, lsn: parseLsn(lsn) });
    } catch {
      // The primary did not answer: the replicas are measured against the samples so far.
    }
    await Promise.all(this.replicas.map((replica) => this.checkReplica(replica)));
    // A replica behind every sample kept lags more than the limit anyway.
    const horizon = Date.now() - Math.max(2 * this.maxLagMs, 10 * REPLICA_CHECK_MS);
    const newest = this.samples.at(-1);
    this.samples = this.samples.filter((sample) => sample.at >= horizon || sample === newest);
  }

  private async checkReplica(replica: Tracked): Promise<void> {
    const before = replica.state;
    try {
      const { recovering, lsn } = await replica.check.query<{
        recovering: boolean;
        lsn: string | null;
      }>(
        'select pg_is_in_recovery() as recovering, pg_last_wal_replay_lsn()::text as lsn',
        'the replica check',
      );
      if (!recovering || lsn === null) throw new Error('it is not in recovery (promoted?)');
      replica.replayed = parseLsn(lsn);
      const lag = lagOf(this.samples, replica.replayed, Date.now());
      // Unknown: at least as old as the oldest sample kept.
      replica.lagMs = lag ?? Date.now() - (this.samples[0]?.at ?? Date.now());
      replica.state = lag !== undefined && lag <= this.maxLagMs ? 'streaming' : 'lagging';
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
