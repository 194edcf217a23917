import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * An Idempotency-Key makes a create or punch safe to retry: the same key and request, however many
 * times and however concurrently, writes once and answers alike.
 */
let t: TestApp;
let owner: Credentials & { ownerLegacyId: number; accountId: number };
let project: string;
beforeAll(async () => {
  t = await startTestApp();
  owner = await t.newAccount();
  const { createCompany } = await t.gqlOk(
    owner,
    'mutation { createCompany(input: { name: "Keys Co", visibility: PUBLIC }) { company { id } } }',
  );
  project = (
    await t.gqlOk(
      owner,
      'mutation($c: ID!) { createProject(input: { companyId: $c, name: "Keys", visibility: PUBLIC }) { project { id } } }',
      { c: createCompany.company.id },
    )
  ).createProject.project.id;
});
afterAll(() => t?.close());

const postShift = (who: Credentials, key: string | undefined, start: string) => {
  const req = request(t.app.express).post('/api/1/shifts.json').auth(who.login, who.password);
  const stop = new Date(Date.parse(start) + 3_600_000).toISOString();
  return (key ? req.set('Idempotency-Key', key) : req).send({
    shift: { project_uuid: project, start, stop },
  });
};

const CREATE_SHIFT =
  'mutation($p: ID!, $start: DateTimeISO!) { createShift(input: { projectId: $p, start: $start, stop: "2026-03-08T11:00:00Z" }) { shift { id legacyId start } } }';
const gqlWithKey = (
  who: Credentials,
  key: string,
  query: string,
  variables: Record<string, unknown>,
) =>
  request(t.app.express)
    .post('/graphql')
    .set('Idempotency-Key', key)
    .auth(who.login, who.password)
    .send({ query, variables });

async function shiftsStartingAt(start: string): Promise<number> {
  const rows = await t.db.orm.em
    .getConnection()
    .execute('select count(*)::int as n from shifts where account_id = ? and start = ?', [
      owner.accountId,
      start,
    ]);
  return rows[0].n;
}

test('the same key sent 50 times at once to the JSON API: one record, 50 identical answers', async () => {
  const start = '2026-03-02T08:00:00Z';
  const key = randomUUID();
  const answers = await Promise.all(Array.from({ length: 50 }, () => postShift(owner, key, start)));
  expect(new Set(answers.map((a) => a.status))).toEqual(new Set([200]));
  expect(new Set(answers.map((a) => a.text)).size).toBe(1);
  expect(await shiftsStartingAt(start)).toBe(1);

  // A retry later still answers with the first record.
  const later = await postShift(owner, key, start);
  expect(later.status).toBe(200);
  expect(later.text).toBe(answers[0]!.text);
  expect(await shiftsStartingAt(start)).toBe(1);
});

test('without a key the same request 5 times writes 5 records (what the key protects against)', async () => {
  const start = '2026-03-02T07:00:00Z';
  await Promise.all(Array.from({ length: 5 }, () => postShift(owner, undefined, start)));
  expect(await shiftsStartingAt(start)).toBe(5);
});

test('the same key sent 50 times at once to a GraphQL mutation: one record, identical answers', async () => {
  const start = '2026-03-02T09:00:00.000Z';
  const key = randomUUID();
  const answers = await Promise.all(
    Array.from({ length: 50 }, () => gqlWithKey(owner, key, CREATE_SHIFT, { p: project, start })),
  );
  expect(new Set(answers.map((a) => a.status))).toEqual(new Set([200]));
  expect(answers[0]!.body.data.createShift.shift.start).toBe(start);
  // Identical but for `extensions.cost`, which reports each request's own remaining rate-limit
  // budget (issue 21 item 10).
  const withoutCost = answers.map(({ body: { extensions, ...answer } }) => {
    const { cost, ...otherExtensions } = extensions as Record<string, unknown>;
    expect(cost).toBeDefined();
    return JSON.stringify({ ...answer, extensions: otherExtensions });
  });
  expect(new Set(withoutCost).size).toBe(1);
  expect(await shiftsStartingAt(start)).toBe(1);
});

test('punching in 50 times at once with one key: one running shift, and every answer is the success', async () => {
  const staff = await t.newStaff(owner);
  const key = randomUUID();
  const punch = () =>
    request(t.app.express)
      .post(`/api/1/projects/${project}/punch_in.json`)
      .set('Idempotency-Key', key)
      .auth(staff.login, staff.password)
      .send({});
  const answers = await Promise.all(Array.from({ length: 50 }, punch));
  expect(new Set(answers.map((a) => a.status))).toEqual(new Set([200]));
  // The same project with the same running shift in every answer. Its totals count up to each
  // answer's own instant (docs/json-api.md's rule for a running project), so on a busy
  // machine a late answer may be a second ahead: they are compared apart from those.
  const LIVE = ['grand_total', 'running_total', 'time_left', 'overdue', 'nearly_overdue'];
  const settled = answers.map((a) =>
    JSON.stringify({ ...a.body.response, ...Object.fromEntries(LIVE.map((f) => [f, null])) }),
  );
  expect(new Set(settled).size).toBe(1);
  expect(answers[0]!.body.response).toMatchObject({ running: true, current_shift: { stop: null } });
  const rows = await t.db.orm.em
    .getConnection()
    .execute('select count(*)::int as n from shifts where user_id = ?', [staff.legacyId]);
  expect(rows[0].n).toBe(1);
  // Without the key, a second punch-in is refused: it would not be a retry.
  const again = await request(t.app.express)
    .post(`/api/1/projects/${project}/punch_in.json`)
    .auth(staff.login, staff.password)
    .send({});
  expect(again.status).toBe(422);
});

