import fs from 'node:fs';
import path from 'node:path';
import {
  startTestApp,
  type Credentials,
  type GraphQLResponse,
  type TestApp,
} from '../support/test-app';

/*
 * docs/permissions.md is the permission matrix; this file performs every row of it as every role,
 * through /graphql over HTTP, and compares the answer with the cell. The table is read at run time,
 * so the document and the code cannot drift apart silently: a wrong cell fails its test, and an
 * operation id this file does not know fails too.
 */

const ROLES = ['owner', 'manager', 'staff'] as const;
type Role = (typeof ROLES)[number];
const OUTCOMES = [
  'allow',
  'null',
  'READ_DENIED',
  'CREATE_DENIED',
  'UPDATE_DENIED',
  'DELETE_DENIED',
  'NOT_FOUND',
] as const;
type Outcome = (typeof OUTCOMES)[number];

interface MatrixRow {
  id: string;
  cells: Record<Role, Outcome>;
}

const DOC = path.join(__dirname, '..', '..', 'docs', 'permissions.md');

// ---------------------------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------------------------

function splitRow(line: string): string[] {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return inner.split('|').map((cell) =>
    cell
      .trim()
      .replace(/^`(.*)`$/, '$1')
      .trim(),
  );
}

/** The one table of docs/permissions.md whose header is `operation | owner | manager | staff`. */
function parseMatrix(markdown: string): MatrixRow[] {
  const lines = markdown.split(/\r?\n/);
  const tables: { start: number; lines: string[] }[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.trim().startsWith('|')) continue;
    const start = i;
    const block: string[] = [];
    while (i < lines.length && lines[i]!.trim().startsWith('|')) block.push(lines[i++]!);
    tables.push({ start, lines: block });
  }
  const matrices = tables.filter((table) => {
    const header = splitRow(table.lines[0]!).map((h) => h.toLowerCase());
    return header[0] === 'operation';
  });
  if (matrices.length !== 1) {
    throw new Error(
      `${DOC}: expected exactly one table whose first column is "operation", found ${matrices.length}`,
    );
  }
  const table = matrices[0]!;
  const header = splitRow(table.lines[0]!).map((h) => h.toLowerCase());
  if (JSON.stringify(header) !== JSON.stringify(['operation', ...ROLES])) {
    throw new Error(
      `${DOC}:${table.start + 1}: the header must be "operation | owner | manager | staff", not "${header.join(' | ')}"`,
    );
  }
  if (!/^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)+\|?$/.test(table.lines[1] ?? '')) {
    throw new Error(`${DOC}:${table.start + 2}: the matrix has no separator row`);
  }
  const rows: MatrixRow[] = [];
  const seen = new Set<string>();
  table.lines.slice(2).forEach((line, index) => {
    const where = `${DOC}:${table.start + 3 + index}`;
    const cells = splitRow(line);
    if (cells.length !== 1 + ROLES.length)
      throw new Error(`${where}: expected ${1 + ROLES.length} cells, found ${cells.length}`);
    const [id, ...outcomes] = cells as [string, ...string[]];
    if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(id))
      throw new Error(`${where}: "${id}" is not a kebab-case operation id`);
    if (seen.has(id)) throw new Error(`${where}: operation "${id}" is listed twice`);
    seen.add(id);
    for (const outcome of outcomes) {
      if (!(OUTCOMES as readonly string[]).includes(outcome)) {
        throw new Error(`${where}: "${outcome}" is not one of ${OUTCOMES.join(', ')}`);
      }
    }
    rows.push({
      id,
      cells: Object.fromEntries(ROLES.map((role, i) => [role, outcomes[i]])) as Record<
        Role,
        Outcome
      >,
    });
  });
  if (rows.length === 0) throw new Error(`${DOC}: the matrix has no rows`);
  return rows;
}

const MATRIX = parseMatrix(fs.readFileSync(DOC, 'utf8'));

// ---------------------------------------------------------------------------------------------
// GraphQL documents
// ---------------------------------------------------------------------------------------------

type Vars = Record<string, unknown>;
type Kind = 'staff' | 'company' | 'project' | 'activity' | 'shift';

const STAFF_FIELDS =
  'id legacyId login firstName lastName emailAddress timeZone type active hourlyRateCents';
const COMPANY_FIELDS = 'id legacyId name visibility notes mainCity latitude longitude';
const PROJECT_FIELDS =
  'id legacyId name visibility active notes timeLimit hourlyRateCents tagList defaultTags company { id }';
const ACTIVITY_FIELDS = 'id legacyId name project { id }';
const SHIFT_FIELDS =
  'id legacyId start stop notes timeZone billable tagList user { id } project { id } activity { id }';

const FIELDS: Record<Kind, string> = {
  staff: STAFF_FIELDS,
  company: COMPANY_FIELDS,
  project: PROJECT_FIELDS,
  activity: ACTIVITY_FIELDS,
  shift: SHIFT_FIELDS,
};
const ONE: Record<Kind, string> = {
  staff: 'staffMember',
  company: 'company',
  project: 'project',
  activity: 'activity',
  shift: 'shift',
};
const MANY: Record<Kind, string> = {
  staff: 'staff',
  company: 'companies',
  project: 'projects',
  activity: 'activities',
  shift: 'shifts',
};
const CAPITAL: Record<Kind, string> = {
  staff: 'Staff',
  company: 'Company',
  project: 'Project',
  activity: 'Activity',
  shift: 'Shift',
};
const UPDATE_INPUT: Record<Kind, string> = {
  staff: 'StaffInput',
  company: 'CompanyInput',
  project: 'ProjectInput',
  activity: 'ActivityInput',
  shift: 'ShiftInput',
};

const readQuery = (kind: Kind) =>
  `query($id: ID, $legacyId: Int) { node: ${ONE[kind]}(id: $id, legacyId: $legacyId) { ${FIELDS[kind]} } }`;
const listQuery = (kind: Kind) =>
  `query { list: ${MANY[kind]}(first: 1000) { totalCount nodes { id } } }`;
// `$ref` names the row ({ id } or { legacyId }: a oneOf input); `row` is the payload's object.
const updateMutation = (kind: Kind) =>
  `mutation($ref: ${CAPITAL[kind]}Ref!, $input: ${UPDATE_INPUT[kind]}!) { node: update${CAPITAL[kind]}(input: { ${kind}: $ref, patch: $input }) { row: ${kind} { id } } }`;
