import { DateTime } from 'luxon';
import {
  codes,
  startTestApp,
  type Credentials,
  type GraphQLResponse,
  type TestApp,
} from '../support/test-app';

/**
 * The report query over HTTP on the real database. Every expectation is computed here, in
 * TypeScript, from the list of shifts the test created (buckets with luxon), never read back from
 * the database: the report's SQL is checked against an independent implementation.
 */
let t: TestApp;
let owner: Credentials & { ownerId: string };

type Dim = 'COMPANY' | 'PROJECT' | 'ACTIVITY' | 'USER' | 'TAG' | 'BILLABLE';
type Unit = 'day' | 'week' | 'month' | 'year';
interface Ref {
  id: string;
  name: string;
}
interface Person extends Ref, Credentials {
  rate: number | null;
}
interface Proj extends Ref {
  company: Ref;
  rate: number | null;
  visibleToManager: boolean;
}
interface ShiftSpec {
  project: Proj;
  user: Person;
  activity?: Ref | null;
  start: string;
  stop: string | null;
  billable?: boolean;
  tags?: string[];
}
interface Made extends Required<ShiftSpec> {
  id: string;
}

const shifts: Made[] = [];
const people: Record<'owner' | 'staffA' | 'staffB' | 'manager' | 'night', Person> = {} as never;
const companies: Record<'acme' | 'globex' | 'hidden', Ref> = {} as never;
const projects: Record<'p1' | 'p2' | 'p3' | 'p4' | 'p5', Proj> = {} as never;
let design: Ref;

const REPORT = `query($input: ReportInput!, $first: Int, $offset: Int) {
  report(input: $input, first: $first, offset: $offset) {
    from to timeZone groupBy bucket totalCount
    totals { seconds billableSeconds amountCents }
    rows {
      company { id: nodeId legacyId name } project { id: nodeId legacyId name } activity { id: nodeId name } user { id: staffId login firstName lastName }
      tag billable bucketStart seconds billableSeconds amountCents
    }
  }
}`;

interface Row {
  company: { id: string; name: string | null } | null;
  project: { id: string; name: string | null } | null;
  activity: { id: string; name: string | null } | null;
  user: { id: string; login: string } | null;
  tag: string | null;
  billable: boolean | null;
  bucketStart: string | null;
  seconds: number;
  billableSeconds: number;
  amountCents: number | null;
}
interface ReportAnswer {
  from: string;
  to: string;
  timeZone: string;
  totalCount: number;
  totals: { seconds: number; billableSeconds: number; amountCents: number | null };
  rows: Row[];
}

async function report(
  who: Credentials,
  input: Record<string, unknown>,
  page: { first?: number; offset?: number } = {},
): Promise<ReportAnswer> {
  return (await t.gqlOk<{ report: ReportAnswer }>(who, REPORT, { input, ...page })).report;
}

interface Options {
  from: string;
  to: string;
  groupBy: Dim[];
  bucket?: Unit;
  zone?: string;
  filter?: {
    companyIds?: string[];
    projectIds?: string[];
    userIds?: string[];
    tags?: string[];
    billable?: boolean;
  };
  /** Which shifts the caller sees. */
  visible?: (s: Made) => boolean;
  now?: number;
  /** Sends no timeZone: the caller's own zone, `zone`, applies. */
  omitZone?: boolean;
  /** The caller is a staff member: amounts are null (they would give project rates away). */
  noMoney?: boolean;
  /**
   * Which shifts' projects the caller sees: the others' time counts without money, and a row of
   * such a project has no amount (it would give the hidden project's rate away).
   */
  projectSeen?: (s: Made) => boolean;
}

interface Sums {
  ms: number;
  billableMs: number;
  /** Billable milliseconds × rate, so that the rounding to cents happens once at the end. */
  rateMs: number;
  /** A row of a project the caller may not see: no amount. */
  moneyHidden?: boolean;
}

