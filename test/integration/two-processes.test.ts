import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { runCli, stopCli, waitForOutput, type Spawned } from '../support/cli-process';
import {
  createTestDatabaseTarget,
  replicasCaughtUp,
  serverSetups,
  type TestDatabaseTarget,
} from '../support/test-database';

/**
 * Two `timetrack serve` processes (the built CLI; `npm run build` first) on one PostgreSQL
 * database, under a mixed workload of punch-ins and punch-outs for several users sent to both at
 * once. Afterwards the database must hold every invariant: at most one running shift per user, no
 * overlapping shifts, every stop after its start, every 2xx answer a stored change and every
 * refusal none, and no 5xx anywhere.
 *
 * The embedded database (PGlite) belongs to one process at a time and cannot be shared by two, so
 * this test needs a PostgreSQL server and runs only when TEST_DATABASE_URL is set; without it, it
 * is skipped.
 */
const SETUPS = serverSetups();
const maybe = SETUPS.length > 0 ? test.each(SETUPS) : test.skip.each([['', () => ({})]]);

const PASSWORD = 'two-processes-password';
const USERS = 5;
const PROJECTS = 3;
const OPERATIONS_PER_USER = 60;
/** The plan's staff maximum of the account whose staff are created through both servers at once. */
const STAFF_MAX = 4;

const targets: TestDatabaseTarget[] = [];
const dataDirs: string[] = [];
const servers: Spawned[] = [];

const stop = (s: Spawned) => stopCli(s, 20_000);

afterAll(async () => {
  // Every process stopped and waited for, the database dropped and the directory removed, whatever
  // failed before; the first failure is reported after all of them have run.
  const results = await Promise.allSettled([...servers.map(stop)]);
  const dropped = await Promise.allSettled(targets.map((target) => target.drop()));
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  for (const r of [...results, ...dropped]) if (r.status === 'rejected') throw r.reason;
}, 90_000);

// ---------------------------------------------------------------------------------------------

interface Who {
  login: string;
  password: string;
  /** users.id */
  id: number;
}

interface Operation {
  index: number;
  user: Who;
  kind: 'in' | 'out';
  project: { uuid: string; id: number };
  via: 'graphql' | 'json';
  server: number;
  /** Unique text the operation adds to the shift's notes, so its trace can be found. */
  note: string;
}

interface Answer {
  operation: Operation;
  status: number;
  body: any;
}

const basic = (who: { login: string; password: string }) =>
  `Basic ${Buffer.from(`${who.login}:${who.password}`).toString('base64')}`;

async function post(
  url: string,
  who: { login: string; password: string },
  body: unknown,
): Promise<{ status: number; body: any }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: basic(who) },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return { status: res.status, body: text };
  }
}

async function gqlOk(
  url: string,
  who: { login: string; password: string },
  query: string,
  variables: Record<string, unknown> = {},
): Promise<any> {
  const res = await post(`${url}/graphql`, who, { query, variables });
  if (res.status !== 200 || res.body?.errors)
    throw new Error(`GraphQL failed (${res.status}): ${JSON.stringify(res.body)}`);
  return res.body.data;
}

async function perform(urls: string[], op: Operation): Promise<Answer> {
  const url = urls[op.server]!;
  let res: { status: number; body: any };
  if (op.via === 'graphql') {
    res =
      op.kind === 'in'
        ? await post(`${url}/graphql`, op.user, {
            query:
              'mutation($id: ID!, $n: String) { punchIn(input: { project: { id: $id }, notes: $n }) { project { id } } }',
            variables: { id: op.project.uuid, n: op.note },
          })
        : await post(`${url}/graphql`, op.user, {
            query:
              'mutation($id: ID!, $n: String) { punchOut(input: { project: { id: $id }, notes: $n }) { project { id } } }',
            variables: { id: op.project.uuid, n: op.note },
          });
  } else {
    res = await post(`${url}/api/1/projects/${op.project.uuid}/punch_${op.kind}.json`, op.user, {
      notes: op.note,
    });
  }
  return { operation: op, ...res };
}