const deleteMutation = (kind: Kind) =>
  `mutation($ref: ${CAPITAL[kind]}Ref!) { node: delete${CAPITAL[kind]}(input: { ${kind}: $ref }) { row: ${kind} { id } } }`;
const setActiveMutation = (active: boolean) =>
  `mutation($ref: StaffRef!) { node: ${active ? 'enableStaff' : 'disableStaff'}(input: { staff: $ref }) { row: staff { id } } }`;

const CREATE_STAFF =
  'mutation($input: CreateStaffInput!) { node: createStaff(input: $input) { row: staff { id legacyId } } }';
const CREATE_COMPANY =
  'mutation($input: CreateCompanyInput!) { node: createCompany(input: $input) { row: company { id legacyId } } }';
const CREATE_PROJECT =
  'mutation($input: CreateProjectInput!) { node: createProject(input: $input) { row: project { id legacyId } } }';
const CREATE_ACTIVITY =
  'mutation($input: CreateActivityInput!) { node: createActivity(input: $input) { row: activity { id legacyId } } }';
const CREATE_SHIFT =
  'mutation($input: CreateShiftInput!) { node: createShift(input: $input) { row: shift { id legacyId } } }';
const PUNCH_IN =
  'mutation($project: ProjectRef!) { node: punchIn(input: { project: $project }) { project { id running } } }';
const PUNCH_OUT =
  'mutation($project: ProjectRef!) { node: punchOut(input: { project: $project }) { project { id running } } }';
const RUNNING_SHIFTS =
  'query($userId: ID!, $projectId: ID!) { shifts(filter: { userId: { eq: $userId }, projectId: { eq: $projectId }, stop: { isNull: true } }) { totalCount } }';
const SHIFTS_OF =
  'query($userId: ID!) { shifts(first: 1000, filter: { userId: { eq: $userId } }) { totalCount } }';

/** The outcome of a response in the matrix's words; anything else verbatim, so it fails loudly. */
function outcomeOf(res: GraphQLResponse): string {
  const errors = res.errors ?? [];
  if (errors.length === 0)
    return res.status === 200 ? 'allow' : `HTTP ${res.status} without errors`;
  if (errors.length > 1)
    return `${errors.length} errors: ${errors.map((e) => e.extensions?.code).join(', ')}`;
  return errors[0]!.extensions?.code ?? `an error without a code: ${errors[0]!.message}`;
}

/**
 * A read of fields (personal fields of a person, money, an edge): `allow` when every one has a
 * value, `null` when every one answers null (the read succeeds but withholds them).
 */
function fieldsOutcome(
  res: GraphQLResponse,
  pick: (data: Record<string, any>) => unknown[],
): string {
  if (res.errors?.length) return outcomeOf(res);
  const values = pick(res.data as Record<string, any>);
  if (values.length > 0 && values.every((v) => v !== null && v !== undefined)) return 'allow';
  if (values.length > 0 && values.every((v) => v === null)) return 'null';
  return `some null, some not: ${JSON.stringify(values)}`;
}

const PERSONAL = 'login emailAddress';
const personal = (staff: Record<string, unknown>) => [staff.login, staff.emailAddress];
const REPORT_OF_SHIFTS =
  'query($from: DateTimeISO!, $to: DateTimeISO!) { report(input: { from: $from, to: $to, groupBy: [PROJECT, ACTIVITY] }) { totals { amountCents } rows { project { id: nodeId name } activity { id: nodeId name } amountCents } } }';

/** A list read: `allow` when the row is listed, NOT_FOUND when the list leaves it out. */
function listOutcome(res: GraphQLResponse, id: string): string {
  if (res.errors?.length) return outcomeOf(res);
  const nodes = (res.data?.list?.nodes ?? []) as { id: string }[];
  return nodes.some((n) => n.id === id) ? 'allow' : 'NOT_FOUND';
}

// ---------------------------------------------------------------------------------------------
// The world of one cell: an account with an owner, a manager and a staff member
// ---------------------------------------------------------------------------------------------

interface User extends Credentials {
  id: string;
  legacyId: number;
}
interface Row {
  id: string;
  legacyId: number;
}
type Visibility = 'PUBLIC' | 'PRIVATE' | 'CUSTOM';

let t: TestApp;
let serial = 0;
const unique = (prefix: string) => `${prefix}${++serial}_${Math.random().toString(36).slice(2, 8)}`;

class World {
  private readonly memo = new Map<string, Promise<unknown>>();

  private constructor(
    readonly owner: User,
    readonly manager: User,
    readonly staff: User,
  ) {}

  static async create(): Promise<World> {
    const account = await t.newAccount();
    const owner: User = {
      login: account.login,
      password: account.password,
      id: account.ownerId,
      legacyId: account.ownerLegacyId,
    };
    const manager = await t.newStaff(owner, { type: 'MANAGER' });
    const staff = await t.newStaff(owner);
    return new World(owner, manager, staff);
  }

  as(role: Role): User {
    return this[role];
  }

  private once<T>(key: string, make: () => Promise<T>): Promise<T> {
    if (!this.memo.has(key)) this.memo.set(key, make());
    return this.memo.get(key) as Promise<T>;
  }

  async ok(
    who: Credentials,
    query: string,
    variables: Vars = {},
  ): Promise<Record<string, unknown> & { node: { row: Row } }> {
    return t.gqlOk(who, query, variables) as Promise<
      Record<string, unknown> & { node: { row: Row } }
    >;
  }

  otherStaff(): Promise<User> {
    return this.once('otherStaff', () => t.newStaff(this.owner));
  }

  /**
   * Gives `user` an e-mail address, an hourly rate and a cost rate (as the owner), so that none
   * is null.
   */
  async personalise(user: User): Promise<User> {
    await this.ok(this.owner, updateMutation('staff'), {
      ref: { id: user.id },
      input: {
        emailAddress: `${user.login}@example.com`,
        hourlyRateCents: 4200,
        costRateCents: 2100,
      },
    });
    return user;
  }

  /** Lets the account's staff members see rates and amounts (`staffSeeMoney`). */
  async letStaffSeeMoney(): Promise<void> {
    await this.ok(
      this.owner,
      'mutation { updateAccount(input: { staffSeeMoney: true }) { account { id } } }',
      {},
    );
  }

