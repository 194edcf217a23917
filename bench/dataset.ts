import 'reflect-metadata';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createPasswordHasher } from '../src/modules/staff/passwords';
import { seededRandom } from '../src/cli/seeded-random';

/**
 * The benchmark dataset: one account with staff, companies, projects, activities and shifts over
 * some years, generated from a fixed seed so that every run (and every machine) gets the same
 * rows. Rows go in with multi-row `insert … select from unnest(…)` batches, the fastest path that
 * needs no COPY library and works on the embedded database as on a server.
 */
export interface DatasetSize {
  readonly staff: number;
  readonly companies: number;
  readonly projects: number;
  readonly activitiesPerProject: number;
  readonly shifts: number;
  readonly years: number;
}

/** The reference size of issue 7; `--scale 0.1` divides the shifts (and nothing else) by ten. */
export const REFERENCE_SIZE: DatasetSize = {
  staff: 50,
  companies: 20,
  projects: 400,
  activitiesPerProject: 5,
  shifts: 1_000_000,
  years: 3,
};

/** The name a scale's data go by: `s1`, `s0_1`. */
export function datasetTag(scale: number | string): string {
  return `s${String(scale).replace('.', '_')}`;
}

/** The database on a PostgreSQL server that holds a scale's data. */
export function datasetDatabase(scale: number | string): string {
  return `timetrack_bench_${datasetTag(scale)}`;
}

export function scaledSize(scale: number): DatasetSize {
  return { ...REFERENCE_SIZE, shifts: Math.max(1000, Math.round(REFERENCE_SIZE.shifts * scale)) };
}

/** What the scenarios need to know about the loaded data. */
export interface DatasetManifest {
  readonly size: DatasetSize;
  readonly password: string;
  readonly ownerLogin: string;
  readonly staffLogins: string[];
  /** A start window holding about 1,000 shifts (scenario a). */
  readonly window: { readonly from: string; readonly to: string; readonly shifts: number };
  readonly loadSeconds: number;
}

/** The shifts end here, so the data do not move with the clock. */
const END = Date.parse('2026-01-01T00:00:00Z');
const BATCH = 20_000;
const PASSWORD = 'bench-password';

/** A version-4-shaped uuid from the seeded generator, so uuids are stable across runs too. */
function uuidFrom(random: () => number): string {
  const bytes = Buffer.alloc(16);
  for (let i = 0; i < 16; i++) bytes[i] = Math.floor(random() * 256);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A PostgreSQL array literal of plain values (numbers, uuids, timestamps, simple text). */
function pgArray(values: readonly (string | number | boolean | null)[]): string {
  return `{${values.map((v) => (v === null ? 'NULL' : typeof v === 'string' ? `"${v.replace(/["\\]/g, '\\$&')}"` : String(v))).join(',')}}`;
}