/** Rows and totals as the report must give them, computed from `shifts`. */
function expected(o: Options): {
  rows: Map<string, { seconds: number; billableSeconds: number; amountCents: number | null }>;
  totals: Sums;
} {
  const from = Date.parse(o.from);
  const to = Date.parse(o.to);
  const groups = new Map<string, Sums>();
  const totals: Sums = { ms: 0, billableMs: 0, rateMs: 0 };
  const f = o.filter ?? {};
  for (const s of shifts) {
    if (o.visible && !o.visible(s)) continue;
    if (f.companyIds && !f.companyIds.includes(s.project.company.id)) continue;
    if (f.projectIds && !f.projectIds.includes(s.project.id)) continue;
    if (f.userIds && !f.userIds.includes(s.user.id)) continue;
    if (f.tags && !s.tags.some((tag) => f.tags!.includes(tag))) continue;
    if (f.billable !== undefined && s.billable !== f.billable) continue;
    const a = Math.max(Date.parse(s.start), from);
    const b = Math.min(s.stop ? Date.parse(s.stop) : (o.now ?? Date.now()), to);
    if (b <= a) continue;
    const seen = o.projectSeen?.(s) ?? true;
    const rate = seen ? (s.project.rate ?? s.user.rate ?? 0) : 0;
    const add = (sums: Sums, ms: number) => {
      sums.ms += ms;
      if (s.billable) {
        sums.billableMs += ms;
        sums.rateMs += ms * rate;
      }
    };
    add(totals, b - a);
    const tags = o.groupBy.includes('TAG')
      ? f.tags
        ? s.tags.filter((tag) => f.tags!.includes(tag))
        : s.tags.length
          ? s.tags
          : [null]
      : [undefined];
    for (const [bucket, ms] of o.bucket
      ? split(a, b, o.zone ?? 'UTC', o.bucket)
      : [[null, b - a] as const]) {
      for (const tag of tags) {
        const key = rowKey({
          company: o.groupBy.includes('COMPANY') ? s.project.company.id : null,
          project: o.groupBy.includes('PROJECT') ? s.project.id : null,
          activity: o.groupBy.includes('ACTIVITY') ? (s.activity?.id ?? null) : null,
          user: o.groupBy.includes('USER') ? s.user.id : null,
          tag: tag ?? null,
          billable: o.groupBy.includes('BILLABLE') ? s.billable : null,
          bucketStart: bucket,
        });
        const sums = groups.get(key) ?? { ms: 0, billableMs: 0, rateMs: 0 };
        if (!seen && (o.groupBy.includes('PROJECT') || o.groupBy.includes('ACTIVITY')))
          sums.moneyHidden = true;
        add(sums, ms);
        groups.set(key, sums);
      }
    }
  }
  const rows = new Map([...groups].map(([key, sums]) => [key, rounded(sums)]));
  return { rows, totals };
}

const rounded = (sums: Sums) => ({
  seconds: Math.round(sums.ms / 1000),
  billableSeconds: Math.round(sums.billableMs / 1000),
  amountCents: sums.moneyHidden ? null : Math.round(sums.rateMs / 3_600_000),
});

/** Splits [a, b) at the period boundaries of the zone, with luxon (ISO weeks start on Monday). */
function split(a: number, b: number, zone: string, unit: Unit): [string, number][] {
  const parts: [string, number][] = [];
  let k = DateTime.fromMillis(a, { zone }).startOf(unit);
  while (k.toMillis() < b) {
    const next = k.plus({ [`${unit}s`]: 1 });
    const part = Math.min(b, next.toMillis()) - Math.max(a, k.toMillis());
    if (part > 0) parts.push([new Date(k.toMillis()).toISOString(), part]);
    k = next;
  }
  return parts;
}

function rowKey(r: {
  company: string | null;
  project: string | null;
  activity: string | null;
  user: string | null;
  tag: string | null;
  billable: boolean | null;
  bucketStart: string | null;
}): string {
  return JSON.stringify([
    r.company,
    r.project,
    r.activity,
    r.user,
    r.tag,
    r.billable,
    r.bucketStart && new Date(r.bucketStart).toISOString(),
  ]);
}

const keyOf = (row: Row) =>
  rowKey({
    company: row.company?.id ?? null,
    project: row.project?.id ?? null,
    activity: row.activity?.id ?? null,
    user: row.user?.id ?? null,
    tag: row.tag,
    billable: row.billable,
    bucketStart: row.bucketStart,
  });

/** Asks for the report and compares every row and the totals with the expectation. */
async function check(who: Credentials, o: Options): Promise<ReportAnswer> {
  const answer = await report(who, {
    from: o.from,
    to: o.to,
    groupBy: o.groupBy,
    ...(o.bucket ? { bucket: o.bucket.toUpperCase() } : {}),
    ...(o.zone && !o.omitZone ? { timeZone: o.zone } : {}),
    ...(o.filter ? { filter: o.filter } : {}),
  });
  const want = expected(o);
  const money = (sums: { seconds: number; billableSeconds: number; amountCents: number | null }) =>
    o.noMoney ? { ...sums, amountCents: null } : sums;
  const got = new Map(
    answer.rows.map((row) => [
      keyOf(row),
      { seconds: row.seconds, billableSeconds: row.billableSeconds, amountCents: row.amountCents },
    ]),
  );
  expect(answer.rows).toHaveLength(got.size); // no key twice
  expect(Object.fromEntries(got)).toEqual(
    Object.fromEntries([...want.rows].map(([key, sums]) => [key, money(sums)])),
  );
  expect(answer.totalCount).toBe(want.rows.size);
  expect(answer.totals).toEqual(money(rounded(want.totals)));
  return answer;
}

const gql = <T = Record<string, any>>(
  who: Credentials,
  query: string,
  variables?: Record<string, unknown>,
) => t.gqlOk<T>(who, query, variables);