  /** A shift of the caller with an activity, on a project the owner then makes PRIVATE. */
  ownShiftOnInvisibleProject(role: Role): Promise<Row> {
    return this.once(`ownShiftOnInvisibleProject:${role}`, async () => {
      const project = await this.project('PUBLIC', { userIds: [] });
      const activity = await this.activity(project);
      const input = {
        projectId: project.id,
        activityId: activity.id,
        userId: this.as(role).id,
        start: '2026-01-15T09:00:00Z',
        stop: '2026-01-15T10:00:00Z',
      };
      const shift = (await this.ok(this.owner, CREATE_SHIFT, { input })).node.row;
      await this.setVisibility('project', project, 'PRIVATE');
      return shift;
    });
  }

  otherManager(): Promise<User> {
    return this.once('otherManager', () => t.newStaff(this.owner, { type: 'MANAGER' }));
  }

  /** The users a CUSTOM row lists: `listed` names both callers who are not the owner. */
  async members(which: 'listed' | 'unlisted'): Promise<string[]> {
    return which === 'listed' ? [this.manager.id, this.staff.id] : [(await this.otherStaff()).id];
  }

  async company(
    visibility: Visibility,
    userIds: string[] = [],
    by: User = this.owner,
  ): Promise<Row> {
    const input = { name: unique('Company '), visibility, ...(userIds.length ? { userIds } : {}) };
    return (await this.ok(by, CREATE_COMPANY, { input })).node.row;
  }

  publicCompany(): Promise<Row> {
    return this.once('publicCompany', () => this.company('PUBLIC'));
  }

  async project(
    visibility: Visibility,
    options: { company?: Row; userIds?: string[] } = {},
  ): Promise<Row> {
    const company = options.company ?? (await this.publicCompany());
    const input = {
      name: unique('Project '),
      companyId: company.id,
      visibility,
      ...(options.userIds?.length ? { userIds: options.userIds } : {}),
    };
    return (await this.ok(this.owner, CREATE_PROJECT, { input })).node.row;
  }

  publicProject(): Promise<Row> {
    return this.once('publicProject', () => this.project('PUBLIC'));
  }

  privateProject(): Promise<Row> {
    return this.once('privateProject', () => this.project('PRIVATE'));
  }

  async activity(project: Row): Promise<Row> {
    return (
      await this.ok(this.owner, CREATE_ACTIVITY, {
        input: { name: unique('Activity '), projectId: project.id },
      })
    ).node.row;
  }

  /** A shift of `user`, created by the owner; closed unless `running`. */
  async shift(project: Row, user: User, running = false): Promise<Row> {
    const day = String((serial++ % 27) + 1).padStart(2, '0');
    const input = running
      ? {
          projectId: project.id,
          userId: user.id,
          start: new Date(Date.now() - 3_600_000).toISOString(),
        }
      : {
          projectId: project.id,
          userId: user.id,
          start: `2026-01-${day}T09:00:00Z`,
          stop: `2026-01-${day}T10:00:00Z`,
        };
    return (await this.ok(this.owner, CREATE_SHIFT, { input })).node.row;
  }

  async setVisibility(
    kind: 'company' | 'project',
    row: Row,
    visibility: Visibility,
  ): Promise<void> {
    await this.ok(this.owner, updateMutation(kind), { ref: { id: row.id }, input: { visibility } });
  }

  /** The row as the owner sees it, or null when it does not exist. */
  async read(
    kind: Kind,
    row: Row,
    who: Credentials = this.owner,
  ): Promise<Record<string, unknown> | null> {
    const res = await t.gql(who, readQuery(kind), { id: row.id });
    if (res.errors?.length) {
      if (outcomeOf(res) === 'NOT_FOUND') return null;
      throw new Error(`reading ${kind} ${row.id} failed: ${JSON.stringify(res.errors)}`);
    }
    return res.data!.node as Record<string, unknown>;
  }

  async count(query: string, variables: Vars = {}): Promise<number> {
    const data = await t.gqlOk(this.owner, query, variables);
    return (Object.values(data)[0] as { totalCount: number }).totalCount;
  }

  /**
   * Runs a mutation as `who` and checks that it did exactly what its answer says: when allowed,
   * `probe` (run as the owner) reads `expected`; when refused, `probe` reads what it read before.
   */
  async mutate<T>(
    who: Credentials,
    query: string,
    variables: Vars,
    probe: () => Promise<T>,
    expected: (before: T) => T,
  ): Promise<string> {
    const before = await probe();
    const outcome = outcomeOf(await t.gql(who, query, variables));
    const after = await probe();
    if (outcome === 'allow') expect(after).toEqual(expected(before));
    else expect(after).toEqual(before);
    return outcome;
  }

  /** Changes fields of a row as `role`; when allowed, the owner reads the new values. */
  async change(
    role: Role,
    kind: Kind,
    row: Row,
    input: Vars,
    expectedFields: Vars = input,
  ): Promise<string> {
    return this.mutate(
      this.as(role),
      updateMutation(kind),
      { ref: { id: row.id }, input },
      () => this.read(kind, row),
      (before) => ({
        ...before,
        ...expectedFields,
      }),
    );
  }

  async remove(role: Role, kind: Kind, row: Row): Promise<string> {
    return this.mutate(
      this.as(role),
      deleteMutation(kind),
      { ref: { id: row.id } },
      () => this.read(kind, row),
      () => null,
    );
  }

  async setActive(role: Role, target: Row, active: boolean): Promise<string> {
    return this.mutate(
      this.as(role),
      setActiveMutation(active),
      { ref: { id: target.id } },
      () => this.read('staff', target),
      (before) => ({
        ...before,
        active,
      }),
    );
  }

  /** Creates as `role`; when allowed, the owner counts one more row. */
  async create(
    role: Role,
    mutation: string,
    input: Vars,
    countQuery: string,
    countVars: Vars = {},
  ): Promise<string> {
    return this.mutate(
      this.as(role),
      mutation,
      { input },
      () => this.count(countQuery, countVars),
      (before) => before + 1,
    );
  }

  async readAs(role: Role, kind: Kind, row: Row): Promise<string> {
    return outcomeOf(await t.gql(this.as(role), readQuery(kind), { id: row.id }));
  }

