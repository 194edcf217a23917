import request from 'supertest';
import { parse } from 'csv-parse/sync';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * Money is the owner's business (issue 23, item 2): by default a staff member sees their own time
 * but no rates, amounts or costs, in GraphQL, the legacy JSON (the XML API shows no money) and the
 * CSV exports; the owner may let staff see rates and amounts (`staffSeeMoney`), never costs,
 * profits or other people's rates. The setting holds from the next request.
 */
let t: TestApp;
let owner: Credentials;
let staff: Credentials & { id: string; legacyId: number };
let projectId: string;

beforeAll(async () => {
  t = await startTestApp();
  owner = await t.newAccount({ currency: 'EUR' });
  staff = await t.newStaff(owner, { hourlyRateCents: 5000, costRateCents: 3000 });
  const company = await t.create(owner, 'createCompany', {
    name: 'Money Ltd',
    visibility: 'PUBLIC',
  });
  const project = await t.create(owner, 'createProject', {
    companyId: company.id,
    name: 'Billed',
    visibility: 'PUBLIC',
    hourlyRateCents: 12000,
  });
  projectId = project.id;
  await t.gqlOk(
    staff,
    'mutation($input: CreateShiftInput!) { createShift(input: $input) { shift { id } } }',
    { input: { projectId, start: '2026-02-02T09:00:00Z', stop: '2026-02-02T11:00:00Z' } },
  );
});
afterAll(() => t?.close());

const SEEN = `query($p: ID!, $u: ID!) {
  project(id: $p) { hourlyRateCents hourlyRate rates { cents } }
  me: node(id: $u) { ... on Staff { hourlyRateCents costRateCents rates { kind cents } } }
  report(input: { from: "2026-02-01T00:00:00Z", to: "2026-03-01T00:00:00Z", groupBy: [] }) {
    currency totals { seconds amountCents costCents profitCents }
  }
}`;

async function seen(who: Credentials) {
  return t.gqlOk(who, SEEN, { p: projectId, u: staff.id });
}

async function legacyProjectRate(who: Credentials) {
  const res = await request(t.app.express)
    .get(`/api/1/projects/${projectId}.json`)
    .auth(who.login, who.password);
  return res.body.response.hourly_rate_cents;
}

async function csvAmount(who: Credentials) {
  const res = await request(t.app.express)
    .get('/api/1/report.csv')
    .auth(who.login, who.password)
    .query({ from: '2026-02-01', to: '2026-03-01' });
  const [row] = parse(res.text, { columns: true }) as Record<string, string>[];
  return [row!.amount_cents, row!.cost_cents, row!.currency];
}

async function setStaffSeeMoney(value: boolean) {
  await t.gqlOk(
    owner,
    'mutation($v: Boolean!) { updateAccount(input: { staffSeeMoney: $v }) { account { staffSeeMoney } } }',
    { v: value },
  );
}

test('by default a staff member sees their time and no money at all', async () => {
  const answer = await seen(staff);
  expect(answer.project).toEqual({ hourlyRateCents: null, hourlyRate: null, rates: [] });
  expect(answer.me).toEqual({ hourlyRateCents: null, costRateCents: null, rates: [] });
  expect(answer.report).toEqual({
    currency: 'EUR',
    totals: { seconds: 7200, amountCents: null, costCents: null, profitCents: null },
  });
  expect(await legacyProjectRate(staff)).toBeNull();
  expect(await csvAmount(staff)).toEqual(['', '', 'EUR']);

  // The owner sees all of it: 2 hours at 120.00, costing 2 × 30.00.
  const all = await seen(owner);
  expect(all.report.totals).toEqual({
    seconds: 7200,
    amountCents: 24000,
    costCents: 6000,
    profitCents: 18000,
  });
  expect(all.me.costRateCents).toBe(3000);
  expect(await legacyProjectRate(owner)).toBe(12000);
});

test('staffSeeMoney lets staff see rates and amounts from the next request, never costs', async () => {
  await setStaffSeeMoney(true);
  const answer = await seen(staff);
  expect(answer.project).toEqual({
    hourlyRateCents: 12000,
    hourlyRate: null,
    rates: [{ cents: 12000 }],
  });
  // Their own billable rate and its history; no cost rate.
  expect(answer.me).toEqual({
    hourlyRateCents: 5000,
    costRateCents: null,
    rates: [{ kind: 'BILLABLE', cents: 5000 }],
  });
  expect(answer.report.totals).toEqual({
    seconds: 7200,
    amountCents: 24000,
    costCents: null,
    profitCents: null,
  });
  expect(await legacyProjectRate(staff)).toBe(12000);
  expect(await csvAmount(staff)).toEqual(['24000', '', 'EUR']);

  // Seeing money is no power over it.
  const denied = await t.gql(
    staff,
    'mutation($p: ID!) { setRate(input: { project: { id: $p }, cents: 1, effectiveFrom: "2026-01-01T00:00:00Z" }) { rate { id } } }',
    { p: projectId },
  );
  expect(denied.errors?.[0]?.extensions?.code).toBe('UPDATE_DENIED');

  await setStaffSeeMoney(false);
  expect((await seen(staff)).report.totals.amountCents).toBeNull();
});

test('only the owner changes the setting', async () => {
  const denied = await t.gql(
    staff,
    'mutation { updateAccount(input: { staffSeeMoney: true }) { account { staffSeeMoney } } }',
  );
  expect(denied.errors?.[0]?.extensions?.code).toBe('UPDATE_DENIED');
  const { viewer } = await t.gqlOk(owner, '{ viewer { account { staffSeeMoney currency } } }');
  expect(viewer.account).toEqual({ staffSeeMoney: false, currency: 'EUR' });
});

test("other people's rates stay hidden from staff whatever the setting; a manager sets no owner's rate", async () => {
  await t.gqlOk(
    owner,
    'mutation($id: ID!) { updateStaff(input: { staff: { id: $id }, patch: { hourlyRateCents: 20000 } }) { staff { id } } }',
    { id: (await t.gqlOk(owner, '{ viewer { staff { id } } }')).viewer.staff.id },
  );
  await setStaffSeeMoney(true);
  const { viewer } = await t.gqlOk(
    staff,
    '{ viewer { account { owner { hourlyRateCents rates { cents } } } } }',
  );
  expect(viewer.account.owner).toEqual({ hourlyRateCents: null, rates: [] });
  await setStaffSeeMoney(false);

  const manager = await t.newStaff(owner, { type: 'MANAGER' });
  const ownerId = (await t.gqlOk(owner, '{ viewer { staff { id } } }')).viewer.staff.id;
  const denied = await t.gql(
    manager,
    'mutation($u: ID!) { setRate(input: { user: { id: $u }, cents: 1, effectiveFrom: "2026-01-01T00:00:00Z" }) { rate { id } } }',
    { u: ownerId },
  );
  expect(denied.errors?.[0]?.extensions?.code).toBe('UPDATE_DENIED');
  // A staff member's rate is the manager's to set.
  const allowed = await t.gql(
    manager,
    'mutation($u: ID!) { setRate(input: { user: { id: $u }, cents: 5500, effectiveFrom: "2026-01-01T00:00:00Z" }) { rate { cents } } }',
    { u: staff.id },
  );
  expect(allowed.errors).toBeUndefined();
});
