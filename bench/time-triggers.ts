import 'reflect-metadata';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { loadConfig } from '../src/core/config';
import { openDatabase, type Database } from '../src/db/database';
import { loadDataset, scaledSize } from './dataset';
import { withClient } from './postgres-clients';
import { ROOT } from './targets';

/**
 * What the triggers that keep the project totals and time rollups cost, in three forms (issue 38,
 * docs/scaling.md): the set-based statement-level triggers Citus cannot run (the migrations up to
 * 20261211000000), their shard-local form of migration 20261212000000 (the statement's changes
 * grouped from the transition tables, one upsert per group), and row-level triggers (swapped in
 * by this benchmark, a rejected candidate). The same dataset and the same writes on three
 * databases of one server. Writes `bench/results/<date>-time-triggers.md` (and `.json`).
 */
const program = new Command()
  .option('--url <url>', 'a PostgreSQL server', 'postgres://postgres@127.0.0.1:5432/postgres')
  .option('--scale <n>', 'shifts as a share of the reference million', '0.05')
  .option('--rounds <n>', 'single-shift writes per variant', '100')
  .option('--out <dir>', 'where the report goes', path.join(ROOT, 'bench', 'results'));

/** The shifts' columns whose change moves time between the kept totals. */
const TOTALS_COLUMNS = ['project_id', 'user_id', 'start', 'stop'];
/** The shifts' columns whose change moves time or money between the rollups. */
const ROLLUPS_COLUMNS = [...TOTALS_COLUMNS, 'billable', 'billable_rate_cents', 'cost_rate_cents'];

/**
 * The rejected candidate, on the set-based schema: the six statement-level triggers replaced by
 * row-level ones that add each shift through its functions (project_totals_add, time_rollups_add),
 * skipping a row whose time and price did not change.
 */
function rowLevelTriggers(): string[] {
  const sql: string[] = [];
  for (const op of ['insert', 'delete', 'update']) {
    sql.push(`drop trigger shifts_totals_${op} on shifts;`);
    sql.push(`drop trigger shifts_rollups_${op} on shifts;`);
  }
  sql.push(
    `drop function shifts_totals_on_insert, shifts_totals_on_delete, shifts_totals_on_update, shifts_rollups_on_insert, shifts_rollups_on_delete, shifts_rollups_on_update;`,
  );

  sql.push(`
      create function shifts_totals_on_write() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          perform project_totals_add(array[new.account_id], array[new.project_id], array[new.user_id], array[extract(epoch from new.stop - new.start)]);
        elsif tg_op = 'DELETE' then
          perform project_totals_add(array[old.account_id], array[old.project_id], array[old.user_id], array[-extract(epoch from old.stop - old.start)]);
        else
          -- Out as it was, in as it is; a running shift (no stop) counts in neither.
          perform project_totals_add(array_agg(account_id), array_agg(project_id), array_agg(user_id), array_agg(seconds))
             from (values (old.account_id, old.project_id, old.user_id, -extract(epoch from old.stop - old.start)),
                          (new.account_id, new.project_id, new.user_id, extract(epoch from new.stop - new.start))) c(account_id, project_id, user_id, seconds)
            where seconds is not null having count(*) > 0;
        end if;
        return null;
      end $$;`);
  sql.push(`
      create function shifts_rollups_on_write() returns trigger language plpgsql as $$
      begin
        perform time_rollups_add(array_agg(account_id), array_agg(project_id), array_agg(user_id), array_agg(start), array_agg(stop),
                                 array_agg(billable), array_agg(rate), array_agg(cost_rate), array_agg(sign))
           from (select old.account_id, old.project_id, old.user_id, old.start, old.stop, old.billable, old.billable_rate_cents, old.cost_rate_cents, -1
                  where tg_op <> 'INSERT'
                 union all
                 select new.account_id, new.project_id, new.user_id, new.start, new.stop, new.billable, new.billable_rate_cents, new.cost_rate_cents, 1
                  where tg_op <> 'DELETE') c(account_id, project_id, user_id, start, stop, billable, rate, cost_rate, sign)
          where stop is not null having count(*) > 0;
        return null;
      end $$;`);

  const changed = (columns: string[]) =>
    `(${columns.map((c) => `old.${c}`).join(', ')}) is distinct from (${columns.map((c) => `new.${c}`).join(', ')})`;
  for (const [kind, columns] of [
    ['totals', TOTALS_COLUMNS],
    ['rollups', ROLLUPS_COLUMNS],
  ] as const) {
    sql.push(
      `create trigger shifts_${kind}_insert after insert on shifts for each row when (new.stop is not null) execute function shifts_${kind}_on_write();`,
    );
    sql.push(
      `create trigger shifts_${kind}_delete after delete on shifts for each row when (old.stop is not null) execute function shifts_${kind}_on_write();`,
    );
    sql.push(
      `create trigger shifts_${kind}_update after update on shifts for each row when (${changed(columns)}) execute function shifts_${kind}_on_write();`,
    );
  }
  return sql;
}