async function makeShift(spec: ShiftSpec): Promise<Made> {
  const made = {
    activity: null,
    billable: true,
    tags: [],
    ...spec,
  } as Required<ShiftSpec>;
  const { createShift } = await gql(
    owner,
    'mutation($input: CreateShiftInput!) { createShift(input: $input) { shift { id } } }',
    {
      input: {
        projectId: made.project.id,
        userId: made.user.id,
        activityId: made.activity?.id ?? null,
        start: made.start,
        stop: made.stop,
        billable: made.billable,
        tagList: made.tags,
      },
    },
  );
  const shift = { ...made, id: createShift.shift.id as string };
  shifts.push(shift);
  return shift;
}

const FROM = '2025-12-01T00:00:00Z';
const TO = '2026-12-01T00:00:00Z';
const DIMS: Dim[] = ['COMPANY', 'PROJECT', 'ACTIVITY', 'USER', 'TAG', 'BILLABLE'];

beforeAll(async () => {
  t = await startTestApp();
  owner = await t.newAccount();
  const person = async (key: keyof typeof people, overrides: Record<string, unknown>) => {
    const made = await t.newStaff(owner, overrides);
    people[key] = {
      ...made,
      name: String(overrides.lastName ?? key),
      rate: (overrides.hourlyRateCents as number | undefined) ?? null,
    };
  };
  people.owner = {
    login: owner.login,
    password: owner.password,
    id: owner.ownerId,
    name: 'Owner',
    rate: null,
  };
  await person('staffA', { lastName: 'Adams', hourlyRateCents: 6000 });
  await person('staffB', { lastName: 'Brown', timeZone: 'America/New_York' });
  await person('manager', { lastName: 'Miller', type: 'MANAGER', hourlyRateCents: 4500 });
  await person('night', { lastName: 'Night', hourlyRateCents: 3600 });

  const company = async (key: keyof typeof companies, name: string, visibility: string) => {
    const { createCompany } = await gql(
      owner,
      'mutation($n: String!, $v: Visibility!) { createCompany(input: { name: $n, visibility: $v }) { company { id } } }',
      { n: name, v: visibility },
    );
    companies[key] = { id: createCompany.company.id, name };
  };
  await company('acme', 'Acme', 'PUBLIC');
  await company('globex', 'Globex', 'PUBLIC');
  await company('hidden', 'Hidden Co', 'PRIVATE');
  const project = async (
    key: keyof typeof projects,
    name: string,
    c: Ref,
    visibility: string,
    rate: number | null,
    userIds: string[] = [],
  ) => {
    const { createProject } = await gql(
      owner,
      'mutation($input: CreateProjectInput!) { createProject(input: $input) { project { id } } }',
      {
        input: { name, companyId: c.id, visibility, hourlyRateCents: rate, userIds },
      },
    );
    projects[key] = {
      id: createProject.project.id,
      name,
      company: c,
      rate,
      visibleToManager: visibility === 'PUBLIC' || userIds.includes(people.manager.id),
    };
  };
  await project('p1', 'Apollo', companies.acme, 'PUBLIC', 12000);
  await project('p2', 'Borealis', companies.acme, 'PUBLIC', null);
  await project('p3', 'Cassini', companies.globex, 'PRIVATE', 9000);
  await project('p4', 'Dawn', companies.hidden, 'PUBLIC', null);
  await project('p5', 'Europa', companies.globex, 'CUSTOM', 7500, [people.manager.id]);
  const { createActivity } = await gql(
    owner,
    'mutation($p: ID!) { createActivity(input: { projectId: $p, name: "Design" }) { activity { id } } }',
    { p: projects.p1.id },
  );
  design = { id: createActivity.activity.id, name: 'Design' };

  const { p1, p2, p3, p4, p5 } = projects;
  const { owner: o, staffA: a, staffB: b, manager: m, night: n } = people;
  // Plain shifts inside one day, of every combination of keys.
  await makeShift({
    project: p1,
    user: a,
    activity: design,
    start: '2026-01-05T09:00:00Z',
    stop: '2026-01-05T12:00:00Z',
    tags: ['dev', 'urgent'],
  });
  await makeShift({
    project: p1,
    user: a,
    start: '2026-01-06T09:00:00Z',
    stop: '2026-01-06T10:30:00Z',
    billable: false,
    tags: ['dev'],
  });
  await makeShift({
    project: p1,
    user: b,
    activity: design,
    start: '2026-01-07T13:00:00Z',
    stop: '2026-01-07T13:20:00Z',
  });
  await makeShift({
    project: p2,
    user: b,
    start: '2026-01-08T08:00:00Z',
    stop: '2026-01-08T16:00:00Z',
    tags: ['ops'],
  });
  await makeShift({
    project: p2,
    user: m,
    start: '2026-02-02T08:00:00Z',
    stop: '2026-02-02T09:07:13Z',
    tags: ['ops', 'dev'],
  });
  await makeShift({
    project: p3,
    user: a,
    start: '2026-02-03T10:00:00Z',
    stop: '2026-02-03T11:00:00Z',
    tags: ['secret'],
  });
  await makeShift({
    project: p3,
    user: m,
    start: '2026-02-04T10:00:00Z',
    stop: '2026-02-04T10:45:00Z',
    billable: false,
  });
  await makeShift({
    project: p3,
    user: o,
    start: '2026-02-05T10:00:00Z',
    stop: '2026-02-05T12:00:00Z',
  });
  await makeShift({
    project: p4,
    user: b,
    start: '2026-02-06T10:00:00Z',
    stop: '2026-02-06T10:10:00Z',
    tags: ['ops'],
  });
  await makeShift({
    project: p5,
    user: a,
    start: '2026-02-09T10:00:00Z',
    stop: '2026-02-09T17:30:00Z',
    tags: ['we"ird,{tag}\\'],
  });
  await makeShift({
    project: p1,
    user: o,
    activity: design,
    start: '2026-04-01T07:00:00Z',
    stop: '2026-04-01T08:00:01Z',
    tags: ['urgent'],
  });
  // Across boundaries: Berlin midnight (23:00Z in winter), a Sunday into Monday, a month and a year.
  await makeShift({
    project: p1,
    user: m,
    start: '2026-01-10T22:30:00Z',
    stop: '2026-01-11T01:30:00Z',
    tags: ['dev'],
  });
  await makeShift({
    project: p2,
    user: a,
    start: '2026-01-11T20:00:00Z',
    stop: '2026-01-12T03:00:00Z',
    billable: false,
  });
  await makeShift({
    project: p1,
    user: b,
    start: '2026-01-31T20:00:00Z',
    stop: '2026-02-01T04:00:00Z',
  });
  await makeShift({
    project: p2,
    user: m,
    start: '2025-12-31T20:00:00Z',
    stop: '2026-01-01T06:00:00Z',
    tags: ['ops'],
  });
  // Partly outside the main range: counts only inside [FROM, TO).
  await makeShift({
    project: p1,
    user: a,
    start: '2025-11-30T22:00:00Z',
    stop: '2025-12-01T02:00:00Z',
  });
  await makeShift({
    project: p2,
    user: b,
    start: '2026-11-30T20:00:00Z',
    stop: '2026-12-01T01:00:00Z',
  });
  // One second each at 120.00/h: 3.33 cents apiece, 10 cents together (rounded once per row).
  for (const second of ['2026-05-04T10:00:00Z', '2026-05-04T10:00:05Z', '2026-05-04T10:00:10Z']) {
    await makeShift({
      project: p1,
      user: n,
      start: second,
      stop: new Date(Date.parse(second) + 1000).toISOString(),
      tags: ['tiny'],
    });
  }
  // Across the clock changes: Berlin (2026-03-29 01:00Z, 2026-10-25 01:00Z) and New York (2026-03-08 07:00Z).
  await makeShift({
    project: p2,
    user: n,
    start: '2026-03-27T23:00:00Z',
    stop: '2026-03-30T22:00:00Z',
    billable: false,
    tags: ['dst'],
  });
  await makeShift({
    project: p2,
    user: n,
    start: '2026-10-23T22:00:00Z',
    stop: '2026-10-26T23:00:00Z',
    billable: false,
    tags: ['dst'],
  });
  await makeShift({
    project: p2,
    user: n,
    start: '2026-03-07T05:00:00Z',
    stop: '2026-03-10T04:00:00Z',
    billable: false,
    tags: ['dst-ny'],
  });
}, 120_000);
afterAll(() => t?.close());

