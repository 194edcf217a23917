/**
 * The service's schema distributed on a real Citus cluster (issue 38): the writes whose
 * consequences the database keeps (totals, rollups, prices and repricing, tombstones, cleared
 * references) give the same rows as on a single server, sign-in and OAuth read their reference
 * tables first and the account's rows on one worker, and an account moved to the other worker
 * while it writes (`citus_move_shard_placement` by logical replication) loses and doubles nothing.
 * Runs when TEST_CITUS_URL names the coordinator of a cluster with its workers added
 * (`.ci/citus-cluster`, a pass of `.ci/run`); skipped otherwise.
 *
 * The migrations run unchanged on the coordinator, with no step by hand; then the tables are
 * distributed as docs/scaling.md says (every tenant table by account, co-located; the lookups as
 * reference tables).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onDatabaseOf, withClient } from '../../bench/postgres-clients';
import { loadConfig } from '../../src/core/config';
import { citusWorkers, createClusterDatabase, dropClusterDatabase } from '../../bench/citus-nodes';
import { REFERENCE_TABLES } from '../../src/db/citus-distribution';
import { openDatabase, type Database } from '../../src/db/database';
import { runCliCapturing } from '../support/cli-run';
import {
  announceCredentialChange,
  createAccount,
  createPasswordHasher,
  CREDENTIALS_CHANNEL,
  findSignInUser,
} from '../../src/modules/staff';
import { OAuth2Provider } from '../../src/auth/oauth2-provider';
import { OutboxSender } from '../../src/modules/delivery';
import { CurrentRateClock } from '../../src/modules/rates';
import { hashSecret, OAuthClientService } from '../../src/modules/oauth';

const CITUS_URL = process.env.TEST_CITUS_URL;

/** `accounts` by its id, then every tenant table by account, co-located with it. */
const TENANT_TABLES = [
  'users',
  'companies',
  'projects',
  'activities',
  'shifts',
  'company_members',
  'project_members',
  'rates',
  'project_user_totals',
  'project_time_rollups',
  'user_time_rollups',
  'caller_positions',
  'idempotency_keys',
  'tombstones',
  'webhooks',
  'outbox',
  'oauth1_tokens',
  'oauth2_tokens',
  'oauth2_codes',
];

/** The statements `work` sends through the database's pool, with their bindings. */
async function statementsOf(
  db: Database,
  work: () => Promise<unknown>,
): Promise<{ sql: string; bindings: unknown[] }[]> {
  const knex = db.orm.em.getConnection().getKnex();
  const seen: { sql: string; bindings: unknown[] }[] = [];
  const listener = (query: { sql: string; bindings?: unknown[] }) =>
    seen.push({ sql: query.sql, bindings: query.bindings ?? [] });
  knex.on('query', listener);
  try {
    await work();
  } finally {
    knex.off('query', listener);
  }
  return seen;
}

const describeOnCitus = CITUS_URL ? describe : describe.skip;

