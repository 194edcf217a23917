import { DateTime } from 'luxon';
import { createPasswordHasher, createAccount, AssignableStaffType } from '../modules/staff';
import type { Viewer } from '../core/viewer';
import type { Config } from '../core/config';
import type { Database } from '../db/database';
import { AppError, ValidationError } from '../core/errors';
import { contextForViewer } from '../graphql/context';
import { createServices } from '../graphql/services';
import { Visibility } from '../modules/common';
import { seededRandom } from './seeded-random';
import { createGeocoder } from '../modules/companies';
import { webhookSink } from '../modules/webhooks';

/**
 * `timetrack seed --demo`: a small, realistic account a newcomer can sign in to at once. Every
 * row is made by the services, as the owner (a context of contextForViewer), so every rule of the
 * domain applies; all of it is one transaction, so a refusal half-way leaves nothing behind.
 */

export interface DemoSeedOptions {
  /** The owner's login; the others' logins are `<login>.<first name>`. */
  readonly login: string;
  /** Everyone's password (at least 8 characters). */
  readonly password: string;
  /** The IANA zone of the owner, the manager and most staff; working hours are local to it. */
  readonly timeZone: string;
}

export interface DemoReport {
  readonly accountName: string;
  readonly accountId: number;
  readonly owner: { readonly login: string; readonly password: string };
  /** Manager first, then staff, with the same password as the owner. */
  readonly others: readonly {
    readonly login: string;
    readonly name: string;
    readonly type: 'manager' | 'staff';
  }[];
  readonly companies: number;
  readonly projects: number;
  readonly activities: number;
  /** Stopped shifts, over `days` calendar days before today. */
  readonly shifts: number;
  readonly days: number;
  readonly hours: number;
  readonly nearlyOverdue: {
    readonly project: string;
    readonly hours: number;
    readonly limitHours: number;
  };
  readonly running: {
    readonly login: string;
    readonly name: string;
    readonly project: string;
    readonly since: string;
    readonly timeZone: string;
  };
}

type ProjectKey = 'website' | 'support' | 'shop' | 'brand' | 'migration';
type CompanyKey = 'acme' | 'bluebird' | 'northwind';
type PersonKey = 'owner' | 'morgan' | 'sam' | 'alex' | 'jordan';

interface PersonSpec {
  readonly key: Exclude<PersonKey, 'owner'>;
  readonly firstName: string;
  readonly lastName: string;
  readonly type: AssignableStaffType;
  readonly hourlyRateCents: number;
  /** A zone of their own (a remote colleague); otherwise the seed's zone. */
  readonly timeZone?: string;
}

const OWNER = { firstName: 'Olivia', lastName: 'Owens', email: 'olivia@example.com' };
const ACCOUNT_NAME = 'Demo Studio';

const PEOPLE: readonly PersonSpec[] = [
  {
    key: 'morgan',
    firstName: 'Morgan',
    lastName: 'Lee',
    type: AssignableStaffType.MANAGER,
    hourlyRateCents: 6500,
  },
  {
    key: 'sam',
    firstName: 'Sam',
    lastName: 'Patel',
    type: AssignableStaffType.STAFF,
    hourlyRateCents: 4500,
  },
  {
    key: 'alex',
    firstName: 'Alex',
    lastName: 'Kim',
    type: AssignableStaffType.STAFF,
    hourlyRateCents: 4000,
  },
  {
    key: 'jordan',
    firstName: 'Jordan',
    lastName: 'Rivera',
    type: AssignableStaffType.STAFF,
    hourlyRateCents: 4200,
    timeZone: 'America/New_York',
  },
];