describe('grouping', () => {
  test.each(DIMS.map((d) => [d]))('by %s', async (dimension) => {
    await check(owner, { from: FROM, to: TO, groupBy: [dimension] });
  });

  test.each([
    [['USER', 'PROJECT']],
    [['COMPANY', 'PROJECT', 'ACTIVITY']],
    [['COMPANY', 'BILLABLE', 'TAG']],
    [['TAG', 'USER', 'BILLABLE', 'ACTIVITY', 'PROJECT', 'COMPANY']],
    [[]],
  ] as Dim[][][])('by %j', async (groupBy) => {
    await check(owner, { from: FROM, to: TO, groupBy });
  });

  test('rows carry names and sort by the keys in groupBy order, nulls last', async () => {
    const answer = await check(owner, {
      from: FROM,
      to: TO,
      groupBy: ['COMPANY', 'PROJECT', 'ACTIVITY'],
    });
    expect(
      answer.rows.map((r) => [r.company!.name, r.project!.name, r.activity?.name ?? null]),
    ).toEqual([
      ['Acme', 'Apollo', 'Design'],
      ['Acme', 'Apollo', null],
      ['Acme', 'Borealis', null],
      ['Globex', 'Cassini', null],
      ['Globex', 'Europa', null],
      ['Hidden Co', 'Dawn', null],
    ]);
    const byUser = await report(owner, { from: FROM, to: TO, groupBy: ['USER'] });
    expect(byUser.rows.map((r) => r.user!.login)).toEqual(
      [people.staffA, people.staffB, people.manager, people.night, people.owner].map(
        (p) => p.login,
      ),
    );
  });

  test('a shift counts once under each of its tags; the totals count it once', async () => {
    const answer = await check(owner, { from: FROM, to: TO, groupBy: ['TAG'] });
    const sum = answer.rows.reduce((total, row) => total + row.seconds, 0);
    expect(sum).toBeGreaterThan(answer.totals.seconds);
    expect(answer.rows.find((r) => r.tag === null)).toBeDefined();
  });

  test('the amount is rounded once per row, from exact sums', async () => {
    const answer = await report(owner, {
      from: FROM,
      to: TO,
      groupBy: ['USER'],
      filter: { userIds: [people.night.id], billable: true },
    });
    expect(answer.rows).toEqual([
      expect.objectContaining({ seconds: 3, billableSeconds: 3, amountCents: 10 }),
    ]);
  });

  test('the project rate wins over the user rate; without either the amount is 0', async () => {
    const answer = await check(owner, {
      from: '2026-01-05T00:00:00Z',
      to: '2026-01-09T00:00:00Z',
      groupBy: ['PROJECT', 'USER'],
    });
    const amount = (p: Proj, u: Person) =>
      answer.rows.find((r) => r.project!.id === p.id && r.user!.id === u.id)!.amountCents;
    expect(amount(projects.p1, people.staffA)).toBe(3 * 12000); // billable 3 h at the project's 120.00, not the user's 60.00
    expect(amount(projects.p2, people.staffB)).toBe(0);
  });
});