/** Whether the operation took effect; a refusal must be the rule's own (PUNCHED_IN / PUNCHED_OUT). */
function tookEffect(answer: Answer): boolean {
  const { operation: op, status, body } = answer;
  const refusal = op.kind === 'in' ? 'PUNCHED_IN' : 'PUNCHED_OUT';
  const seen = { op: `${op.index} ${op.kind} via ${op.via} on server ${op.server}`, status, body };
  if (op.via === 'graphql') {
    // GraphQL answers 200 either way; an error's code says why (INTERNAL_SERVER_ERROR is a masked 500).
    expect(seen).toMatchObject({ status: 200 });
    if (!body.errors) {
      expect(seen).toMatchObject({
        body: {
          data: {
            [op.kind === 'in' ? 'punchIn' : 'punchOut']: { project: { id: op.project.uuid } },
          },
        },
      });
      return true;
    }
    expect(seen).toMatchObject({ body: { errors: [{ extensions: { code: refusal } }] } });
    expect(body.errors).toHaveLength(1);
    return false;
  }
  if (status === 200) {
    expect(seen).toMatchObject({ body: { response: { uuid: op.project.uuid } } });
    return true;
  }
  expect(seen).toMatchObject({ status: 422, body: { error: { code: refusal } } });
  return false;
}