test('the same key with a different request is refused with 422 and writes nothing', async () => {
  const key = randomUUID();
  expect((await postShift(owner, key, '2026-03-03T08:00:00Z')).status).toBe(200);
  const other = await postShift(owner, key, '2026-03-03T09:00:00Z');
  expect(other.status).toBe(422);
  expect(other.body.error.message).toMatch(
    /Idempotency-Key was already used for a different request/,
  );
  expect(await shiftsStartingAt('2026-03-03T09:00:00Z')).toBe(0);

  const graphql = await gqlWithKey(owner, key, CREATE_SHIFT, {
    p: project,
    start: '2026-03-03T10:00:00Z',
  });
  expect(graphql.body.errors[0].extensions).toMatchObject({
    code: 'VALIDATION_FAILED',
    fieldErrors: [{ field: 'Idempotency-Key' }],
  });
  expect(await shiftsStartingAt('2026-03-03T10:00:00Z')).toBe(0);
});

test('a keyed request of two mutation fields is refused with 400 before either runs, on every retry (issue 33, finding 4)', async () => {
  const [a, b] = ['2026-03-12T09:00:00Z', '2026-03-12T12:00:00Z'];
  const twoFields = `mutation($p: ID!, $a: DateTimeISO!, $b: DateTimeISO!) {
    a: createShift(input: { projectId: $p, start: $a }) { shift { id } }
    ... on Mutation { b: createShift(input: { projectId: $p, start: $b }) { shift { id } } }
  }`;
  for (let attempt = 0; attempt < 3; attempt++) {
    const res = await gqlWithKey(owner, randomUUID(), twoFields, { p: project, a, b });
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors).toEqual([
      expect.objectContaining({
        message:
          'A request with an Idempotency-Key may run one mutation field; this one runs 2 (a, b). Send each as a request of its own, with a key of its own',
        extensions: expect.objectContaining({ code: 'BAD_REQUEST' }),
      }),
    ]);
  }
  expect(await shiftsStartingAt(a)).toBe(0);
  expect(await shiftsStartingAt(b)).toBe(0);
  // One field and __typename is one write: keyed as usual.
  const one = await gqlWithKey(
    owner,
    randomUUID(),
    'mutation($p: ID!, $a: DateTimeISO!) { __typename a: createShift(input: { projectId: $p, start: $a, stop: "2026-03-12T10:00:00Z" }) { shift { id } } }',
    { p: project, a },
  );
  expect(one.status).toBe(200);
  expect(one.body.errors).toBeUndefined();
  expect(await shiftsStartingAt(a)).toBe(1);
  // Without a key, each field is its own request, as GraphQL runs it.
  const unkeyed = await t.gql(
    owner,
    `mutation($p: ID!) {
      a: createShift(input: { projectId: $p, start: "2026-03-13T09:00:00Z", stop: "2026-03-13T10:00:00Z" }) { shift { id } }
      b: createShift(input: { projectId: $p, start: "2026-03-13T11:00:00Z", stop: "2026-03-13T12:00:00Z" }) { shift { id } }
    }`,
    { p: project },
  );
  expect(unkeyed.errors).toBeUndefined();
});

test('a request that failed leaves its key unused: the corrected retry is carried out', async () => {
  const key = randomUUID();
  const refused = await request(t.app.express)
    .post('/api/1/shifts.json')
    .set('Idempotency-Key', key)
    .auth(owner.login, owner.password)
    .send({ shift: { project_uuid: project } });
  expect(refused.status).toBe(422);
  expect((await postShift(owner, key, '2026-03-04T08:00:00Z')).status).toBe(200);
  expect(await shiftsStartingAt('2026-03-04T08:00:00Z')).toBe(1);
});

test("keys are each user's own: another user's same key is another request", async () => {
  const key = randomUUID();
  const manager = await t.newStaff(owner, { type: 'MANAGER' });
  expect((await postShift(owner, key, '2026-03-05T08:00:00Z')).status).toBe(200);
  expect((await postShift(manager, key, '2026-03-05T08:00:00Z')).status).toBe(200);
  expect(await shiftsStartingAt('2026-03-05T08:00:00Z')).toBe(2);
});

test('a key is forgotten after IDEMPOTENCY_TTL_S', async () => {
  const key = randomUUID();
  expect((await postShift(owner, key, '2026-03-06T08:00:00Z')).status).toBe(200);
  await t.db.orm.em
    .getConnection()
    .execute("update idempotency_keys set created_at = now() - interval '2 days' where key = ?", [
      key,
    ]);
  expect((await postShift(owner, key, '2026-03-06T08:00:00Z')).status).toBe(200);
  expect(await shiftsStartingAt('2026-03-06T08:00:00Z')).toBe(2);
});

test.each([['x'.repeat(256)], ['has space'], ['']])(
  'a malformed key (%j) is 400 and writes nothing',
  async (key) => {
    const start = '2026-03-07T08:00:00Z';
    const res = await request(t.app.express)
      .post('/api/1/shifts.json')
      .set('Idempotency-Key', key)
      .auth(owner.login, owner.password)
      .send({ shift: { project_uuid: project, start, stop: '2026-03-07T09:00:00Z' } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(
      /Idempotency-Key must be 1 to 255 visible ASCII characters/,
    );
    expect(await shiftsStartingAt(start)).toBe(0);
  },
);