describe('filters', () => {
  test.each([
    ['companyIds', () => ({ companyIds: [companies.acme.id] })],
    ['projectIds', () => ({ projectIds: [projects.p2.id, projects.p3.id] })],
    ['userIds', () => ({ userIds: [people.staffB.id] })],
    ['tags', () => ({ tags: ['ops', 'urgent'] })],
    ['billable', () => ({ billable: false })],
    [
      'a tag with quotes, commas, braces and a backslash',
      () => ({ tags: ['we"ird,{tag}\\', 'dev'] }),
    ],
    [
      'all of them',
      () => ({
        companyIds: [companies.acme.id, companies.globex.id],
        userIds: [people.staffA.id, people.manager.id],
        tags: ['dev'],
        billable: true,
      }),
    ],
  ] as const)('%s', async (_name, filter) => {
    await check(owner, {
      from: FROM,
      to: TO,
      groupBy: ['PROJECT', 'USER', 'TAG'],
      filter: filter(),
    });
  });

  test('with a tags filter, grouping by TAG makes rows of those tags only', async () => {
    const answer = await check(owner, {
      from: FROM,
      to: TO,
      groupBy: ['TAG'],
      filter: { tags: ['dev'] },
    });
    expect(answer.rows.map((r) => r.tag)).toEqual(['dev']);
  });

  test('ids of nothing match nothing', async () => {
    const answer = await report(owner, {
      from: FROM,
      to: TO,
      groupBy: ['PROJECT'],
      filter: { projectIds: ['00000000-0000-4000-8000-000000000000'] },
    });
    expect(answer).toMatchObject({
      rows: [],
      totalCount: 0,
      totals: { seconds: 0, billableSeconds: 0, amountCents: 0 },
    });
  });

  test('only the part of a shift inside [from, to) counts', async () => {
    const answer = await check(owner, {
      from: '2026-01-05T10:00:00Z',
      to: '2026-01-05T11:00:00Z',
      groupBy: [],
    });
    expect(answer.totals.seconds).toBe(3600);
    await check(owner, {
      from: FROM,
      to: TO,
      groupBy: ['USER'],
      filter: { userIds: [people.staffA.id] },
    });
  });
});