/** A small seeded generator, so a failing workload can be replayed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

maybe(
  'two serve processes %s under concurrent punching keep every invariant',
  async (_setup, databaseEnv) => {
    const target = await createTestDatabaseTarget();
    targets.push(target);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'timetrack-two-'));
    dataDirs.push(dataDir);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...databaseEnv(target.env.DATABASE_URL!),
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      PASSWORD_HASH_MEMORY_KIB: '1024',
    };
    expect(env.DATABASE_URL).toMatch(/^postgres/);

    // The account (this migrates the fresh database), then both servers at once.
    const owner = {
      login: `owner_${path.basename(dataDir).replace(/\W/g, '_')}`,
      password: PASSWORD,
    };
    const create = runCli(
      'account create',
      [
        'account',
        'create',
        '--login',
        owner.login,
        '--password',
        PASSWORD,
        '--email',
        'two@example.com',
      ],
      env,
    );
    const created = await create.exited;
    expect({ code: created, output: created === 0 ? '' : create.output() }).toEqual({
      code: 0,
      output: '',
    });
    const { owner_id: ownerId } = JSON.parse(create.output().trim().split('\n').pop()!) as {
      owner_id: number;
    };

    const pair = [runCli('server A', ['serve'], env), runCli('server B', ['serve'], env)];
    servers.push(...pair);
    const urls = await Promise.all(
      pair.map(async (s) => (await waitForOutput(/listening on (http:\/\/[^ ]+)/, s))[1]!),
    );
    expect(new Set(urls).size).toBe(2);

    // Staff, a company and projects, set up through both servers.
    const users: Who[] = [{ ...owner, id: ownerId }];
    for (let i = 1; i < USERS; i++) {
      const login = `worker${i}_${ownerId}`;
      const data = await gqlOk(
        urls[i % 2]!,
        owner,
        'mutation($input: CreateStaffInput!) { createStaff(input: $input) { staff { legacyId } } }',
        {
          input: { login, password: PASSWORD, firstName: 'Worker', lastName: String(i) },
        },
      );
      users.push({ login, password: PASSWORD, id: data.createStaff.staff.legacyId });
    }
    const { createCompany } = await gqlOk(
      urls[0]!,
      owner,
      'mutation { createCompany(input: { name: "Two Co", visibility: PUBLIC }) { company { id } } }',
    );
    const projects: { uuid: string; id: number }[] = [];
    for (let i = 0; i < PROJECTS; i++) {
      const data = await gqlOk(
        urls[i % 2]!,
        owner,
        'mutation($c: ID!, $n: String!) { createProject(input: { companyId: $c, name: $n, visibility: PUBLIC }) { project { id legacyId } } }',
        {
          c: createCompany.company.id,
          n: `Project ${i}`,
        },
      );
      projects.push({
        uuid: data.createProject.project.id,
        id: data.createProject.project.legacyId,
      });
    }

    // The workload: every user's punches in a seeded random order of projects and directions,
    // all sent at once, alternating between the two servers and between GraphQL and the facade.
    const random = seeded(20261122);
    const operations: Operation[] = [];
    for (let round = 0; round < OPERATIONS_PER_USER; round++) {
      for (const user of users) {
        const index = operations.length;
        const kind = random() < 0.6 ? 'in' : 'out';
        operations.push({
          index,
          user,
          kind,
          project: projects[Math.floor(random() * PROJECTS)]!,
          server: index % 2,
          via: Math.floor(index / 2) % 2 ? 'json' : 'graphql',
          note: `op-${index}-${kind}`,
        });
      }
    }
    expect(operations.length).toBe(USERS * OPERATIONS_PER_USER);
    const answers = await Promise.all(operations.map((op) => perform(urls, op)));

    // No 5xx, and each refusal is the rule's own.
    expect(
      answers.filter((a) => a.status >= 500).map((a) => ({ status: a.status, body: a.body })),
    ).toEqual([]);
    const effective = answers.map(tookEffect);
    // The workload exercised both outcomes of both operations on both servers.
    for (const server of [0, 1]) {
      for (const kind of ['in', 'out'] as const) {
        const mine = answers.filter(
          (a) => a.operation.server === server && a.operation.kind === kind,
        );
        expect(mine.some((a) => effective[a.operation.index])).toBe(true);
        if (kind === 'in') expect(mine.some((a) => !effective[a.operation.index])).toBe(true);
      }
    }

    // Now the database, through SQL.
    const db = new Client({ connectionString: target.env.DATABASE_URL });
    await db.connect();
    try {
      const perUserRunning = await db.query(
        'select user_id, count(*)::int as n from shifts where stop is null group by user_id having count(*) > 1',
      );
      expect(perUserRunning.rows).toEqual([]);
      const overlaps = await db.query(
        `select a.id as a, b.id as b from shifts a join shifts b on a.user_id = b.user_id and a.id < b.id
          where tstzrange(a.start, coalesce(a.stop, 'infinity')) && tstzrange(b.start, coalesce(b.stop, 'infinity'))`,
      );
      expect(overlaps.rows).toEqual([]);
      const backwards = await db.query('select id, start, stop from shifts where stop < start');
      expect(backwards.rows).toEqual([]);

      // Every shift is one effective punch-in (its note first), and every effective punch-out
      // stopped exactly one shift of that user and project (its note appended); refused
      // operations left no trace.
      const shifts = await db.query<{
        id: number;
        user_id: number;
        project_id: number;
        stop: Date | null;
        notes: string | null;
      }>('select id, user_id, project_id, stop, notes from shifts order by start, id');
      const byNote = new Map<string, (typeof shifts.rows)[number][]>();
      for (const shift of shifts.rows) {
        for (const note of (shift.notes ?? '').split('\n').filter(Boolean))
          byNote.set(note, [...(byNote.get(note) ?? []), shift]);
      }
      const problems: string[] = [];
      for (const a of answers) {
        const op = a.operation;
        const found = byNote.get(op.note) ?? [];
        if (!effective[op.index]) {
          if (found.length)
            problems.push(
              `${op.note} was refused (${a.status}) but is stored in shift ${found[0]!.id}`,
            );
          continue;
        }
        if (found.length !== 1) {
          problems.push(`${op.note} answered ${a.status} but is stored ${found.length} times`);
          continue;
        }
        const shift = found[0]!;
        if (shift.user_id !== op.user.id || shift.project_id !== op.project.id)
          problems.push(`${op.note} is stored on the wrong shift ${shift.id}`);
        const [first, ...rest] = (shift.notes ?? '').split('\n');
        if (op.kind === 'in' && first !== op.note)
          problems.push(`${op.note} is not the first note of shift ${shift.id}`);
        if (op.kind === 'out' && (shift.stop === null || rest.join('\n') !== op.note))
          problems.push(`${op.note} did not stop shift ${shift.id}: ${JSON.stringify(shift)}`);
      }
      expect(problems).toEqual([]);
      const punchIns = answers.filter(
        (a) => a.operation.kind === 'in' && effective[a.operation.index],
      ).length;
      expect(shifts.rows).toHaveLength(punchIns);
      expect(
        shifts.rows.every(
          (s) => s.notes !== null && byNote.get(s.notes.split('\n')[0]!)?.length === 1,
        ),
      ).toBe(true);

      // The per-project totals the database keeps agree with the shifts after these concurrent writes.
      const totals = await db.query(
        `select coalesce(p.project_id, t.project_id) as project_id, coalesce(p.user_id, t.user_id) as user_id, p.seconds, t.stopped_seconds
           from (select project_id, user_id, sum(extract(epoch from stop - start)) as seconds from shifts where stop is not null group by 1, 2) p
           full join project_user_totals t using (project_id, user_id)
          where abs(coalesce(p.seconds, 0) - coalesce(t.stopped_seconds, 0)) > 0.001`,
      );
      expect(totals.rows).toEqual([]);

      // And the API of each server says the same: each user's shifts, at most one running, as the
      // owner sees them on one server and the user itself on the other. The owner's long lists
      // read the replica where there is one, which other users' writes reach moments later.
      await replicasCaughtUp(env, target.env.DATABASE_URL!);
      for (const [i, user] of users.entries()) {
        const stored = shifts.rows.filter((r) => r.user_id === user.id);
        const query =
          'query($u: Int!) { shifts(first: 1000, filter: { userLegacyId: { eq: $u } }) { totalCount nodes { legacyId stop } } }';
        for (const [who, url] of [
          [owner, urls[i % 2]!],
          [user, urls[(i + 1) % 2]!],
        ] as const) {
          const { shifts: listed } = await gqlOk(url, who, query, { u: user.id });
          expect(listed.totalCount).toBe(stored.length);
          expect(
            listed.nodes
              .map((n: { legacyId: number }) => n.legacyId)
              .sort((x: number, y: number) => x - y),
          ).toEqual(stored.map((r) => r.id).sort((x, y) => x - y));
          expect(
            listed.nodes.filter((n: { stop: string | null }) => n.stop === null).length,
          ).toBeLessThanOrEqual(1);
        }
      }
    } finally {
      await db.end();
    }

    // The plan's staff maximum, with new staff sent to both servers at once: the places left
    // are taken exactly, every other request is refused, and nothing else is written.
    const limited = { login: `limited_${ownerId}`, password: PASSWORD };
    const limitedCreate = runCli(
      'account create --staff-max',
      [
        ...['account', 'create', '--login', limited.login, '--password', PASSWORD],
        ...['--email', 'limited@example.com', '--staff-max', String(STAFF_MAX)],
      ],
      env,
    );
    expect(await limitedCreate.exited).toBe(0);
    const { account_id: limitedAccount } = JSON.parse(
      limitedCreate.output().trim().split('\n').pop()!,
    ) as { account_id: number };
    const attempts = await Promise.all(
      Array.from({ length: 4 * STAFF_MAX }, (_, i) =>
        post(`${urls[i % 2]!}/graphql`, limited, {
          query:
            'mutation($input: CreateStaffInput!) { createStaff(input: $input) { staff { id } } }',
          variables: {
            input: {
              login: `limited_${i}_${ownerId}`,
              password: PASSWORD,
              firstName: 'L',
              lastName: String(i),
            },
          },
        }),
      ),
    );
    const codes = attempts.map((a) => a.body.errors?.[0]?.extensions?.code ?? 'CREATED');
    expect(codes.filter((code) => code === 'CREATED')).toHaveLength(STAFF_MAX);
    expect(new Set(codes)).toEqual(new Set(['CREATED', 'PAYMENT_REQUIRED']));
    const staffCount = new Client({ connectionString: target.env.DATABASE_URL });
    await staffCount.connect();
    try {
      const { rows } = await staffCount.query<{ n: number }>(
        'select count(*)::int as n from users where account_id = $1',
        [limitedAccount],
      );
      // The owner is not one of the plan's staff.
      expect(rows[0]!.n).toBe(STAFF_MAX + 1);
    } finally {
      await staffCount.end();
    }

    // Both servers are still healthy and stop cleanly; nothing was logged as unexpected.
    for (const s of pair) {
      expect(await stop(s)).toBe(0);
      expect(s.output()).toMatch(/stopped cleanly/);
      expect(s.output()).not.toMatch(/unexpected error/);
    }
  },
  240_000,
);