  async listAs(role: Role, kind: Kind, row: Row): Promise<string> {
    return listOutcome(await t.gql(this.as(role), listQuery(kind)), row.id);
  }
}

async function canSignIn(credentials: Credentials): Promise<boolean> {
  return (await t.gql(credentials, '{ viewer { staff { id } } }')).status === 200;
}

// ---------------------------------------------------------------------------------------------
// The operations of the matrix
// ---------------------------------------------------------------------------------------------

type Operation = (w: World, role: Role) => Promise<string>;

const companyByVisibility = async (
  w: World,
  which: 'public' | 'private' | 'custom-listed' | 'custom-unlisted',
): Promise<Row> => {
  if (which === 'public') return w.company('PUBLIC');
  if (which === 'private') return w.company('PRIVATE');
  return w.company('CUSTOM', await w.members(which === 'custom-listed' ? 'listed' : 'unlisted'));
};
const projectByVisibility = async (
  w: World,
  which: 'public' | 'private' | 'custom-listed' | 'custom-unlisted',
): Promise<Row> => {
  if (which === 'public') return w.project('PUBLIC');
  if (which === 'private') return w.project('PRIVATE');
  return w.project('CUSTOM', {
    userIds: await w.members(which === 'custom-listed' ? 'listed' : 'unlisted'),
  });
};
const VISIBILITIES = ['public', 'private', 'custom-listed', 'custom-unlisted'] as const;