describe('buckets', () => {
  test.each([
    ['day', 'UTC'],
    ['day', 'Europe/Berlin'],
    ['week', 'Europe/Berlin'],
    ['week', 'America/New_York'],
    ['month', 'Europe/Berlin'],
    ['month', 'Asia/Kolkata'],
    ['year', 'Pacific/Auckland'],
  ] as [Unit, string][])('%s in %s', async (bucket, zone) => {
    await check(owner, { from: FROM, to: TO, groupBy: ['PROJECT'], bucket, zone });
  });

  test('Berlin days are 23 and 25 hours long when the clocks change', async () => {
    const input = (from: string, to: string) => ({
      from,
      to,
      groupBy: [] as Dim[],
      bucket: 'day' as Unit,
      zone: 'Europe/Berlin',
      filter: { tags: ['dst'] },
    });
    const spring = await check(owner, input('2026-03-27T23:00:00Z', '2026-03-30T22:00:00Z'));
    expect(spring.rows.map((r) => [r.bucketStart, r.seconds / 3600])).toEqual([
      ['2026-03-27T23:00:00.000Z', 24],
      ['2026-03-28T23:00:00.000Z', 23],
      ['2026-03-29T22:00:00.000Z', 24],
    ]);
    const autumn = await check(owner, input('2026-10-23T22:00:00Z', '2026-10-26T23:00:00Z'));
    expect(autumn.rows.map((r) => [r.bucketStart, r.seconds / 3600])).toEqual([
      ['2026-10-23T22:00:00.000Z', 24],
      ['2026-10-24T22:00:00.000Z', 25],
      ['2026-10-25T23:00:00.000Z', 24],
    ]);
  });

  test('New York days too, and the same shift buckets by UTC days otherwise', async () => {
    const filter = { tags: ['dst-ny'] };
    const ny = await check(owner, {
      from: '2026-03-07T05:00:00Z',
      to: '2026-03-10T04:00:00Z',
      groupBy: [],
      bucket: 'day',
      zone: 'America/New_York',
      filter,
    });
    expect(ny.rows.map((r) => [r.bucketStart, r.seconds / 3600])).toEqual([
      ['2026-03-07T05:00:00.000Z', 24],
      ['2026-03-08T05:00:00.000Z', 23],
      ['2026-03-09T04:00:00.000Z', 24],
    ]);
    const utc = await check(owner, {
      from: '2026-03-07T05:00:00Z',
      to: '2026-03-10T04:00:00Z',
      groupBy: [],
      bucket: 'day',
      zone: 'UTC',
      filter,
    });
    expect(utc.rows.map((r) => [r.bucketStart, r.seconds / 3600])).toEqual([
      ['2026-03-07T00:00:00.000Z', 19],
      ['2026-03-08T00:00:00.000Z', 24],
      ['2026-03-09T00:00:00.000Z', 24],
      ['2026-03-10T00:00:00.000Z', 4],
    ]);
  });

  test('weeks start on Monday, months and years on the 1st, at local midnight', async () => {
    const weeks = await check(owner, {
      from: '2026-01-01T00:00:00Z',
      to: '2026-02-01T00:00:00Z',
      groupBy: [],
      bucket: 'week',
      zone: 'Europe/Berlin',
    });
    for (const row of weeks.rows) {
      const local = DateTime.fromISO(row.bucketStart!, { zone: 'Europe/Berlin' });
      expect([local.weekday, local.hour, local.minute]).toEqual([1, 0, 0]);
    }
    expect(weeks.rows[0]!.bucketStart).toBe('2025-12-28T23:00:00.000Z'); // Monday 29 December 2025, the ISO week of 1 January
    const months = await check(owner, {
      from: FROM,
      to: TO,
      groupBy: [],
      bucket: 'month',
      zone: 'Europe/Berlin',
    });
    expect(months.rows.map((r) => r.bucketStart).slice(0, 3)).toEqual([
      '2025-11-30T23:00:00.000Z',
      '2025-12-31T23:00:00.000Z',
      '2026-01-31T23:00:00.000Z',
    ]);
    const years = await check(owner, {
      from: '2025-01-01T00:00:00Z',
      to: TO,
      groupBy: ['BILLABLE'],
      bucket: 'year',
      zone: 'America/New_York',
    });
    expect(new Set(years.rows.map((r) => r.bucketStart))).toEqual(
      new Set(['2025-01-01T05:00:00.000Z', '2026-01-01T05:00:00.000Z']),
    );
  });

  test("the caller's own zone when none is named", async () => {
    const answer = await check(people.staffB, {
      from: FROM,
      to: TO,
      groupBy: [],
      bucket: 'day',
      zone: 'America/New_York',
      omitZone: true,
      visible: (s) => s.user.id === people.staffB.id,
      noMoney: true,
    });
    expect(answer.timeZone).toBe('America/New_York');
  });
});