const COMPANIES: readonly {
  key: CompanyKey;
  input: { name: string } & Record<string, string | number>;
}[] = [
  {
    key: 'acme',
    input: {
      name: 'Acme Widgets Ltd',
      contactFirstName: 'Priya',
      contactLastName: 'Shah',
      contactEmailAddress: 'priya.shah@acme.example',
      contactPosition: 'Head of Digital',
      website: 'https://acme.example',
      mainPhone: '+44 161 496 0000',
      mainAddress: '12 Deansgate',
      mainCity: 'Manchester',
      mainPostcode: 'M3 2BW',
      mainCountry: 'GB',
      // Given, so that no geocoder is asked (the offline one would build its index first).
      latitude: 53.4808,
      longitude: -2.2426,
    },
  },
  {
    key: 'bluebird',
    input: {
      name: 'Bluebird Bakery',
      contactFirstName: 'Lena',
      contactLastName: 'Vogel',
      contactEmailAddress: 'lena@bluebird.example',
      contactPosition: 'Owner',
      website: 'https://bluebird.example',
      mainAddress: 'Lange Reihe 5',
      mainCity: 'Hamburg',
      mainPostcode: '20099',
      mainCountry: 'DE',
      latitude: 53.5511,
      longitude: 9.9937,
    },
  },
  {
    key: 'northwind',
    input: {
      name: 'Northwind Traders',
      contactFirstName: 'Dan',
      contactLastName: 'Okafor',
      contactEmailAddress: 'dan.okafor@northwind.example',
      contactPosition: 'CTO',
      mainCity: 'Chicago',
      mainState: 'IL',
      mainCountry: 'US',
      latitude: 41.8781,
      longitude: -87.6298,
    },
  },
];

interface ProjectSpec {
  readonly key: ProjectKey;
  readonly company: CompanyKey;
  readonly name: string;
  readonly activities: readonly string[];
  readonly hourlyRateCents: number | null;
  readonly defaultTags: readonly string[];
  /** How much of the time limit the planned shifts use; null: no limit. */
  readonly limitUse: number | null;
  readonly invoiceAmountCents?: number;
  /** CUSTOM visibility: only these (and owner and managers) see it. */
  readonly members?: readonly PersonKey[];
}

/** "Support retainer" ends up at 95% of its limit: past the default nearly-overdue ratio (0.9). */
const NEARLY_OVERDUE_USE = 0.95;

const PROJECTS: readonly ProjectSpec[] = [
  {
    key: 'website',
    company: 'acme',
    name: 'Website relaunch',
    activities: ['Design', 'Development', 'Meetings'],
    hourlyRateCents: 9500,
    defaultTags: ['web'],
    limitUse: 0.55,
  },
  {
    key: 'support',
    company: 'acme',
    name: 'Support retainer',
    activities: ['Support', 'Maintenance'],
    hourlyRateCents: 8000,
    defaultTags: ['support'],
    limitUse: NEARLY_OVERDUE_USE,
  },
  {
    key: 'shop',
    company: 'bluebird',
    name: 'Online shop',
    activities: ['Development', 'Testing', 'Meetings'],
    hourlyRateCents: 9000,
    defaultTags: ['web', 'shop'],
    limitUse: 0.4,
  },
  {
    key: 'brand',
    company: 'bluebird',
    name: 'Brand refresh',
    activities: ['Design', 'Meetings'],
    hourlyRateCents: 8500,
    defaultTags: ['design'],
    limitUse: null,
  },
  {
    key: 'migration',
    company: 'northwind',
    name: 'Data migration',
    activities: ['Analysis', 'Scripting', 'Meetings'],
    hourlyRateCents: null,
    defaultTags: ['data'],
    limitUse: null,
    invoiceAmountCents: 1_250_000,
    members: ['morgan', 'alex'],
  },
];

/** Who works on what, the first project most. */
const ASSIGNMENTS: Readonly<Record<PersonKey, readonly ProjectKey[]>> = {
  owner: ['website', 'shop'],
  morgan: ['website', 'shop', 'migration'],
  sam: ['support', 'website'],
  alex: ['migration', 'shop'],
  jordan: ['brand', 'website'],
};

