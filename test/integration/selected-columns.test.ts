import { Shift } from '../../src/modules/shifts/shift.entity';
import { columnsFor } from '../../src/modules/paging/graphql/selected-columns';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

/**
 * Shift lists read only the columns of the fields their nodes select (issue 22): whatever the
 * selection, the answers are those of reading every column.
 */
let t: TestApp;
let owner: Credentials;
let projectId: string;
beforeAll(async () => {
  t = await startTestApp();
  owner = await t.newAccount();
  const company = await t.create(owner, 'createCompany', { name: 'Acme' });
  projectId = (await t.create(owner, 'createProject', { companyId: company.id, name: 'Site' })).id;
  for (let day = 10; day < 16; day++) {
    await t.gqlOk(
      owner,
      'mutation($p: ID!, $s: DateTimeISO!, $e: DateTimeISO!, $n: String) { createShift(input: { projectId: $p, start: $s, stop: $e, notes: $n, tagList: ["x"] }) { shift { id } } }',
      {
        p: projectId,
        s: `2026-03-${day}T09:00:00Z`,
        e: `2026-03-${day}T10:00:00Z`,
        n: `day ${day}`,
      },
    );
  }
});
afterAll(() => t?.close());

/** The statements that read shift rows (not counts, not totals). */
const shiftReads = (statements: string[]) =>
  statements.filter((sql) => /from "shifts"/.test(sql) && !/count\(\*\)/.test(sql));

test('a shift list reads the columns of the selected fields, and what derived fields declare', async () => {
  let data: Record<string, any> = {};
  const statements = await t.recordStatements(async () => {
    data = await t.gqlOk(owner, '{ shifts(first: 3) { nodes { id start running } } }');
  });
  const [read, ...more] = shiftReads(statements);
  expect(more).toEqual([]);
  // `running` is a getter that declares it reads `stop`.
  for (const column of ['"uuid"', '"start"', '"stop"']) expect(read).toContain(column);
  for (const column of ['"notes"', '"tag_list"', '"external_href"', '"time_zone"'])
    expect(read).not.toContain(column);
  expect(data.shifts.nodes).toEqual([
    { id: expect.any(String), start: '2026-03-10T09:00:00.000Z', running: false },
    { id: expect.any(String), start: '2026-03-11T09:00:00.000Z', running: false },
    { id: expect.any(String), start: '2026-03-12T09:00:00.000Z', running: false },
  ]);
});

test('a cursor over a column the nodes do not select pages on', async () => {
  const PAGE = `query($after: String) {
    shifts(first: 2, after: $after, order: [{ field: START, direction: DESC }]) {
      pageInfo { endCursor } nodes { notes }
    }
  }`;
  const first = (await t.gqlOk(owner, PAGE)).shifts;
  const second = (await t.gqlOk(owner, PAGE, { after: first.pageInfo.endCursor })).shifts;
  expect([...first.nodes, ...second.nodes].map((s: any) => s.notes)).toEqual([
    'day 15',
    'day 14',
    'day 13',
    'day 12',
  ]);
});

test('two selections of one nested list in one query each get their own columns', async () => {
  const data = await t.gqlOk(
    owner,
    `query($p: ID!) { project(id: $p) {
      a: shifts(first: 2) { nodes { notes } }
      b: shifts(first: 2) { nodes { start tagList } }
    } }`,
    { p: projectId },
  );
  expect(data.project.a.nodes).toEqual([{ notes: 'day 10' }, { notes: 'day 11' }]);
  expect(data.project.b.nodes).toEqual([
    { start: '2026-03-10T09:00:00.000Z', tagList: ['x'] },
    { start: '2026-03-11T09:00:00.000Z', tagList: ['x'] },
  ]);
});

test('a field that declares nothing it reads makes the list read every column', () => {
  const metadata = t.db.orm.getMetadata();
  expect(columnsFor(metadata, Shift, new Set(['id', 'start']))).toEqual(
    expect.arrayContaining(['id', 'uuid', 'start', 'project', 'user', 'activity', 'account']),
  );
  expect(columnsFor(metadata, Shift, new Set(['id', 'start']))).not.toContain('notes');
  expect(columnsFor(metadata, Shift, new Set(['id', 'aFieldNobodyDeclared']))).toBeUndefined();
});