const VARIANTS: readonly Variant[] = [
  {
    name: 'set-based',
    database: 'timetrack_bench_triggers_set',
    to: '20261211000000-web-app-client',
    swap: [],
  },
  { name: 'shard-local', database: 'timetrack_bench_triggers_local', swap: [] },
  {
    name: 'row-level',
    database: 'timetrack_bench_triggers_row',
    to: '20261211000000-web-app-client',
    swap: rowLevelTriggers(),
  },
];

interface Variant {
  name: string;
  database: string;
  /** The last migration to run; all of them when absent. */
  to?: string;
  /** Statements run after the migrations. */
  swap: string[];
}

interface Timings {
  variant: string;
  loadSeconds: number;
  /** One write of many shifts, in ms. */
  bulk: Record<string, number>;
  /** One shift's stop moved, median and p95 in ms over the rounds. */
  singleP50: number;
  singleP95: number;
  /** The kept sums agree with the shifts afterwards. */
  consistent: boolean;
}

async function main(): Promise<void> {
  const options = program
    .parse()
    .opts<{ url: string; scale: string; rounds: string; out: string }>();
  const size = scaledSize(Number(options.scale));
  const started = new Date();
  const results: Timings[] = [];
  for (const variant of VARIANTS)
    results.push(await measure(options.url, variant, size, Number(options.rounds)));

  const date = started.toISOString().slice(0, 10);
  const file = path.join(options.out, `${date}-time-triggers.md`);
  const serverVersion = await withClient(
    options.url,
    async (c) => (await c.query('select version() as v')).rows[0].v as string,
  );
  // Each write: its time in every form, then each form's time over the set-based one's.
  const row = (write: string, ms: (r: Timings) => number, digits = 0) =>
    `| ${write} | ${results.map((r) => ms(r).toFixed(digits)).join(' | ')} | ${results
      .slice(1)
      .map((r) => (ms(r) / ms(results[0]!)).toFixed(2))
      .join(' | ')} |`;
  const lines = [
    `# The triggers that keep the totals and rollups, in three forms (${date})`,
    '',
    `\`npm run bench:time-triggers -- --scale ${options.scale}\`: ${size.shifts.toLocaleString('en')} shifts loaded into three databases of one server, then the same writes on each: ${VARIANTS.map((v) => `**${v.name}**`).join(', ')} (bench/time-triggers.ts says what each is).`,
    '',
    `- Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.versions.node}, ${serverVersion.split(' on ')[0]}.`,
    `- The kept totals and rollups equal the sums over the shifts afterwards: ${results.map((r) => `${r.variant} ${r.consistent ? 'yes' : '**no**'}`).join(', ')}.`,
    '',
    `| write | ${results.map((r) => `${r.variant} ms`).join(' | ')} | ${results
      .slice(1)
      .map((r) => `${r.variant} ÷ ${results[0]!.variant}`)
      .join(' | ')} |`,
    `|---|${results.map(() => '---:').join('|')}|${results
      .slice(1)
      .map(() => '---:')
      .join('|')}|`,
    row(
      `load the dataset (${size.shifts.toLocaleString('en')} shifts in batches of 20,000)`,
      (r) => r.loadSeconds * 1000,
    ),
    ...Object.keys(results[0]!.bulk).map((name) => row(name, (r) => r.bulk[name]!)),
    row(`one shift's stop moved (p50 of ${options.rounds})`, (r) => r.singleP50, 2),
    row(`one shift's stop moved (p95 of ${options.rounds})`, (r) => r.singleP95, 2),
    '',
  ];
  fs.mkdirSync(options.out, { recursive: true });
  fs.writeFileSync(file, lines.join('\n'));
  fs.writeFileSync(
    file.replace(/\.md$/, '.json'),
    JSON.stringify({ date, options, size, results }, null, 2),
  );
  console.log(lines.join('\n'));
  console.log(`written: ${file}`);
}