describeOnCitus('the schema distributed on Citus', () => {
  const name = `timetrack_citus_${randomBytes(5).toString('hex')}`;
  let nodes: string[] = [];
  let url: string;
  const on = (server: string, database: string) => onDatabaseOf(server, `postgres:///${database}`);
  const query = async <T>(text: string, params: unknown[] = []): Promise<T[]> =>
    withClient(url, async (client) => (await client.query(text, params)).rows as T[]);

  beforeAll(async () => {
    const workers = await citusWorkers(CITUS_URL!);
    expect(workers.length).toBeGreaterThanOrEqual(2);
    nodes = [CITUS_URL!, ...workers];
    await createClusterDatabase(CITUS_URL!, workers, name);
    url = on(CITUS_URL!, name);

    // As an operator does it: the migrations, then the distribution; again, nothing left to do.
    const env = { DATABASE_URL: url, LOG_LEVEL: 'warn' };
    const first = await runCliCapturing(['migrate', '--distribute'], env);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toContain(`reference tables: ${REFERENCE_TABLES.join(', ')}`);
    expect(await runCliCapturing(['migrate', '--distribute'], env)).toEqual({
      code: 0,
      stdout: 'migrations applied\nevery table already distributed\n',
      stderr: '',
    });
  }, 180_000);

  afterAll(() => dropClusterDatabase(CITUS_URL!, nodes.slice(1), name));

  test('every tenant table is distributed by account and co-located with accounts; the lookups are reference tables', async () => {
    const tables = await query<{ table: string; kind: string }>(
      `select logicalrelid::text as table,
              case when partmethod = 'n' then 'reference'
                   when colocationid = (select colocationid from pg_dist_partition where logicalrelid = 'accounts'::regclass)
                   then 'co-located' else 'apart' end as kind
         from pg_dist_partition order by 1`,
    );
    expect(tables).toEqual(
      [
        ...['accounts', ...TENANT_TABLES].map((table) => ({ table, kind: 'co-located' })),
        ...REFERENCE_TABLES.map((table) => ({ table, kind: 'reference' })),
      ].sort((a, b) => (a.table < b.table ? -1 : 1)),
    );
  });

  test('writes of two accounts keep totals, rollups, prices and tombstones as a single server does', async () => {
    await withClient(url, async (client) => {
      const run = (text: string) => client.query(text);
      await run(`insert into accounts (name) values ('first'), ('second')`);
      await run(`insert into users (account_id, type, password_hash, login, hourly_rate_cents, cost_rate_cents)
                 select id, 'owner', 'x', 'owner-' || id, 1000, 400 from accounts`);
      await run(`insert into users (account_id, type, password_hash, login)
                 select id, 'manager', 'x', 'manager-' || id from accounts`);
      await run(`insert into rates (account_id, user_id, kind, cents, effective_from)
                 select account_id, id, 'billable', 1000, '-infinity' from users where type = 'owner'`);
      await run(`insert into companies (account_id, name, created_by_id)
                 select account_id, 'company', id from users where type = 'manager'`);
      await run(`insert into projects (account_id, company_id, name, created_by_id)
                 select account_id, id, 'project', created_by_id from companies`);
      await run(
        `insert into activities (account_id, project_id, name) select account_id, id, 'design' from projects`,
      );
      // Two days of one shift across midnight, and a later one, for each account's owner.
      await run(`insert into shifts (account_id, project_id, user_id, activity_id, start, stop)
                 select p.account_id, p.id, u.id, a.id, '2026-11-01 20:00Z', '2026-11-02 02:00Z'
                   from projects p join users u on u.account_id = p.account_id and u.type = 'owner'
                   join activities a on a.account_id = p.account_id`);
      await run(`insert into shifts (account_id, project_id, user_id, start, stop)
                 select p.account_id, p.id, u.id, '2026-11-05 10:00Z', '2026-11-05 12:00Z'
                   from projects p join users u on u.account_id = p.account_id and u.type = 'owner'`);
      // A stop moved, in both accounts at once (a statement over two shards).
      await run(`update shifts set stop = '2026-11-02 03:00Z' where start = '2026-11-01 20:00Z'`);
      // The first account's project gets a billable rate from 4 November: its later shift is
      // repriced (rates_reprice), the earlier one is not.
      await run(`insert into rates (account_id, project_id, kind, cents, effective_from)
                 select account_id, id, 'billable', 3000, '2026-11-04' from projects
                  where account_id = (select min(id) from accounts)`);
      await run(`insert into project_members (account_id, project_id, user_id)
                 select p.account_id, p.id, u.id from projects p join users u on u.account_id = p.account_id`);
      // The first account's activity and manager go (cleared references), then its project
      // (tombstones, cascades).
      await run(`delete from activities where account_id = (select min(id) from accounts)`);
      await run(
        `delete from users where type = 'manager' and account_id = (select min(id) from accounts)`,
      );
    });

    const [first, second] = (
      await query<{ id: number }>('select id from accounts order by id')
    ).map((a) => a.id);

    // Prices: the rate in force at each shift's start.
    expect(
      await query(
        `select account_id, start, billable_rate_cents, cost_rate_cents from shifts order by account_id, start`,
      ),
    ).toEqual([
      expect.objectContaining({ account_id: first, billable_rate_cents: 1000 }),
      expect.objectContaining({ account_id: first, billable_rate_cents: 3000 }),
      expect.objectContaining({ account_id: second, billable_rate_cents: 1000 }),
      expect.objectContaining({ account_id: second, billable_rate_cents: 1000 }),
    ]);

    // Totals and rollups: as computed again from the shifts.
    expect(
      await query(
        `select account_id, project_id, user_id, stopped_seconds::float8 as seconds
           from project_user_totals where stopped_seconds <> 0 order by 1, 2, 3`,
      ),
    ).toEqual(
      await query(
        `select account_id, project_id, user_id, sum(extract(epoch from stop - start))::float8 as seconds
           from shifts where stop is not null group by 1, 2, 3 order by 1, 2, 3`,
      ),
    );
    const rollups = (table: string, key: string) =>
      query(
        `select account_id, ${key} as owner, period_start::text as day, seconds::float8 as seconds,
                amount_cent_seconds::float8 as amount
           from ${table} where grain = 'day' and seconds <> 0 order by 1, 2, 3`,
      );
    const expected = [first, second].flatMap((account) => [
      // 20:00 to midnight, then midnight to 03:00, then the later shift.
      expect.objectContaining({
        account_id: account,
        day: '2026-11-01',
        seconds: 4 * 3600,
        amount: 4 * 3600 * 1000,
      }),
      expect.objectContaining({
        account_id: account,
        day: '2026-11-02',
        seconds: 3 * 3600,
        amount: 3 * 3600 * 1000,
      }),
      expect.objectContaining({
        account_id: account,
        day: '2026-11-05',
        seconds: 2 * 3600,
        amount: 2 * 3600 * (account === first ? 3000 : 1000),
      }),
    ]);
    expect(await rollups('project_time_rollups', 'project_id')).toEqual(expected);
    expect(await rollups('user_time_rollups', 'user_id')).toEqual(expected);

    // Cleared references: the first account's shift lost its activity, its company and project
    // their creator; the second account's kept theirs.
    expect(
      await query(
        `select s.account_id, s.activity_id is not null as has_activity, p.created_by_id is not null as has_creator
           from shifts s join projects p on p.account_id = s.account_id and p.id = s.project_id
          where s.start = '2026-11-01 20:00Z' order by 1`,
      ),
    ).toEqual([
      { account_id: first, has_activity: false, has_creator: false },
      { account_id: second, has_activity: true, has_creator: true },
    ]);

    // The first account's project deleted: its shifts and sums go by cascade, with tombstones that
    // record who could see them.
    await query(`delete from projects where account_id = $1`, [first]);
    expect(
      await query(`select count(*)::int as n from project_user_totals where account_id = $1`, [
        first,
      ]),
    ).toEqual([{ n: 0 }]);
    expect(
      await query<{ typename: string; members: number }>(
        `select typename, jsonb_array_length(listed -> 'memberIds') as members
           from tombstones where account_id = $1 and typename in ('Project', 'Shift', 'Activity')
          order by typename`,
        [first],
      ),
    ).toEqual([
      { typename: 'Activity', members: 2 },
      { typename: 'Project', members: 1 },
      { typename: 'Shift', members: 1 },
      { typename: 'Shift', members: 1 },
    ]);
  });

  test('an account moved to the other worker while it writes loses and doubles nothing', async () => {
    const [{ id: account }] = await query<{ id: number }>(
      `insert into accounts (name) values ('moving') returning id`,
    );
    const [{ id: user }] = await query<{ id: number }>(
      `insert into users (account_id, type, password_hash, login) values ($1, 'owner', 'x', $2) returning id`,
      [account, `mover-${account}`],
    );
    const [{ id: company }] = await query<{ id: number }>(
      `insert into companies (account_id, name) values ($1, 'company') returning id`,
      [account],
    );
    const [{ id: project }] = await query<{ id: number }>(
      `insert into projects (account_id, company_id, name) values ($1, $2, 'project') returning id`,
      [account, company],
    );
    const placement = () =>
      query<{ node: string; shard: string }>(
        `select nodename || ':' || nodeport as node, shardid::text as shard from citus_shards
          where table_name = 'accounts'::regclass and shardid = get_shard_id_for_distribution_column('accounts', $1::int)`,
        [account],
      );
    const [before] = await placement();
    const target = nodes
      .slice(1)
      .map((worker) => new URL(worker))
      .find((w) => `${w.hostname}:${w.port}` !== before!.node)!;

    // One writer adds an hour's shift a day, stretches every third shift by half an hour and reads
    // the account's month sum, round after round: the move starts after its tenth round, and the
    // writer goes on until the move has ended, so it writes before, during and after the move.
    let moved = false;
    let tenRounds!: () => void;
    const writerRunning = new Promise<void>((resolve) => (tenRounds = resolve));
    let rounds = 0;
    let seconds = 0;
    const writing = withClient(url, async (client) => {
      const shifts: number[] = [];
      while (!moved || rounds < 30) {
        const start = new Date(Date.UTC(2026, 5, 1) + rounds * 86_400_000);
        const { rows } = await client.query<{ id: number }>(
          `insert into shifts (account_id, project_id, user_id, start, stop)
           values ($1, $2, $3, $4, $4::timestamptz + interval '1 hour') returning id`,
          [account, project, user, start],
        );
        shifts.push(rows[0]!.id);
        seconds += 3600;
        if (rounds % 3 === 2) {
          await client.query(`update shifts set stop = $3 where account_id = $1 and id = $2`, [
            account,
            shifts[rounds - 1],
            new Date(start.getTime() - 86_400_000 + 5_400_000),
          ]);
          seconds += 1800;
        }
        await client.query(
          `select sum(seconds) from user_time_rollups where account_id = $1 and grain = 'month'`,
          [account],
        );
        rounds += 1;
        if (rounds === 10) tenRounds();
      }
    });
    const moving = writerRunning
      .then(() =>
        withClient(url, (client) =>
          client.query(
            `select citus_move_shard_placement($1::bigint, $2::text, $3::int, $4::text, $5::int, shard_transfer_mode => 'force_logical')`,
            [
              before!.shard,
              before!.node.split(':')[0],
              Number(before!.node.split(':')[1]),
              target.hostname,
              Number(target.port),
            ],
          ),
        ),
      )
      .finally(() => {
        moved = true;
      });
    await Promise.all([writing, moving]);

    expect(await placement()).toEqual([
      { node: `${target.hostname}:${target.port}`, shard: before!.shard },
    ]);
    expect(
      await query(
        `select count(*)::int as shifts, sum(extract(epoch from stop - start))::float8 as seconds
           from shifts where account_id = $1`,
        [account],
      ),
    ).toEqual([{ shifts: rounds, seconds }]);
    expect(
      await query(
        `select (select stopped_seconds::float8 from project_user_totals where account_id = $1) as totals,
                (select sum(seconds)::float8 from user_time_rollups where account_id = $1 and grain = 'day') as days,
                (select sum(seconds)::float8 from project_time_rollups where account_id = $1 and grain = 'month') as months`,
        [account],
      ),
    ).toEqual([{ totals: seconds, days: seconds, months: seconds }]);
  }, 300_000);

  test('signing in reads the login where the request is and the user on the one worker that holds it', async () => {
    const db = await openDatabase(loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'warn' }), {
      migrate: false,
    });
    try {
      const login = `Citus-${randomBytes(4).toString('hex')}`;
      const { owner } = await createAccount(
        db.orm,
        createPasswordHasher(1024),
        new OAuthClientService(),
        {
          login,
          password: 'owner-password',
          email: 'ada@example.com',
          firstName: 'Ada',
          lastName: 'Citus',
        },
      );
      const statements = await statementsOf(db, () =>
        findSignInUser(db.orm.em.fork(), login.toUpperCase()),
      );
      expect(statements).toHaveLength(2);
      const user = await findSignInUser(db.orm.em.fork(), login);
      expect(user).toMatchObject({ id: owner.id, login });
      // Each a router query: one task, on one node.
      for (const { sql, bindings } of statements) {
        const plan = (await query<{ 'QUERY PLAN': string }>(`explain ${sql}`, bindings))
          .map((row) => row['QUERY PLAN'])
          .join('\n');
        expect({ sql, tasks: /Task Count: (\d+)/.exec(plan)?.[1] }).toEqual({ sql, tasks: '1' });
      }
    } finally {
      await db.close();
    }
  });

  test("an application's grants are its users' account's rows: refused across accounts, gone with the application", async () => {
    const [own, other] = await query<{ account: number; user: number }>(
      `with a as (insert into accounts (name) values ('grants-own'), ('grants-other') returning id)
       insert into users (account_id, type, password_hash, login)
       select id, 'owner', 'x', 'grants-' || id from a returning account_id as account, id as user`,
    );
    const client = async (key: string, everyAccount: boolean) =>
      (
        await query<{ id: number }>(
          `insert into oauth_clients (uuid, account_id, name, protocol, client_key, serves_every_account)
           values (gen_random_uuid(), $1, $2, 'oauth2', $2, $3) returning id`,
          [own!.account, key, everyAccount],
        )
      )[0]!.id;
    const owned = await client(`own-${own!.account}`, false);
    const shared = await client(`shared-${own!.account}`, true);
    const code = (clientId: number, who: { account: number; user: number }, hash: string) =>
      query(
        `insert into oauth2_codes (client_id, user_id, account_id, code_hash, expires_at)
         values ($1, $2, $3, $4, now() + interval '1 minute')`,
        [clientId, who.user, who.account, hash],
      );
    // The rule's trigger runs on the worker of the grant's account and reads its copy of the
    // clients. (The coordinator relays the worker's error without its constraint's name.)
    await expect(code(owned, other!, 'refused')).rejects.toMatchObject({
      code: '23514',
      message: expect.stringMatching(/authorised by that account's users only/),
    });
    await code(owned, own!, 'own');
    await code(shared, other!, 'shared');
    const codes = () =>
      query<{ code_hash: string }>(
        'select code_hash from oauth2_codes where account_id in ($1, $2) order by 1',
        [own!.account, other!.account],
      );
    expect(await codes()).toEqual([{ code_hash: 'own' }, { code_hash: 'shared' }]);
    // Revoking an application deletes its grants on every worker (the foreign key to the reference table cascades).
    await query('delete from oauth_clients where id = $1', [shared]);
    expect(await codes()).toEqual([{ code_hash: 'own' }]);
  });

  test('a revoked token is found by its key, deleted on its worker, and announced on the coordinator, also from a write of two workers', async () => {
    const [one, two] = await query<{ account: number; user: number }>(
      `with a as (insert into accounts (name) values ('notices-one'), ('notices-two') returning id)
       insert into users (account_id, type, password_hash, login)
       select id, 'owner', 'x', 'notices-' || id from a returning account_id as account, id as user`,
    );
    const [{ id: client }] = await query<{ id: number }>(
      `insert into oauth_clients (uuid, account_id, name, protocol, client_key, serves_every_account)
       values (gen_random_uuid(), $1, 'notices', 'oauth2', $2, true) returning id`,
      [one!.account, `notices-${one!.account}`],
    );
    const token = `token-${randomBytes(8).toString('hex')}`;
    await query(
      `with filed as (insert into oauth_token_accounts (token, account_id) values ($1, $2))
       insert into oauth2_tokens (client_id, user_id, account_id, access_token_hash, access_expires_at)
       values ($3, $4, $2, $1, now() + interval '1 hour')`,
      [hashSecret(token), two!.account, client, two!.user],
    );

    const heard: string[] = [];
    await withClient(url, async (listener) => {
      listener.on('notification', (n) => heard.push(n.payload ?? ''));
      await listener.query(`listen ${CREDENTIALS_CHANNEL}`);
      const db = await openDatabase(loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'warn' }), {
        migrate: false,
      });
      try {
        await new OAuth2Provider(db.orm).revoke(token, undefined);
        // A write of both accounts (two workers: a prepared transaction) announcing both users.
        await db.orm.em.fork().transactional(async (em) => {
          await em.execute(`update users set first_name = 'Changed' where account_id in (?, ?)`, [
            one!.account,
            two!.account,
          ]);
          await announceCredentialChange(em, [one!.user, two!.user]);
        });
      } finally {
        await db.close();
      }
      // Each round trip lets the idle session deliver what has been announced meanwhile.
      for (let round = 0; heard.length < 3 && round < 100; round += 1)
        await listener.query('select 1');
    });
    expect(heard).toEqual([String(two!.user), String(one!.user), String(two!.user)]);
    expect(
      await query('select count(*)::int as n from oauth2_tokens where account_id = $1', [
        two!.account,
      ]),
    ).toEqual([{ n: 0 }]);
  });

  test("the current-rate clock and the outbox sender work account by account, each on its account's worker", async () => {
    const accounts = await query<{ account: number; project: number }>(
      `with a as (insert into accounts (name) values ('timers-one'), ('timers-two') returning id),
            c as (insert into companies (account_id, name) select id, 'company' from a returning account_id, id)
       insert into projects (account_id, company_id, name, hourly_rate_cents)
       select account_id, id, 'project', 5000 from c returning account_id as account, id as project`,
    );
    // In each account an entry of 6500 came into force a second ago; the columns still say 5000.
    await query(
      `insert into rates (account_id, project_id, kind, cents, effective_from)
       select account_id, id, 'billable', cents, effective_from
         from projects, (values (5000, '-infinity'::timestamptz), (6500, now() - interval '1 second')) as r(cents, effective_from)
        where account_id = any($1)`,
      [accounts.map((a) => a.account)],
    );
    await query(
      `insert into outbox (account_id, kind, payload)
       select account_id, 'email', '{"to": "owner@example.com", "subject": "Hello", "text": "Hi"}' from projects
        where account_id = any($1)`,
      [accounts.map((a) => a.account)],
    );
    const fileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'timetrack-citus-outbox-'));
    const config = loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'warn', DATA_DIR: fileDir });
    const db = await openDatabase(config, { migrate: false });
    try {
      expect(await new CurrentRateClock(db.orm).catchUp()).toBeGreaterThanOrEqual(2);
      const sender = new OutboxSender(db.orm, config.outbox);
      expect(await sender.drainOnce()).toMatchObject({ claimed: 2, sent: 2, failed: 0 });
      await sender.stop();
    } finally {
      await db.close();
      fs.rmSync(fileDir, { recursive: true, force: true });
    }
    expect(
      await query(
        `select p.hourly_rate_cents as cents, (select count(*)::int from outbox o where o.account_id = p.account_id and o.sent_at is not null) as sent
           from projects p where p.account_id = any($1)`,
        [accounts.map((a) => a.account)],
      ),
    ).toEqual([
      { cents: 6500, sent: 1 },
      { cents: 6500, sent: 1 },
    ]);
  });
});