const OPERATIONS = new Map<string, Operation>([
  [
    'viewer-read',
    async (w, role) =>
      outcomeOf(await t.gql(w.as(role), '{ viewer { staff { id type } account { id } } }')),
  ],

  // Staff -----------------------------------------------------------------------------------
  ['staff-list', (w, role) => w.listAs(role, 'staff', w.as(role))],
  ['staff-list-other', async (w, role) => w.listAs(role, 'staff', await w.otherStaff())],
  ['staff-list-owner', (w, role) => w.listAs(role, 'staff', w.owner)],
  ['staff-read-self', (w, role) => w.readAs(role, 'staff', w.as(role))],
  ['staff-read-other', async (w, role) => w.readAs(role, 'staff', await w.otherStaff())],
  ['staff-read-owner', (w, role) => w.readAs(role, 'staff', w.owner)],
  [
    'staff-create',
    (w, role) =>
      w.create(
        role,
        CREATE_STAFF,
        { login: unique('new'), password: 'new-password' },
        listQuery('staff'),
      ),
  ],
  [
    'staff-update-self-profile',
    (w, role) =>
      w.change(role, 'staff', w.as(role), {
        firstName: 'Renamed',
        lastName: 'Person',
        emailAddress: 'renamed@example.com',
        timeZone: 'Europe/Berlin',
      }),
  ],
  [
    'staff-update-self-password',
    async (w, role) => {
      const me = w.as(role);
      const password = 'a-brand-new-password';
      const outcome = await w.mutate(
        me,
        updateMutation('staff'),
        { ref: { id: me.id }, input: { password } },
        async () => [await canSignIn({ login: me.login, password }), await canSignIn(me)],
        () => [true, false],
      );
      return outcome;
    },
  ],
  [
    'staff-update-self-login',
    async (w, role) => {
      const me = w.as(role);
      const login = unique('renamed');
      return w.mutate(
        me,
        updateMutation('staff'),
        { ref: { id: me.id }, input: { login } },
        () => canSignIn({ login, password: me.password }),
        () => true,
      );
    },
  ],
  [
    'staff-update-self-rate',
    (w, role) => w.change(role, 'staff', w.as(role), { hourlyRateCents: 4200 }),
  ],
  [
    'staff-update-other',
    async (w, role) => w.change(role, 'staff', await w.otherStaff(), { firstName: 'Renamed' }),
  ],
  [
    'staff-update-other-manager',
    async (w, role) => w.change(role, 'staff', await w.otherManager(), { firstName: 'Renamed' }),
  ],
  ['staff-update-owner', (w, role) => w.change(role, 'staff', w.owner, { firstName: 'Renamed' })],
  [
    'staff-change-own-type',
    (w, role) =>
      w.change(role, 'staff', w.as(role), { type: role === 'manager' ? 'STAFF' : 'MANAGER' }),
  ],
  ['staff-change-own-active', (w, role) => w.change(role, 'staff', w.as(role), { active: false })],
  [
    'staff-change-other-type',
    async (w, role) => w.change(role, 'staff', await w.otherStaff(), { type: 'MANAGER' }),
  ],
  ['staff-delete', async (w, role) => w.remove(role, 'staff', await w.otherStaff())],
  [
    'staff-delete-other-manager',
    async (w, role) => w.remove(role, 'staff', await w.otherManager()),
  ],
  ['staff-delete-self', (w, role) => w.remove(role, 'staff', w.as(role))],
  ['staff-delete-owner', (w, role) => w.remove(role, 'staff', w.owner)],
  ['staff-disable', async (w, role) => w.setActive(role, await w.otherStaff(), false)],
  [
    'staff-enable',
    async (w, role) => {
      const target = await w.otherStaff();
      await w.ok(w.owner, setActiveMutation(false), { ref: { id: target.id } });
      return w.setActive(role, target, true);
    },
  ],
  ['staff-disable-self', (w, role) => w.setActive(role, w.as(role), false)],
  ['staff-disable-owner', (w, role) => w.setActive(role, w.owner, false)],

  // Companies -------------------------------------------------------------------------------
  ...VISIBILITIES.map((v): [string, Operation] => [
    `company-list-${v}`,
    async (w, role) => w.listAs(role, 'company', await companyByVisibility(w, v)),
  ]),
  ...VISIBILITIES.map((v): [string, Operation] => [
    `company-read-${v}`,
    async (w, role) => w.readAs(role, 'company', await companyByVisibility(w, v)),
  ]),
  [
    'company-read-private-created-by-caller',
    async (w, role) => {
      if (role !== 'staff')
        return w.readAs(role, 'company', await w.company('PRIVATE', [], w.as(role)));
      // Staff members cannot create companies: the creator is a manager, made a staff member later.
      const creator = await t.newStaff(w.owner, { type: 'MANAGER' });
      const company = await w.company('PRIVATE', [], creator);
      await w.ok(w.owner, updateMutation('staff'), {
        ref: { id: creator.id },
        input: { type: 'STAFF' },
      });
      expect((await w.read('staff', creator))?.type).toBe('STAFF');
      return outcomeOf(await t.gql(creator, readQuery('company'), { id: company.id }));
    },
  ],
  [
    'company-create',
    (w, role) =>
      w.create(role, CREATE_COMPANY, { name: unique('New company ') }, listQuery('company')),
  ],
  [
    'company-update',
    async (w, role) =>
      w.change(role, 'company', await w.company('PUBLIC'), { name: 'Renamed company' }),
  ],
  [
    'company-update-private',
    async (w, role) =>
      w.change(role, 'company', await w.company('PRIVATE'), { name: 'Renamed company' }),
  ],
  ['company-delete', async (w, role) => w.remove(role, 'company', await w.company('PUBLIC'))],
  [
    'company-delete-private',
    async (w, role) => w.remove(role, 'company', await w.company('PRIVATE')),
  ],

  // Projects --------------------------------------------------------------------------------
  ...VISIBILITIES.map((v): [string, Operation] => [
    `project-list-${v}`,
    async (w, role) => w.listAs(role, 'project', await projectByVisibility(w, v)),
  ]),
  ...VISIBILITIES.map((v): [string, Operation] => [
    `project-read-${v}`,
    async (w, role) => w.readAs(role, 'project', await projectByVisibility(w, v)),
  ]),
  [
    'project-read-public-in-private-company',
    async (w, role) =>
      w.readAs(role, 'project', await w.project('PUBLIC', { company: await w.company('PRIVATE') })),
  ],
  [
    'project-create',
    async (w, role) =>
      w.create(
        role,
        CREATE_PROJECT,
        {
          name: unique('New project '),
          companyId: (await w.publicCompany()).id,
          visibility: 'PUBLIC',
        },
        listQuery('project'),
      ),
  ],
  [
    'project-create-in-private-company',
    async (w, role) =>
      w.create(
        role,
        CREATE_PROJECT,
        {
          name: unique('New project '),
          companyId: (await w.company('PRIVATE')).id,
          visibility: 'PUBLIC',
        },
        listQuery('project'),
      ),
  ],
  [
    'project-update',
    async (w, role) =>
      w.change(role, 'project', await w.project('PUBLIC'), { name: 'Renamed project' }),
  ],
  [
    'project-update-private',
    async (w, role) =>
      w.change(role, 'project', await w.project('PRIVATE'), { name: 'Renamed project' }),
  ],
  ['project-delete', async (w, role) => w.remove(role, 'project', await w.project('PUBLIC'))],
  [
    'project-delete-private',
    async (w, role) => w.remove(role, 'project', await w.project('PRIVATE')),
  ],

  // Punching --------------------------------------------------------------------------------
  ['punch-in', async (w, role) => punch(w, role, await w.publicProject(), 'in')],
  ['punch-in-private', async (w, role) => punch(w, role, await w.privateProject(), 'in')],
  [
    'punch-out',
    async (w, role) => {
      const project = await w.publicProject();
      await w.shift(project, w.as(role), true);
      return punch(w, role, project, 'out');
    },
  ],
  [
    'punch-out-after-made-private',
    async (w, role) => {
      const project = await w.publicProject();
      await w.shift(project, w.as(role), true);
      await w.setVisibility('project', project, 'PRIVATE');
      return punch(w, role, project, 'out');
    },
  ],

  // Activities ------------------------------------------------------------------------------
  [
    'activity-list',
    async (w, role) => w.listAs(role, 'activity', await w.activity(await w.publicProject())),
  ],
  [
    'activity-list-private-project',
    async (w, role) => w.listAs(role, 'activity', await w.activity(await w.privateProject())),
  ],
  [
    'activity-read',
    async (w, role) => w.readAs(role, 'activity', await w.activity(await w.publicProject())),
  ],
  [
    'activity-read-private-project',
    async (w, role) => w.readAs(role, 'activity', await w.activity(await w.privateProject())),
  ],
  ['activity-create', async (w, role) => createActivity(w, role, await w.publicProject())],
  [
    'activity-create-private-project',
    async (w, role) => createActivity(w, role, await w.privateProject()),
  ],
  [
    'activity-update',
    async (w, role) =>
      w.change(role, 'activity', await w.activity(await w.publicProject()), {
        name: 'Renamed activity',
      }),
  ],
  [
    'activity-update-private-project',
    async (w, role) =>
      w.change(role, 'activity', await w.activity(await w.privateProject()), {
        name: 'Renamed activity',
      }),
  ],
  [
    'activity-delete',
    async (w, role) => w.remove(role, 'activity', await w.activity(await w.publicProject())),
  ],
  [
    'activity-delete-private-project',
    async (w, role) => w.remove(role, 'activity', await w.activity(await w.privateProject())),
  ],

  // Fields and edges ------------------------------------------------------------------------
  [
    'staff-personal-self',
    async (w, role) => {
      await w.personalise(w.as(role));
      const res = await t.gql(w.as(role), `{ viewer { staff { ${PERSONAL} } } }`);
      return fieldsOutcome(res, (data) => personal(data.viewer.staff));
    },
  ],
  [
    'staff-rate-self',
    async (w, role) => {
      await w.personalise(w.as(role));
      const res = await t.gql(w.as(role), '{ viewer { staff { hourlyRateCents } } }');
      return fieldsOutcome(res, (data) => [data.viewer.staff.hourlyRateCents]);
    },
  ],
  [
    'staff-rate-self-when-staff-see-money',
    async (w, role) => {
      await w.personalise(w.as(role));
      await w.letStaffSeeMoney();
      const res = await t.gql(w.as(role), '{ viewer { staff { hourlyRateCents } } }');
      return fieldsOutcome(res, (data) => [data.viewer.staff.hourlyRateCents]);
    },
  ],
  [
    'staff-cost-rate-self-when-staff-see-money',
    async (w, role) => {
      await w.personalise(w.as(role));
      await w.letStaffSeeMoney();
      const res = await t.gql(w.as(role), '{ viewer { staff { costRateCents } } }');
      return fieldsOutcome(res, (data) => [data.viewer.staff.costRateCents]);
    },
  ],
  [
    'staff-personal-owner-via-account',
    async (w, role) => {
      await w.personalise(w.owner);
      const res = await t.gql(w.as(role), `{ viewer { account { owner { ${PERSONAL} } } } }`);
      return fieldsOutcome(res, (data) => personal(data.viewer.account.owner));
    },
  ],
  [
    'staff-personal-other-via-project',
    async (w, role) => {
      const other = await w.personalise(await w.otherStaff());
      const userIds = [...(await w.members('listed')), other.id];
      const project = await w.project('CUSTOM', { userIds });
      const res = await t.gql(
        w.as(role),
        `query($id: ID!) { project(id: $id) { users { id ${PERSONAL} } } }`,
        { id: project.id },
      );
      return fieldsOutcome(res, (data) =>
        personal(data.project.users.find((u: Row) => u.id === other.id)),
      );
    },
  ],
  [
    'staff-personal-other-via-company',
    async (w, role) => {
      const other = await w.personalise(await w.otherStaff());
      const company = await w.company('CUSTOM', [...(await w.members('listed')), other.id]);
      const res = await t.gql(
        w.as(role),
        `query($id: ID!) { company(id: $id) { users { id ${PERSONAL} } } }`,
        { id: company.id },
      );
      return fieldsOutcome(res, (data) =>
        personal(data.company.users.find((u: Row) => u.id === other.id)),
      );
    },
  ],
  [
    'project-money-read',
    async (w, role) => {
      const project = (
        await w.ok(w.owner, CREATE_PROJECT, {
          input: {
            name: unique('Paid '),
            companyId: (await w.publicCompany()).id,
            visibility: 'PUBLIC',
            hourlyRate: '$85',
            invoiceAmountCents: 100000,
          },
        })
      ).node.row;
      const res = await t.gql(
        w.as(role),
        'query($id: ID!) { project(id: $id) { hourlyRate hourlyRateCents invoiceAmountCents } }',
        { id: project.id },
      );
      return fieldsOutcome(res, (data) => Object.values(data.project));
    },
  ],
  [
    'project-money-filter',
    async (w, role) => {
      await w.publicProject();
      return outcomeOf(
        await t.gql(
          w.as(role),
          '{ projects(filter: { hourlyRateCents: { isNull: true } }) { totalCount } }',
        ),
      );
    },
  ],
  [
    'report-money',
    async (w, role) => {
      await w.shift(await w.publicProject(), w.as(role));
      const res = await t.gql(w.as(role), REPORT_OF_SHIFTS, {
        from: '2026-01-01T00:00:00Z',
        to: '2026-02-01T00:00:00Z',
      });
      return fieldsOutcome(res, (data) => [
        data.report.totals.amountCents,
        ...data.report.rows.map((r: { amountCents: number | null }) => r.amountCents),
      ]);
    },
  ],
  [
    'shift-project-own-on-invisible-project',
    async (w, role) => {
      const shift = await w.ownShiftOnInvisibleProject(role);
      const res = await t.gql(
        w.as(role),
        'query($id: ID!) { shift(id: $id) { project { id name } activity { id name } } }',
        { id: shift.id },
      );
      return fieldsOutcome(res, (data) => [data.shift.project, data.shift.activity]);
    },
  ],
  [
    'report-name-own-on-invisible-project',
    async (w, role) => {
      const shift = await w.ownShiftOnInvisibleProject(role);
      const ids = (
        await t.gqlOk(w.owner, 'query($id: ID!) { shift(id: $id) { projectId activityId } }', {
          id: shift.id,
        })
      ).shift;
      const res = await t.gql(w.as(role), REPORT_OF_SHIFTS, {
        from: '2026-01-15T00:00:00Z',
        to: '2026-01-16T00:00:00Z',
      });
      return fieldsOutcome(res, (data) => {
        const row = data.report.rows.find(
          (r: { project: Row; activity: Row | null }) =>
            r.project.id === ids.projectId && r.activity?.id === ids.activityId,
        );
        return [row.project.name, row.activity.name];
      });
    },
  ],

  // Shifts ----------------------------------------------------------------------------------
  [
    'shift-list-own',
    async (w, role) => w.listAs(role, 'shift', await w.shift(await w.publicProject(), w.as(role))),
  ],
  [
    'shift-list-other',
    async (w, role) =>
      w.listAs(role, 'shift', await w.shift(await w.publicProject(), await w.otherStaff())),
  ],
  [
    'shift-read-own',
    async (w, role) => w.readAs(role, 'shift', await w.shift(await w.publicProject(), w.as(role))),
  ],
  [
    'shift-read-other',
    async (w, role) =>
      w.readAs(role, 'shift', await w.shift(await w.publicProject(), await w.otherStaff())),
  ],
  [
    'shift-read-own-on-invisible-project',
    async (w, role) => {
      const project = await w.publicProject();
      const shift = await w.shift(project, w.as(role));
      await w.setVisibility('project', project, 'PRIVATE');
      return w.readAs(role, 'shift', shift);
    },
  ],
  [
    'shift-read-other-on-invisible-project',
    async (w, role) => {
      const project = await w.publicProject();
      const shift = await w.shift(project, await w.otherStaff());
      await w.setVisibility('project', project, 'PRIVATE');
      return w.readAs(role, 'shift', shift);
    },
  ],
  [
    'shift-create-own',
    async (w, role) => createShift(w, role, await w.publicProject(), w.as(role), false),
  ],
  [
    'shift-create-for-other',
    async (w, role) => createShift(w, role, await w.publicProject(), await w.otherStaff(), true),
  ],
  [
    'shift-create-for-owner',
    async (w, role) => createShift(w, role, await w.publicProject(), w.owner, true),
  ],
  [
    'shift-create-on-private-project',
    async (w, role) => createShift(w, role, await w.privateProject(), w.as(role), false),
  ],
  [
    'shift-update-own',
    async (w, role) =>
      w.change(role, 'shift', await w.shift(await w.publicProject(), w.as(role)), {
        notes: 'changed',
      }),
  ],
  [
    'shift-update-other',
    async (w, role) =>
      w.change(role, 'shift', await w.shift(await w.publicProject(), await w.otherStaff()), {
        notes: 'changed',
      }),
  ],
  [
    'shift-reassign-own-to-other',
    async (w, role) => {
      const other = await w.otherStaff();
      const shift = await w.shift(await w.publicProject(), w.as(role));
      return w.change(role, 'shift', shift, { userId: other.id }, { user: { id: other.id } });
    },
  ],
  [
    'shift-move-to-private-project',
    async (w, role) => {
      const target = await w.privateProject();
      const shift = await w.shift(await w.publicProject(), w.as(role));
      return w.change(
        role,
        'shift',
        shift,
        { projectId: target.id },
        { project: { id: target.id } },
      );
    },
  ],
  [
    'shift-delete-own',
    async (w, role) => w.remove(role, 'shift', await w.shift(await w.publicProject(), w.as(role))),
  ],
  [
    'shift-delete-other',
    async (w, role) =>
      w.remove(role, 'shift', await w.shift(await w.publicProject(), await w.otherStaff())),
  ],
]);