async function measure(
  adminUrl: string,
  variant: Variant,
  size: ReturnType<typeof scaledSize>,
  rounds: number,
): Promise<Timings> {
  await withClient(adminUrl, async (admin) => {
    await admin.query(`drop database if exists ${variant.database} with (force)`);
    await admin.query(`create database ${variant.database}`);
  });
  const url = Object.assign(new URL(adminUrl), { pathname: `/${variant.database}` }).toString();
  // Bulk writes run as long as they take: their cost is what this measures.
  const db = await openDatabase(
    loadConfig({ DATABASE_URL: url, DB_STATEMENT_TIMEOUT_MS: '600000' }),
    { migrate: false },
  );
  const run = runnerOf(db);
  try {
    await db.orm.getMigrator().up(variant.to ? { to: variant.to } : undefined);
    for (const statement of variant.swap) await run(statement);
    console.log(`${variant.name}: loading ${size.shifts.toLocaleString('en')} shifts`);
    const manifest = await loadDataset(db.orm, size);
    await run('vacuum (analyze)');
    const bulk: Record<string, number> = {};
    const [busiest] = await run<{ project_id: number; user_id: number; n: number }>(
      `select project_id, min(user_id) as user_id, count(*)::int as n from shifts group by project_id order by n desc, project_id limit 1`,
    );
    const [member] = await run<{ user_id: number; n: number }>(
      `select user_id, count(*)::int as n from shifts group by user_id order by n desc, user_id limit 1`,
    );
    const account = (await run<{ id: number }>(`select id from accounts`))[0]!.id;
    bulk[
      `a project's rate set back two years (reprices its ${busiest!.n.toLocaleString('en')} shifts)`
    ] = await timed(() =>
      run(
        `insert into rates (account_id, project_id, kind, cents, effective_from) values (?, ?, 'billable', 12345, '2024-01-01')`,
        [account, busiest!.project_id],
      ),
    );
    bulk[
      `a person's cost rate set back two years (reprices their ${member!.n.toLocaleString('en')} shifts)`
    ] = await timed(() =>
      run(
        `insert into rates (account_id, user_id, kind, cents, effective_from) values (?, ?, 'cost', 4321, '2024-01-01')`,
        [account, member!.user_id],
      ),
    );
    bulk[`every shift of that project moved an hour later`] = await timed(() =>
      run(
        `update shifts set start = start + interval '1 hour', stop = stop + interval '1 hour' where project_id = ?`,
        [busiest!.project_id],
      ),
    );
    bulk[`that project deleted (its shifts by cascade)`] = await timed(() =>
      run(`delete from projects where id = ?`, [busiest!.project_id]),
    );

    const ids = (
      await run<{ id: number }>(`select id from shifts order by id limit ?`, [rounds])
    ).map((r) => r.id);
    const single: number[] = [];
    for (const id of ids)
      single.push(
        await timed(() =>
          run(`update shifts set stop = stop + interval '1 minute' where id = ?`, [id]),
        ),
      );
    single.sort((a, b) => a - b);
    return {
      variant: variant.name,
      loadSeconds: manifest.loadSeconds,
      bulk,
      singleP50: single[Math.floor(single.length / 2)]!,
      singleP95: single[Math.floor(single.length * 0.95)]!,
      consistent: await keptEqualsShifts(db),
    };
  } finally {
    await db.close();
  }
}

/** Runs statements on the database's pool, each committing alone. */
function runnerOf(db: Database) {
  return <T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> =>
    db.orm.em.getConnection().execute<T[]>(sql, params);
}

/** How long one statement took, in ms (it commits alone, its triggers' work with it). */
async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Every kept total and month rollup against the shifts, summed again. */
async function keptEqualsShifts(db: Database): Promise<boolean> {
  const run = runnerOf(db);
  const [totals] = await run<{ differ: number }>(`
    select count(*)::int as differ from (
      select project_id, user_id, sum(extract(epoch from stop - start)) as s from shifts where stop is not null group by 1, 2
    ) x full join project_user_totals t using (project_id, user_id)
     where coalesce(x.s, 0) <> coalesce(t.stopped_seconds, 0)`);
  const [rollups] = await run<{ differ: number }>(`
    with pieces as (
      select s.project_id, date_trunc('month', d.day)::date as period, s.billable_rate_cents as rate, s.billable,
             extract(epoch from least(s.stop, (d.day + interval '1 day') at time zone 'UTC') - greatest(s.start, d.day at time zone 'UTC')) as seconds
        from shifts s cross join lateral generate_series(date_trunc('day', s.start at time zone 'UTC'), s.stop at time zone 'UTC', interval '1 day') d(day)
       where s.stop is not null and (d.day at time zone 'UTC') < s.stop)
    select count(*)::int as differ from (
      select project_id, period, sum(seconds) as seconds, coalesce(sum(seconds * rate) filter (where billable), 0) as amount from pieces group by 1, 2
    ) x full join (select project_id, period_start as period, seconds, amount_cent_seconds as amount from project_time_rollups where grain = 'month') r using (project_id, period)
     where coalesce(x.seconds, 0) <> coalesce(r.seconds, 0) or coalesce(x.amount, 0) <> coalesce(r.amount, 0)`);
  return totals!.differ === 0 && rollups!.differ === 0;
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
