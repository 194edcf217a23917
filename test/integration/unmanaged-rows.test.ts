import type { EntityManager } from '@mikro-orm/postgresql';
import { TENANT_FILTER } from '../../src/core/request-context';
import { Account } from '../../src/modules/accounts/account.entity';
import { Activity } from '../../src/modules/activities/activity.entity';
import { findRows } from '../../src/modules/paging/unmanaged-rows';
import { Company } from '../../src/modules/companies/company.entity';
import { Project } from '../../src/modules/projects/project.entity';
import { Shift } from '../../src/modules/shifts/shift.entity';
import { Staff } from '../../src/modules/staff/staff.entity';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Nested reads and long lists render rows built without the ORM (findRows). Each must carry what
 * the ORM would have loaded: every column with the same JS value and type, relations by id, and
 * only the caller's account.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const ENTITIES = [Account, Staff, Company, Project, Activity, Shift] as const;

function tenantEm(accountId: number): EntityManager {
  const em = t.db.orm.em.fork({ clear: true, useContext: false }) as unknown as EntityManager;
  em.setFilterParams(TENANT_FILTER, { accountId });
  return em;
}

/** The persisted properties of a row as plain values; relations by id. */
function columnsOf(em: EntityManager, className: string, row: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of em.getMetadata().get(className).props) {
    if (p.persist === false || !(p.kind === 'scalar' || p.kind === 'm:1')) continue;
    const value = (row as Record<string, unknown>)[p.name] as { id?: number } | null | undefined;
    out[p.name] = p.kind === 'm:1' ? (value?.id ?? null) : value;
  }
  return out;
}

test('every entity reads the same through findRows as through the ORM, within the account', async () => {
  const owner = await t.newAccount();
  const other = await t.newAccount();
  await t.newStaff(owner);
  for (const who of [owner, other]) {
    const company = (
      await t.gqlOk(
        who,
        'mutation { createCompany(input: { name: "Rows", website: "https://example.com", latitude: 52.5, longitude: 13.4 }) { company { id } } }',
      )
    ).createCompany.company.id;
    const project = (
      await t.gqlOk(
        who,
        'mutation($c: ID!) { createProject(input: { name: "Rows", companyId: $c, visibility: PUBLIC, timeLimit: 5400, hourlyRateCents: 5000, tagList: ["a", "b"], defaultTags: ["d"], notes: "p" }) { project { id } } }',
        { c: company },
      )
    ).createProject.project.id;
    const activity = (
      await t.gqlOk(
        who,
        'mutation($p: ID!) { createActivity(input: { projectId: $p, name: "Build" }) { activity { id } } }',
        { p: project },
      )
    ).createActivity.activity.id;
    await t.gqlOk(
      who,
      'mutation($i: CreateShiftInput!) { createShift(input: $i) { shift { id } } }',
      {
        i: {
          projectId: project,
          activityId: activity,
          start: '2026-03-01T09:00:00.000Z',
          stop: '2026-03-01T10:30:00.000Z',
          tagList: ['x'],
          notes: 'n',
        },
      },
    );
    await t.gqlOk(
      who,
      'mutation($i: CreateShiftInput!) { createShift(input: $i) { shift { id } } }',
      {
        i: { projectId: project, start: '2026-03-02T09:00:00.000Z' },
      },
    );
  }

  const em = tenantEm(owner.accountId);
  for (const entity of ENTITIES) {
    const managed = await em.find(entity as never, {}, { orderBy: { id: 'asc' } as never });
    const rows = await findRows(em, entity as never, {}, { orderBy: { id: 'asc' } as never });
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((row) => columnsOf(em, entity.name, row))).toEqual(
      managed.map((row) => columnsOf(em, entity.name, row)),
    );
    for (const row of rows) expect(row).toBeInstanceOf(entity);
    if (entity === Account) continue; // accounts are not tenant rows
    const accounts = rows.map((row) => (row as unknown as { account: { id: number } }).account.id);
    expect(new Set(accounts)).toEqual(new Set([owner.accountId]));
  }
});