const NOTES: Readonly<Record<string, readonly string[]>> = {
  Design: ['Homepage wireframes', 'Style guide review', 'Icon set', 'Mood board'],
  Development: [
    'Checkout flow',
    'Fixed the layout on mobile',
    'Code review',
    'Search page',
    'Newsletter sign-up',
  ],
  Meetings: ['Weekly status call', 'Sprint planning', 'Client workshop'],
  Support: ['Ticket queue', 'Password reset requests', 'Looked into slow reports'],
  Maintenance: ['Security updates', 'Checked the backups'],
  Testing: ['Regression tests', 'Payment provider sandbox'],
  Analysis: ['Mapped the legacy tables', 'Data quality report'],
  Scripting: ['Import script for orders', 'Customer de-duplication'],
};

const EXTRA_TAGS = ['urgent', 'remote', 'follow-up'];

/** Calendar days of history before today. */
const DAYS = 21;

export interface PlannedShift {
  readonly person: PersonKey;
  readonly project: ProjectKey;
  readonly activity: string;
  readonly start: Date;
  readonly stop: Date;
  readonly notes: string;
  readonly tags: readonly string[];
  readonly billable: boolean;
}

export interface DemoPlan {
  readonly shifts: readonly PlannedShift[];
  /** Seconds of the planned shifts per project. */
  readonly seconds: Readonly<Record<ProjectKey, number>>;
  /** Seconds per project with a limit. */
  readonly limits: Readonly<Partial<Record<ProjectKey, number>>>;
  readonly running: {
    readonly person: PersonKey;
    readonly project: ProjectKey;
    readonly activity: string;
    readonly start: Date;
    readonly notes: string;
  };
}

/**
 * The shifts of the demo, worked out before anything is written: the same day gives the same
 * data (a fixed PRNG seed), and the time limits follow from the hours (one nearly overdue).
 * Weekdays of the last three weeks, in each person's local working hours (08:00 to about 18:00).
 */
export function planDemo(now: Date, timeZone: string): DemoPlan {
  const random = seededRandom(20_261_125);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const minutes = (from: number, to: number) =>
    from + 5 * Math.floor(random() * ((to - from) / 5 + 1));
  const shifts: PlannedShift[] = [];
  const people: { key: PersonKey; zone: string }[] = [
    { key: 'owner', zone: timeZone },
    ...PEOPLE.map((p) => ({ key: p.key, zone: p.timeZone ?? timeZone })),
  ];
  for (const { key, zone } of people) {
    const projects = ASSIGNMENTS[key];
    const today = DateTime.fromJSDate(now, { zone }).startOf('day');
    for (let back = DAYS; back >= 1; back--) {
      const day = today.minus({ days: back });
      if (day.weekday > 5) continue;
      if (key === 'owner') {
        // The owner sees clients twice a week, mornings.
        if (day.weekday !== 1 && day.weekday !== 4) continue;
      } else if (random() < 0.08) {
        continue; // a day off
      }
      const blocks =
        key === 'owner' ? ownerBlocks(day, minutes) : workdayBlocks(day, minutes, random);
      for (const [start, stop] of blocks) {
        // The first project takes about half the time.
        const project = random() < 0.5 ? projects[0]! : pick(projects);
        const spec = PROJECTS.find((p) => p.key === project)!;
        const activity = key === 'owner' ? 'Meetings' : pick(spec.activities);
        const extra = random() < 0.15 ? [pick(EXTRA_TAGS)] : [];
        shifts.push({
          person: key,
          project,
          activity,
          start: start.toJSDate(),
          stop: stop.toJSDate(),
          notes: pick(NOTES[activity]!),
          tags: [...spec.defaultTags, ...extra],
          // Internal meetings are not billed.
          billable: !(activity === 'Meetings' && random() < 0.4),
        });
      }
    }
  }
  shifts.sort((a, b) => a.start.getTime() - b.start.getTime());
  const seconds = Object.fromEntries(PROJECTS.map((p) => [p.key, 0])) as Record<ProjectKey, number>;
  for (const shift of shifts)
    seconds[shift.project] += (shift.stop.getTime() - shift.start.getTime()) / 1000;
  const limits: Partial<Record<ProjectKey, number>> = {};
  for (const project of PROJECTS) {
    if (project.limitUse === null) continue;
    // Whole 10 hours for the comfortable ones; quarter hours for the nearly overdue one, so that
    // rounding up cannot push it back under the ratio.
    const step = project.limitUse === NEARLY_OVERDUE_USE ? 900 : 36_000;
    limits[project.key] = Math.ceil(seconds[project.key] / project.limitUse / step) * step;
  }
  const start = new Date(Math.floor((now.getTime() - 97 * 60_000) / 60_000) * 60_000);
  return {
    shifts,
    seconds,
    limits,
    running: {
      person: 'alex',
      project: 'migration',
      activity: 'Scripting',
      start,
      notes: 'Import script for invoices',
    },
  };
}