describeOnCitus('a database moved from a single server with its rows', () => {
  const name = `timetrack_moved_${randomBytes(5).toString('hex')}`;
  let workers: string[] = [];
  afterAll(() => dropClusterDatabase(CITUS_URL!, workers, name));

  test('keeps its rows and the totals its triggers kept: none fires again as Citus moves the rows', async () => {
    workers = await citusWorkers(CITUS_URL!);
    await createClusterDatabase(CITUS_URL!, workers, name);
    const url = onDatabaseOf(CITUS_URL!, `postgres:///${name}`);
    // The tables migrated and written while still local to the coordinator, as a restored dump
    // of a single server's database is.
    expect(
      await runCliCapturing(['migrate'], { DATABASE_URL: url, LOG_LEVEL: 'warn' }),
    ).toMatchObject({ code: 0 });
    const totals = () =>
      withClient(
        url,
        async (client) =>
          (
            await client.query(
              `select (select count(*)::int from shifts) as shifts,
                    (select sum(stopped_seconds)::float8 from project_user_totals) as kept,
                    (select sum(seconds)::float8 from user_time_rollups where grain = 'day') as days,
                    (select sum(seconds)::float8 from project_time_rollups where grain = 'month') as months`,
            )
          ).rows[0],
      );
    await withClient(url, async (client) => {
      const one = async (text: string, params: unknown[] = []) =>
        (await client.query<{ id: number }>(text, params)).rows[0]!.id;
      const account = await one(`insert into accounts (name) values ('moved') returning id`);
      const user = await one(
        `insert into users (account_id, type, password_hash, login) values ($1, 'owner', 'x', 'moved') returning id`,
        [account],
      );
      const company = await one(
        `insert into companies (account_id, name) values ($1, 'c') returning id`,
        [account],
      );
      const project = await one(
        `insert into projects (account_id, company_id, name) values ($1, $2, 'p') returning id`,
        [account, company],
      );
      await client.query(
        `insert into shifts (account_id, project_id, user_id, start, stop)
         select $1, $2, $3, timestamptz '2026-01-01' + make_interval(days => g), timestamptz '2026-01-01' + make_interval(days => g, hours => 2)
           from generate_series(0, 39) g`,
        [account, project, user],
      );
    });
    const before = await totals();
    expect(before).toEqual({ shifts: 40, kept: 40 * 7200, days: 40 * 7200, months: 40 * 7200 });

    expect(
      await runCliCapturing(['migrate', '--distribute'], { DATABASE_URL: url, LOG_LEVEL: 'warn' }),
    ).toMatchObject({ code: 0, stderr: '' });
    expect(await totals()).toEqual(before);
    // The triggers are on again, on every shard: a new shift adds its time.
    await withClient(url, (client) =>
      client.query(
        `insert into shifts (account_id, project_id, user_id, start, stop)
         select account_id, id, (select id from users where account_id = p.account_id), timestamptz '2026-03-01', timestamptz '2026-03-01 01:00'
           from projects p`,
      ),
    );
    expect(await totals()).toEqual({
      shifts: 41,
      kept: 40 * 7200 + 3600,
      days: 40 * 7200 + 3600,
      months: 40 * 7200 + 3600,
    });
  }, 180_000);
});