async function punch(w: World, role: Role, project: Row, direction: 'in' | 'out'): Promise<string> {
  const me = w.as(role);
  return w.mutate(
    me,
    direction === 'in' ? PUNCH_IN : PUNCH_OUT,
    { project: { id: project.id } },
    () => w.count(RUNNING_SHIFTS, { userId: me.id, projectId: project.id }),
    () => (direction === 'in' ? 1 : 0),
  );
}

async function createActivity(w: World, role: Role, project: Row): Promise<string> {
  const count = `query($projectId: ID!) { activities(projectId: $projectId) { totalCount } }`;
  return w.create(
    role,
    CREATE_ACTIVITY,
    { name: unique('New activity '), projectId: project.id },
    count,
    { projectId: project.id },
  );
}

async function createShift(
  w: World,
  role: Role,
  project: Row,
  user: User,
  nameUser: boolean,
): Promise<string> {
  const input = {
    projectId: project.id,
    ...(nameUser ? { userId: user.id } : {}),
    start: '2026-02-02T09:00:00Z',
    stop: '2026-02-02T11:30:00Z',
    notes: 'logged',
  };
  return w.create(role, CREATE_SHIFT, input, SHIFTS_OF, { userId: user.id });
}

// ---------------------------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------------------------

beforeAll(async () => {
  // Every request here runs alone, so one that waits seconds for a pooled connection is stuck,
  // not busy: fail it in 2 s instead of the default 10 s (the answer is the same error code).
  t = await startTestApp();
});
afterAll(() => t?.close());