/** A working day: a morning block, lunch, and one or two afternoon blocks. */
function workdayBlocks(
  day: DateTime,
  minutes: (from: number, to: number) => number,
  random: () => number,
): [DateTime, DateTime][] {
  const begin = day.set({ hour: 8 }).plus({ minutes: minutes(0, 90) });
  const morningEnd = begin.plus({ minutes: minutes(180, 240) });
  const afternoon = morningEnd.plus({ minutes: minutes(30, 60) });
  const afternoonMinutes = minutes(200, 270);
  if (random() < 0.5)
    return [
      [begin, morningEnd],
      [afternoon, afternoon.plus({ minutes: afternoonMinutes })],
    ];
  const first = minutes(60, afternoonMinutes - 60);
  const secondStart = afternoon.plus({ minutes: first + minutes(10, 20) });
  return [
    [begin, morningEnd],
    [afternoon, afternoon.plus({ minutes: first })],
    [secondStart, secondStart.plus({ minutes: afternoonMinutes - first })],
  ];
}

function ownerBlocks(
  day: DateTime,
  minutes: (from: number, to: number) => number,
): [DateTime, DateTime][] {
  const begin = day.set({ hour: 10 }).plus({ minutes: minutes(0, 30) });
  return [[begin, begin.plus({ minutes: minutes(90, 150) })]];
}