/** Loads the dataset into a migrated, empty database. */
export async function loadDataset(
  orm: MikroORM,
  size: DatasetSize,
  log: (line: string) => void = () => {},
): Promise<DatasetManifest> {
  const started = Date.now();
  const random = seededRandom(20261122);
  const sql = orm.em.getConnection();
  const run = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    sql.execute<T[]>(text, params);
  const hash = await createPasswordHasher(19_456).hash(PASSWORD);

  const [account] = await run<{ id: number }>(
    `insert into accounts (uuid, name) values (?, 'Benchmark Ltd') returning id`,
    [uuidFrom(random)],
  );
  const accountId = account!.id;
  const staffLogins = Array.from(
    { length: size.staff },
    (_, i) => `bench-staff-${String(i + 1).padStart(3, '0')}`,
  );
  const users = await run<{ id: number }>(
    `insert into users (uuid, account_id, login, password_hash, first_name, last_name, type, hourly_rate_cents)
     select u, ?, l, ?, 'Bench', l, t, r from unnest(?::uuid[], ?::text[], ?::text[], ?::int[]) as x(u, l, t, r) returning id`,
    [
      accountId,
      hash,
      pgArray([uuidFrom(random), ...staffLogins.map(() => uuidFrom(random))]),
      pgArray(['bench-owner', ...staffLogins]),
      pgArray(['owner', ...staffLogins.map((_, i) => (i < 5 ? 'manager' : 'staff'))]),
      pgArray([null, ...staffLogins.map(() => 2000 + Math.floor(random() * 8000))]),
    ],
  );
  const staffIds = users.slice(1).map((u) => u.id);
  // Signing in finds a login's account in `logins` (the staff module's writes keep it).
  await run(
    `insert into logins (login, account_id, user_id) select lower(login), account_id, id from users where account_id = ?`,
    [accountId],
  );

  const companies = await run<{ id: number }>(
    `insert into companies (uuid, account_id, name, visibility, main_city)
     select u, ?, n, 'public', 'Springfield' from unnest(?::uuid[], ?::text[]) as x(u, n) returning id`,
    [
      accountId,
      pgArray(Array.from({ length: size.companies }, () => uuidFrom(random))),
      pgArray(Array.from({ length: size.companies }, (_, i) => `Client ${i + 1}`)),
    ],
  );
  const projectCompany = Array.from(
    { length: size.projects },
    (_, i) => companies[i % companies.length]!.id,
  );
  const projects = await run<{ id: number }>(
    `insert into projects (uuid, account_id, company_id, name, visibility, time_limit, hourly_rate_cents, tag_list)
     select u, ?, c, n, 'public', l, r, '{bench}' from unnest(?::uuid[], ?::int[], ?::text[], ?::int[], ?::int[]) as x(u, c, n, l, r) returning id`,
    [
      accountId,
      pgArray(projectCompany.map(() => uuidFrom(random))),
      pgArray(projectCompany),
      pgArray(projectCompany.map((_, i) => `Project ${i + 1}`)),
      pgArray(
        projectCompany.map((_, i) =>
          i % 4 === 0 ? 3600 * (500 + Math.floor(random() * 2000)) : null,
        ),
      ),
      pgArray(
        projectCompany.map((_, i) => (i % 3 === 0 ? 5000 + Math.floor(random() * 10000) : null)),
      ),
    ],
  );
  const projectIds = projects.map((p) => p.id);
  const activityProject = projectIds.flatMap((id) =>
    Array.from({ length: size.activitiesPerProject }, () => id),
  );
  const activities = await run<{ id: number; project_id: number }>(
    `insert into activities (uuid, account_id, project_id, name)
     select u, ?, p, n from unnest(?::uuid[], ?::int[], ?::text[]) as x(u, p, n) returning id, project_id`,
    [
      accountId,
      pgArray(activityProject.map(() => uuidFrom(random))),
      pgArray(activityProject),
      pgArray(activityProject.map((_, i) => `Activity ${(i % size.activitiesPerProject) + 1}`)),
    ],
  );
  const activitiesOf = new Map<number, number[]>();
  for (const a of activities)
    activitiesOf.set(a.project_id, [...(activitiesOf.get(a.project_id) ?? []), a.id]);
  log(
    `account, ${size.staff} staff, ${size.companies} companies, ${size.projects} projects, ${activities.length} activities`,
  );

  const span = size.years * 365.25 * 86_400_000;
  for (let done = 0; done < size.shifts; done += BATCH) {
    const n = Math.min(BATCH, size.shifts - done);
    const cols = {
      uuid: [] as string[],
      project: [] as number[],
      user: [] as number[],
      activity: [] as (number | null)[],
      start: [] as string[],
      stop: [] as string[],
      billable: [] as boolean[],
    };
    for (let i = 0; i < n; i++) {
      const project = projectIds[Math.floor(random() * projectIds.length)]!;
      const choices = activitiesOf.get(project)!;
      const start = END - span + Math.floor(random() * span);
      const minutes = 15 + Math.floor(random() * 225);
      cols.uuid.push(uuidFrom(random));
      cols.project.push(project);
      cols.user.push(staffIds[Math.floor(random() * staffIds.length)]!);
      cols.activity.push(random() < 0.8 ? choices[Math.floor(random() * choices.length)]! : null);
      cols.start.push(new Date(start).toISOString());
      cols.stop.push(new Date(start + minutes * 60_000).toISOString());
      cols.billable.push(random() < 0.7);
    }
    await run(
      `insert into shifts (uuid, account_id, project_id, user_id, activity_id, start, stop, billable)
       select u, ?, p, w, a, s, e, b from unnest(?::uuid[], ?::int[], ?::int[], ?::int[], ?::timestamptz[], ?::timestamptz[], ?::boolean[]) as x(u, p, w, a, s, e, b)`,
      [
        accountId,
        pgArray(cols.uuid),
        pgArray(cols.project),
        pgArray(cols.user),
        pgArray(cols.activity),
        pgArray(cols.start),
        pgArray(cols.stop),
        pgArray(cols.billable),
      ],
    );
    if ((done / BATCH) % 10 === 0) log(`shifts: ${done + n} of ${size.shifts}`);
  }
  // Vacuumed as well as analyzed, as autovacuum would have left a database in use (it is off on
  // these machines): without the visibility map every index-only scan reads the heap too.
  await run('vacuum (analyze)');

  // About 1,000 shifts start in a window this long, a month before the end of the data.
  const windowMs = Math.round((1000 / size.shifts) * span);
  const from = new Date(END - 30 * 86_400_000);
  const to = new Date(from.getTime() + windowMs);
  const [count] = await run<{ n: number }>(
    `select count(*)::int as n from shifts where start > ? and start < ?`,
    [from, to],
  );
  return {
    size,
    password: PASSWORD,
    ownerLogin: 'bench-owner',
    staffLogins,
    window: { from: from.toISOString(), to: to.toISOString(), shifts: count!.n },
    loadSeconds: (Date.now() - started) / 1000,
  };
}