test('docs/permissions.md lists every operation this test performs, and only those', () => {
  const listed = MATRIX.map((row) => row.id);
  expect(listed.filter((id) => !OPERATIONS.has(id))).toEqual([]);
  expect([...OPERATIONS.keys()].filter((id) => !listed.includes(id))).toEqual([]);
});

test('the matrix parser refuses what it cannot read', () => {
  const good =
    '| operation | owner | manager | staff |\n|---|---|---|---|\n| `x-y` | allow | NOT_FOUND | READ_DENIED |\n';
  expect(parseMatrix(good)).toEqual([
    { id: 'x-y', cells: { owner: 'allow', manager: 'NOT_FOUND', staff: 'READ_DENIED' } },
  ]);
  expect(() => parseMatrix(good.replace('READ_DENIED', 'FORBIDDEN'))).toThrow(/not one of/);
  expect(() => parseMatrix(good.replace('| manager | staff', '| staff | manager'))).toThrow(
    /header/,
  );
  expect(() => parseMatrix(good + '| `x-y` | allow | allow | allow |\n')).toThrow(/twice/);
  expect(() => parseMatrix(good + '\n' + good)).toThrow(/exactly one table/);
  expect(() => parseMatrix(good.replace('`x-y`', 'X Y'))).toThrow(/kebab-case/);
});

describe.each(MATRIX.map((row) => [row.id, row] as const))('%s', (_id, row) => {
  test.each(ROLES.map((role) => [role, row.cells[role]] as const))(
    'as %s: %s',
    async (role, expected) => {
      const operation = OPERATIONS.get(row.id);
      if (!operation)
        throw new Error(
          `docs/permissions.md lists "${row.id}", an operation this test does not know how to perform`,
        );
      const world = await World.create();
      expect(await operation(world, role)).toBe(expected);
    },
  );
});

// ---------------------------------------------------------------------------------------------
// Tenancy: the owner of account B against the rows of account A
// ---------------------------------------------------------------------------------------------