/** Seeds the demo account; refuses (nothing written) when the owner's login is taken. */
export async function seedDemo(
  db: Database,
  config: Config,
  options: DemoSeedOptions,
): Promise<DemoReport> {
  const hasher = createPasswordHasher(config.auth.hashMemoryKib);
  // The services as the app composes them (webhooks included), without HTTP.
  const services = createServices(hasher, createGeocoder(config), [webhookSink]);
  return db.orm.em.fork({ clear: true, useContext: false }).transactional(async (tx) => {
    const { account, owner } = await createAccount(
      db.orm,
      hasher,
      services.oauthClients,
      {
        login: options.login,
        password: options.password,
        email: OWNER.email,
        firstName: OWNER.firstName,
        lastName: OWNER.lastName,
        timeZone: options.timeZone,
        name: ACCOUNT_NAME,
      },
      { em: tx },
    ).catch((error: unknown) => {
      throw loginTaken(error)
        ? new AppError(
            'VALIDATION_FAILED',
            `The login ${options.login} is taken: the demo is seeded already. Sign in as ${options.login}, or seed another copy with --login <another login>.`,
          )
        : error;
    });
    const viewer: Viewer = {
      id: owner.id,
      uuid: owner.uuid,
      login: owner.login,
      type: owner.type,
      accountId: account.id,
      // The owner reads money whatever the setting for staff.
      staffSeeMoney: false,
    };
    const ctx = contextForViewer(db.orm, config, viewer);
    // The services run their transactions on the context's EntityManager: bound to this one,
    // each becomes a savepoint of it, and the demo commits or rolls back as a whole.
    ctx.em.setTransactionContext(tx.getTransactionContext()!);
    const zone = owner.timeZone;
    const plan = planDemo(ctx.now, zone);

    const userIds = new Map<PersonKey, string>([['owner', owner.uuid]]);
    const others: DemoReport['others'][number][] = [];
    for (const person of PEOPLE) {
      const login = `${options.login}.${person.firstName.toLowerCase()}`;
      const staff = await services.staff.create(ctx, {
        login,
        password: options.password,
        firstName: person.firstName,
        lastName: person.lastName,
        emailAddress: `${person.firstName.toLowerCase()}@example.com`,
        timeZone: person.timeZone ?? zone,
        type: person.type,
        hourlyRateCents: person.hourlyRateCents,
      });
      userIds.set(person.key, staff.uuid);
      others.push({
        login,
        name: `${person.firstName} ${person.lastName}`,
        type: person.type === AssignableStaffType.MANAGER ? 'manager' : 'staff',
      });
    }

    const companyIds = new Map<CompanyKey, string>();
    for (const company of COMPANIES) {
      companyIds.set(
        company.key,
        (await services.companies.create(ctx, { ...company.input, visibility: Visibility.PUBLIC }))
          .uuid,
      );
    }

    const projectIds = new Map<ProjectKey, string>();
    const activityIds = new Map<string, string>();
    let activities = 0;
    for (const spec of PROJECTS) {
      const project = await services.projects.create(ctx, {
        companyId: companyIds.get(spec.company)!,
        name: spec.name,
        visibility: spec.members ? Visibility.CUSTOM : Visibility.PUBLIC,
        ...(spec.members ? { userIds: spec.members.map((key) => userIds.get(key)!) } : {}),
        timeLimit: plan.limits[spec.key] ?? null,
        hourlyRateCents: spec.hourlyRateCents,
        defaultTags: [...spec.defaultTags],
        billableByDefault: true,
        ...(spec.invoiceAmountCents !== undefined
          ? { invoiceAmountCents: spec.invoiceAmountCents }
          : {}),
      });
      projectIds.set(spec.key, project.uuid);
      for (const name of spec.activities) {
        activityIds.set(
          `${spec.key}/${name}`,
          (await services.activities.create(ctx, { name, projectId: project.uuid })).uuid,
        );
        activities += 1;
      }
    }

    for (const shift of plan.shifts) {
      await services.shifts.create(ctx, {
        projectId: projectIds.get(shift.project)!,
        userId: userIds.get(shift.person)!,
        activityId: activityIds.get(`${shift.project}/${shift.activity}`)!,
        start: shift.start,
        stop: shift.stop,
        notes: shift.notes,
        tagList: [...shift.tags],
        billable: shift.billable,
      });
    }
    const running = plan.running;
    const runningSpec = PROJECTS.find((p) => p.key === running.project)!;
    // No stop: the shift runs, as if its user had punched in at `start`.
    await services.shifts.create(ctx, {
      projectId: projectIds.get(running.project)!,
      userId: userIds.get(running.person)!,
      activityId: activityIds.get(`${running.project}/${running.activity}`)!,
      start: running.start,
      notes: running.notes,
      tagList: [...runningSpec.defaultTags],
    });

    const runner = PEOPLE.find((p) => p.key === running.person)!;
    const runnerZone = runner.timeZone ?? zone;
    const nearly = PROJECTS.find((p) => p.limitUse === NEARLY_OVERDUE_USE)!;
    const hours = (seconds: number) => Math.round(seconds / 360) / 10;
    return {
      accountName: account.name,
      accountId: account.id,
      owner: { login: owner.login, password: options.password },
      others,
      companies: COMPANIES.length,
      projects: PROJECTS.length,
      activities,
      shifts: plan.shifts.length,
      days: DAYS,
      hours: hours(Object.values(plan.seconds).reduce((sum, s) => sum + s, 0)),
      nearlyOverdue: {
        project: nearly.name,
        hours: hours(plan.seconds[nearly.key]),
        limitHours: hours(plan.limits[nearly.key]!),
      },
      running: {
        login: `${options.login}.${runner.firstName.toLowerCase()}`,
        name: `${runner.firstName} ${runner.lastName}`,
        project: runningSpec.name,
        since: DateTime.fromJSDate(running.start, { zone: runnerZone }).toFormat('HH:mm'),
        timeZone: runnerZone,
      },
    };
  });
}

/** The refusal of a taken owner's login (createAccount's field error). */
function loginTaken(error: unknown): boolean {
  return (
    error instanceof ValidationError &&
    (error.details.fieldErrors ?? []).some((e) => e.field === 'login' && /taken/.test(e.message))
  );
}