describe('visibility', () => {
  test('a staff member sees only their own time, whatever the project', async () => {
    const mine = (who: Person) => (s: Made) => s.user.id === who.id;
    await check(people.staffA, {
      from: FROM,
      to: TO,
      groupBy: ['PROJECT', 'USER'],
      visible: mine(people.staffA),
      noMoney: true,
    });
    await check(people.staffA, {
      from: FROM,
      to: TO,
      groupBy: ['TAG'],
      visible: mine(people.staffA),
      filter: { userIds: [people.staffB.id] },
      noMoney: true,
    });
    const answer = await report(people.staffA, { from: FROM, to: TO, groupBy: ['USER'] });
    expect(answer.rows.map((r) => r.user!.id)).toEqual([people.staffA.id]);
  });

  test('a manager sees their own time and the time on projects visible to them', async () => {
    const visible = (s: Made) => s.user.id === people.manager.id || s.project.visibleToManager;
    const answer = await check(people.manager, {
      from: FROM,
      to: TO,
      groupBy: ['COMPANY', 'PROJECT', 'USER'],
      visible,
      projectSeen: (s) => s.project.visibleToManager,
    });
    // A CUSTOM project listing the manager is visible to them.
    expect(
      answer.rows.filter((r) => r.project!.id === projects.p5.id).map((r) => r.user!.id),
    ).toEqual([people.staffA.id]);
    // The manager's own shift on the private project counts, unnamed; staff A's there does not.
    expect(
      answer.rows
        .filter((r) => r.project!.id === projects.p3.id)
        .map((r) => [r.user!.id, r.project!.name]),
    ).toEqual([[people.manager.id, null]]);
    // A PUBLIC project of a PRIVATE company: its rows count, the company's name stays hidden.
    expect(
      answer.rows.filter((r) => r.project!.id === projects.p4.id).map((r) => r.company),
    ).toEqual([expect.objectContaining({ id: companies.hidden.id, name: null })]);
  });

  test('the owner sees everything, including company names', async () => {
    const answer = await check(owner, { from: FROM, to: TO, groupBy: ['COMPANY'] });
    expect(answer.rows.map((r) => r.company!.name)).toEqual(['Acme', 'Globex', 'Hidden Co']);
  });

  test('another account sees none of it', async () => {
    const other = await t.newAccount();
    const answer = await report(other, {
      from: FROM,
      to: TO,
      groupBy: ['PROJECT'],
      filter: { projectIds: [projects.p1.id] },
    });
    expect(answer).toMatchObject({ rows: [], totalCount: 0, totals: { seconds: 0 } });
  });
});

describe('running shifts and project totals', () => {
  // The tests after this block compare answers taken at different instants (pages of one report):
  // the running shift stops here, so nothing counts up between their requests.
  afterAll(async () => {
    const running = shifts.find((s) => s.stop === null)!;
    const stop = new Date().toISOString();
    await gql(
      owner,
      'mutation($id: ID!, $input: ShiftInput!) { updateShift(input: { shift: { id: $id }, patch: $input }) { shift { id } } }',
      {
        id: running.id,
        input: { stop },
      },
    );
    running.stop = stop;
  });

  test('a running shift counts up to the instant of the request', async () => {
    const started = Date.now() - 2 * 3600_000;
    // It stays running for the grandTotal test below.
    await makeShift({
      project: projects.p2,
      user: people.staffB,
      start: new Date(started).toISOString(),
      stop: null,
      tags: ['live'],
    });
    const input = {
      from: new Date(started - 86_400_000).toISOString(),
      to: new Date(started + 2 * 86_400_000).toISOString(),
      groupBy: ['PROJECT'],
      filter: { tags: ['live'] },
    };
    const before = Date.now();
    const answer = await report(owner, input);
    const after = Date.now();
    expect(answer.rows).toHaveLength(1);
    expect(answer.rows[0]!.seconds).toBeGreaterThanOrEqual(Math.floor((before - started) / 1000));
    expect(answer.rows[0]!.seconds).toBeLessThanOrEqual(Math.ceil((after - started) / 1000));
    expect(answer.totals.seconds).toBe(answer.rows[0]!.seconds);
    // Billable by default, at staff B's (missing) rate on a project without one: no money.
    expect(answer.rows[0]!.billableSeconds).toBe(answer.rows[0]!.seconds);
    expect(answer.rows[0]!.amountCents).toBe(0);
  });

  test('report totals per project equal grandTotal, read in the same request', async () => {
    const before = Date.now();
    const data = await gql<{
      projects: { nodes: { id: string; grandTotal: number }[] };
      report: ReportAnswer;
    }>(
      owner,
      `query($input: ReportInput!) {
         projects(first: 100) { nodes { id grandTotal } }
         report(input: $input) { rows { project { id: nodeId } seconds } totals { seconds } }
       }`,
      { input: { from: '2020-01-01T00:00:00Z', to: '2029-12-01T00:00:00Z', groupBy: ['PROJECT'] } },
    );
    const grand = new Map(data.projects.nodes.map((p) => [p.id, p.grandTotal]));
    expect(grand.size).toBe(5);
    for (const [id, total] of grand)
      expect(data.report.rows.find((r) => r.project!.id === id)?.seconds ?? 0).toBe(total);
    expect(data.report.rows).toHaveLength(5);
    const sum = [...grand.values()].reduce((a, b) => a + b, 0);
    expect(Math.abs(data.report.totals.seconds - sum)).toBeLessThanOrEqual(1);
    // And the running shift is part of it, up to the request's instant: between what it was when
    // the request left and when the answer came back (bounds, so a slow machine cannot fail it),
    // give or take the rounding of each row.
    const after = Date.now();
    const at = (now: number) =>
      rounded(
        expected({
          from: '2020-01-01T00:00:00Z',
          to: '2029-12-01T00:00:00Z',
          groupBy: ['PROJECT'],
          now,
        }).totals,
      ).seconds;
    expect(data.report.totals.seconds).toBeGreaterThanOrEqual(at(before) - data.report.rows.length);
    expect(data.report.totals.seconds).toBeLessThanOrEqual(at(after) + data.report.rows.length);
  });
});