describe('cross-tenant: the owner of another account', () => {
  const KINDS: Kind[] = ['staff', 'company', 'project', 'activity', 'shift'];
  const LOCATORS = ['id', 'legacyId'] as const;
  const CHANGES: Record<Kind, Vars> = {
    staff: { firstName: 'Hijacked', password: 'hijacked-password' },
    company: { name: 'Hijacked', visibility: 'PUBLIC' },
    project: { name: 'Hijacked', active: false },
    activity: { name: 'Hijacked' },
    shift: { notes: 'Hijacked', stop: '2026-03-03T23:00:00Z' },
  };

  let a: World;
  let intruder: User;
  let rows: Record<Kind, Row>;
  let before: Record<Kind, Record<string, unknown> | null>;

  const locate = (row: Row, by: (typeof LOCATORS)[number]) =>
    by === 'id' ? { id: row.id } : { legacyId: row.legacyId };

  async function snapshot(): Promise<Record<Kind, Record<string, unknown> | null>> {
    const entries = await Promise.all(
      KINDS.map(async (kind) => [kind, await a.read(kind, rows[kind])] as const),
    );
    return Object.fromEntries(entries) as Record<Kind, Record<string, unknown> | null>;
  }

  beforeAll(async () => {
    a = await World.create();
    const company = await a.company('PUBLIC');
    const project = await a.project('PUBLIC', { company });
    const activity = await a.activity(project);
    const shift = (
      await a.ok(a.owner, CREATE_SHIFT, {
        input: {
          projectId: project.id,
          userId: a.staff.id,
          activityId: activity.id,
          start: '2026-03-03T09:00:00Z',
          stop: '2026-03-03T10:00:00Z',
          notes: 'A',
        },
      })
    ).node.row;
    rows = { staff: a.staff, company, project, activity, shift };
    before = await snapshot();
    for (const kind of KINDS) expect(before[kind]).not.toBeNull();
    const b = await t.newAccount();
    intruder = { login: b.login, password: b.password, id: b.ownerId, legacyId: b.ownerLegacyId };
  });

  for (const kind of KINDS) {
    for (const by of LOCATORS) {
      test(`cannot read A's ${kind} by ${by}`, async () => {
        expect(outcomeOf(await t.gql(intruder, readQuery(kind), locate(rows[kind], by)))).toBe(
          'NOT_FOUND',
        );
      });
      test(`cannot update A's ${kind} by ${by}`, async () => {
        const res = await t.gql(intruder, updateMutation(kind), {
          ref: locate(rows[kind], by),
          input: CHANGES[kind],
        });
        expect(outcomeOf(res)).toBe('NOT_FOUND');
        expect(await a.read(kind, rows[kind])).toEqual(before[kind]);
      });
      test(`cannot delete A's ${kind} by ${by}`, async () => {
        expect(
          outcomeOf(await t.gql(intruder, deleteMutation(kind), { ref: locate(rows[kind], by) })),
        ).toBe('NOT_FOUND');
        expect(await a.read(kind, rows[kind])).toEqual(before[kind]);
      });
    }
  }

  for (const by of LOCATORS) {
    test(`cannot read A's owner, nor disable or enable A's staff, by ${by}`, async () => {
      expect(outcomeOf(await t.gql(intruder, readQuery('staff'), locate(a.owner, by)))).toBe(
        'NOT_FOUND',
      );
      expect(
        outcomeOf(await t.gql(intruder, setActiveMutation(false), { ref: locate(rows.staff, by) })),
      ).toBe('NOT_FOUND');
      expect(
        outcomeOf(await t.gql(intruder, setActiveMutation(true), { ref: locate(rows.staff, by) })),
      ).toBe('NOT_FOUND');
    });

    test(`cannot punch in to or out of A's project by ${by}`, async () => {
      expect(
        outcomeOf(await t.gql(intruder, PUNCH_IN, { project: locate(rows.project, by) })),
      ).toBe('NOT_FOUND');
      expect(
        outcomeOf(await t.gql(intruder, PUNCH_OUT, { project: locate(rows.project, by) })),
      ).toBe('NOT_FOUND');
      expect(
        await a.count(RUNNING_SHIFTS, { userId: intruder.id, projectId: rows.project.id }),
      ).toBe(0);
    });

    test(`cannot use A's company or project as a parent by ${by}`, async () => {
      const company =
        by === 'id' ? { companyId: rows.company.id } : { companyLegacyId: rows.company.legacyId };
      const project =
        by === 'id' ? { projectId: rows.project.id } : { projectLegacyId: rows.project.legacyId };
      const parents = [
        [
          'query($companyId: ID, $companyLegacyId: Int) { projects(companyId: $companyId, companyLegacyId: $companyLegacyId) { totalCount } }',
          company,
        ],
        [
          'query($projectId: ID, $projectLegacyId: Int) { activities(projectId: $projectId, projectLegacyId: $projectLegacyId) { totalCount } }',
          project,
        ],
        [
          'query($projectId: ID, $projectLegacyId: Int) { shifts(projectId: $projectId, projectLegacyId: $projectLegacyId) { totalCount } }',
          project,
        ],
        [
          'query($id: ID, $companyId: ID, $companyLegacyId: Int) { project(id: $id, companyId: $companyId, companyLegacyId: $companyLegacyId) { id } }',
          { id: rows.project.id, ...company },
        ],
        [CREATE_PROJECT, { input: { name: 'Intruder project', ...company } }],
        [CREATE_ACTIVITY, { input: { name: 'Intruder activity', ...project } }],
        [
          CREATE_SHIFT,
          { input: { ...project, start: '2026-03-04T09:00:00Z', stop: '2026-03-04T10:00:00Z' } },
        ],
      ] as const;
      for (const [query, variables] of parents) {
        expect([query, outcomeOf(await t.gql(intruder, query, variables))]).toEqual([
          query,
          'NOT_FOUND',
        ]);
      }
    });
  }

  test("cannot name A's users in its own rows", async () => {
    const res = await t.gql(intruder, CREATE_COMPANY, {
      input: { name: 'Intruder company', visibility: 'CUSTOM', userIds: [a.staff.id] },
    });
    expect(outcomeOf(res)).toBe('USER_NOT_ALLOWED');
    const company = (
      await t.gqlOk(intruder, CREATE_COMPANY, {
        input: { name: 'Own company', visibility: 'PUBLIC' },
      })
    ).node.row as Row;
    const project = (
      await t.gqlOk(intruder, CREATE_PROJECT, {
        input: { name: 'Own project', companyId: company.id },
      })
    ).node.row as Row;
    const shift = await t.gql(intruder, CREATE_SHIFT, {
      input: {
        projectId: project.id,
        userId: a.staff.id,
        start: '2026-03-05T09:00:00Z',
        stop: '2026-03-05T10:00:00Z',
      },
    });
    expect(outcomeOf(shift)).toBe('VALIDATION_FAILED');
    expect(await a.count(SHIFTS_OF, { userId: a.staff.id })).toBe(1);
  });

  test("lists and filters show none of A's rows", async () => {
    for (const kind of KINDS) {
      const list = await t.gqlOk(intruder, listQuery(kind));
      const ids = ((list.list as { nodes: Row[] }).nodes ?? []).map((n) => n.id);
      expect([kind, ids.filter((id) => Object.values(rows).some((r) => r.id === id))]).toEqual([
        kind,
        [],
      ]);
    }
    const filtered = await t.gqlOk(
      intruder,
      'query($id: ID!) { shifts(filter: { id: { eq: $id } }) { totalCount } }',
      { id: rows.shift.id },
    );
    expect(filtered.shifts.totalCount).toBe(0);
    const byLegacy = await t.gqlOk(
      intruder,
      'query($n: Int!) { companies(filter: { legacyId: { eq: $n } }) { totalCount } }',
      { n: rows.company.legacyId },
    );
    expect(byLegacy.companies.totalCount).toBe(0);
  });

  test("A's rows are unchanged, read by uuid and by integer id", async () => {
    expect(await snapshot()).toEqual(before);
    for (const kind of KINDS) {
      const res = await t.gqlOk(a.owner, readQuery(kind), { legacyId: rows[kind].legacyId });
      expect(res.node).toEqual(before[kind]);
    }
    // A's staff member still signs in with the old password: no update reached the row.
    expect(await canSignIn(a.staff)).toBe(true);
  });
});