describe('paging, cost and statements', () => {
  test('first and offset page through the rows in order; totals cover the whole report', async () => {
    const input = { from: FROM, to: TO, groupBy: ['PROJECT', 'USER', 'TAG'] };
    const all = await report(owner, input);
    expect(all.totalCount).toBeGreaterThan(6);
    const pages: Row[] = [];
    for (let offset = 0; offset < all.totalCount; offset += 4) {
      const page = await report(owner, input, { first: 4, offset });
      expect(page.totalCount).toBe(all.totalCount);
      expect(page.totals).toEqual(all.totals);
      pages.push(...page.rows);
    }
    expect(pages).toEqual(all.rows);
    const past = await report(owner, input, { first: 4, offset: 1000 });
    expect(past).toMatchObject({ rows: [], totalCount: all.totalCount, totals: all.totals });
  });

  test('a dashboard asking for the most rows passes the cost limit', async () => {
    const res = await t.gql(owner, REPORT, {
      input: { from: FROM, to: TO, groupBy: DIMS, bucket: 'DAY' },
      first: 10_000,
    });
    expect(res.errors).toBeUndefined();
    expect(res.data!.report.rows.length).toBeGreaterThan(10);
  });

  test('one report is a handful of statements, whatever the number of rows', async () => {
    // What any request costs (authentication, request limits), measured alongside.
    const baseline = await t.countStatements(() => gql(owner, '{ __typename }'));
    const statements = await t.countStatements(() =>
      report(owner, { from: FROM, to: TO, groupBy: DIMS, bucket: 'DAY', timeZone: 'UTC' }),
    );
    // begin, set local jit = off, the report, commit
    expect(statements - baseline).toBe(4);
    const manager = await t.countStatements(() =>
      report(people.manager, { from: FROM, to: TO, groupBy: DIMS, bucket: 'DAY' }),
    );
    const managerBaseline = await t.countStatements(() => gql(people.manager, '{ __typename }'));
    // and the manager's zone, project and company member lists
    expect(manager - managerBaseline).toBe(7);
  });
});

describe('bad input is a client error', () => {
  const expectCode = (res: GraphQLResponse, code: string, field?: string) => {
    expect(codes(res)).toEqual([code]);
    if (field)
      expect(
        (res.errors![0]!.extensions!.fieldErrors as { field: string }[]).map((e) => e.field),
      ).toContain(field);
  };
  const ask = (input: Record<string, unknown>, page: Record<string, unknown> = {}) =>
    t.gql(owner, REPORT, { input: { from: FROM, to: TO, groupBy: [], ...input }, ...page });

  test.each([
    ['to before from', { from: TO, to: FROM }, 'to'],
    ['an empty range', { to: FROM }, 'to'],
    ['a range over 3660 days', { from: '2000-01-01T00:00:00Z', to: '2011-01-01T00:00:00Z' }, 'to'],
    ['an unknown zone', { timeZone: 'Mars/Olympus_Mons' }, 'timeZone'],
    ['a malformed id', { filter: { projectIds: ['not-a-uuid'] } }, 'filter.projectIds.0'],
    ['a blank tag', { filter: { tags: [' '] } }, 'filter.tags.0'],
    ['a year before 1970', { from: '1969-12-31T00:00:00Z' }, 'from'],
  ])('%s: VALIDATION_FAILED', async (_name, input, field) => {
    expectCode(await ask(input), 'VALIDATION_FAILED', field);
  });

  test.each([
    ['first 0', { first: 0 }, 'first'],
    ['first over the maximum', { first: 10_001 }, 'first'],
    ['a negative offset', { offset: -1 }, 'offset'],
  ])('%s: VALIDATION_FAILED', async (_name, page, field) => {
    expectCode(await ask({}, page), 'VALIDATION_FAILED', field);
  });

  test('values GraphQL itself refuses: BAD_USER_INPUT', async () => {
    expectCode(await ask({ from: 'yesterday' }), 'BAD_USER_INPUT');
    expectCode(await ask({ groupBy: ['COLOUR'] }), 'BAD_USER_INPUT');
    expectCode(await ask({ bucket: 'FORTNIGHT' }), 'BAD_USER_INPUT');
    expectCode(await t.gql(owner, REPORT, { input: { from: FROM, to: TO } }), 'BAD_USER_INPUT');
  });

  test('no credentials: UNAUTHENTICATED', async () => {
    const res = await t.gql(undefined, REPORT, { input: { from: FROM, to: TO, groupBy: [] } });
    expect(codes(res)).toEqual(['UNAUTHENTICATED']);
  });
});
