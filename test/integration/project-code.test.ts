/**
 * `Project.code` (issue 35): a field declared once, on the entity's property, and so on every
 * interface: written and read over GraphQL, filtered and ordered by (GraphQL filter and order, the
 * JSON interface's `where` and `order`), written and read in JSON and XML, in the shift export's
 * CSV and workbook, and in OpenAPI. Unique within an account when set, not across accounts.
 */
import fs from 'node:fs';
import request from 'supertest';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { binaryBody } from '../support/binary-body';
import { startTestApp, codes, type Credentials, type TestApp } from '../support/test-app';

let t: TestApp;
let owner: Credentials;
let staff: Credentials;
let companyId: string;

const json = (who: Credentials) => ({
  get: (path: string) => request(t.app.express).get(`/api/1${path}`).auth(who.login, who.password),
  post: (path: string, body: object) =>
    request(t.app.express).post(`/api/1${path}`).auth(who.login, who.password).send(body),
  put: (path: string, body: object) =>
    request(t.app.express).put(`/api/1${path}`).auth(who.login, who.password).send(body),
});

async function newProject(name: string, code?: string | null): Promise<string> {
  const res = await t.gqlOk<{ createProject: { project: { id: string; code: string | null } } }>(
    owner,
    'mutation($c: ID!, $n: String!, $code: String) { createProject(input: { companyId: $c, name: $n, code: $code, visibility: PUBLIC }) { project { id code } } }',
    { c: companyId, n: name, code },
  );
  return res.createProject.project.id;
}

beforeAll(async () => {
  t = await startTestApp();
  owner = await t.newAccount({ timeZone: 'UTC' });
  staff = await t.newStaff(owner);
  companyId = (await t.create(owner, 'createCompany', { name: 'Code Ltd', visibility: 'PUBLIC' }))
    .id;
});

afterAll(() => t.close());

describe('GraphQL', () => {
  test('written on create and update, trimmed, cleared by blank; read back', async () => {
    const id = await newProject('Written', '  ACME-01 ');
    const read = await t.gqlOk<{ project: { code: string } }>(
      owner,
      'query($id: ID!) { project(id: $id) { code } }',
      { id },
    );
    expect(read.project.code).toBe('ACME-01');
    const update = (code: string | null) =>
      t.gqlOk<{ updateProject: { project: { code: string | null } } }>(
        owner,
        'mutation($id: ID!, $code: String) { updateProject(input: { project: { id: $id }, patch: { code: $code } }) { project { code } } }',
        { id, code },
      );
    expect((await update('acme.2_b')).updateProject.project.code).toBe('acme.2_b');
    expect((await update('')).updateProject.project.code).toBeNull();
  });

  test('refused: too long, other characters, taken in the account; nothing is written', async () => {
    const taken = await newProject('Taken', 'TAKEN');
    const other = await newProject('Other');
    for (const [code, message] of [
      ['X'.repeat(33), 'must be at most 32 characters'],
      ['A B', 'may hold only letters'],
      ['TAKEN', 'is already taken'],
    ] as const) {
      const res = await t.gql(
        owner,
        'mutation($id: ID!, $code: String) { updateProject(input: { project: { id: $id }, patch: { code: $code } }) { project { code } } }',
        { id: other, code },
      );
      expect(codes(res)).toEqual(['VALIDATION_FAILED']);
      expect(JSON.stringify(res.errors![0]!.extensions)).toContain(message);
    }
    const read = await t.gqlOk<{ a: { code: string }; b: { code: null } }>(
      owner,
      'query($a: ID!, $b: ID!) { a: project(id: $a) { code } b: project(id: $b) { code } }',
      { a: taken, b: other },
    );
    expect(read).toEqual({ a: { code: 'TAKEN' }, b: { code: null } });
  });

  test('the same code in another account is no conflict', async () => {
    const elsewhere = await t.newAccount();
    const company = await t.create(elsewhere, 'createCompany', { name: 'Elsewhere' });
    const res = await t.gqlOk<{ createProject: { project: { code: string } } }>(
      elsewhere,
      'mutation($c: ID!) { createProject(input: { companyId: $c, name: "P", code: "TAKEN" }) { project { code } } }',
      { c: company.id },
    );
    expect(res.createProject.project.code).toBe('TAKEN');
  });

  test('filtered and ordered by', async () => {
    await newProject('Zulu', 'F-3');
    await newProject('Yankee', 'F-1');
    await newProject('Xray', 'F-2');
    const res = await t.gqlOk<{ projects: { nodes: { code: string }[] } }>(
      owner,
      '{ projects(filter: { code: { like: "F-%" } }, order: [{ field: CODE, direction: DESC }]) { nodes { code } } }',
    );
    expect(res.projects.nodes.map((p) => p.code)).toEqual(['F-3', 'F-2', 'F-1']);
  });
});

describe('the legacy interfaces', () => {
  test('JSON: written by create and update, listed only when set, and `where`/`order` by it', async () => {
    const created = await json(owner).post('/projects.json', {
      project: { name: 'Json', company_uuid: companyId, code: 'J-2', visibility: 'public' },
    });
    expect(created.status).toBe(200);
    expect(created.body.response.code).toBe('J-2');
    const uuid = created.body.response.uuid as string;
    await json(owner).post('/projects.json', {
      project: { name: 'Json 1', company_uuid: companyId, code: 'J-1', visibility: 'public' },
    });
    const noCode = await json(owner).post('/projects.json', {
      project: { name: 'No code', company_uuid: companyId, visibility: 'public' },
    });
    expect(noCode.body.response).not.toHaveProperty('code');

    const listed = await json(owner).get(
      `/projects.json?where=${encodeURIComponent('code ~= "J-%"')}&order=code`,
    );
    expect(listed.status).toBe(200);
    expect(listed.body.response.map((p: { code: string }) => p.code)).toEqual(['J-1', 'J-2']);

    const updated = await json(owner).put(`/projects/${uuid}.json`, { project: { code: 'J-9' } });
    expect(updated.status).toBe(200);
    expect(updated.body.response.code).toBe('J-9');
    const refused = await json(owner).put(`/projects/${uuid}.json`, { project: { code: 'J 9' } });
    expect(refused.status).toBe(422);
  });

  test('XML: written and read as <code>, absent when not set', async () => {
    const id = await newProject('Xml', 'X-1');
    const legacyId = (
      await t.gqlOk<{ project: { legacyId: number } }>(
        owner,
        'query($id: ID!) { project(id: $id) { legacyId } }',
        { id },
      )
    ).project.legacyId;
    const shown = await request(t.app.express)
      .get(`/project/${legacyId}.xml`)
      .auth(owner.login, owner.password);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('<code>X-1</code>');
    const updated = await request(t.app.express)
      .put(`/project/${legacyId}.xml`)
      .auth(owner.login, owner.password)
      .type('application/xml')
      .send('<project><code>X-2</code></project>');
    expect(updated.status).toBe(200);
    const again = await request(t.app.express)
      .get(`/project/${legacyId}.xml`)
      .auth(owner.login, owner.password);
    expect(again.text).toContain('<code>X-2</code>');
    const plain = await newProject('Xml plain');
    const plainId = (
      await t.gqlOk<{ project: { legacyId: number } }>(
        owner,
        'query($id: ID!) { project(id: $id) { legacyId } }',
        { id: plain },
      )
    ).project.legacyId;
    const plainXml = await request(t.app.express)
      .get(`/project/${plainId}.xml`)
      .auth(owner.login, owner.password);
    expect(plainXml.text).not.toContain('<code');
  });

  test("the shift export's CSV and workbook carry the project's code last", async () => {
    const project = await newProject('Exported', 'EXP-7');
    await t.gqlOk(
      owner,
      'mutation($p: ID!) { createShift(input: { projectId: $p, start: "2026-01-05T09:00:00Z", stop: "2026-01-05T10:00:00Z" }) { shift { id } } }',
      { p: project },
    );
    const csv = await json(owner).get(`/projects/${project}/shifts.csv`);
    expect(csv.status).toBe(200);
    const rows = parse(csv.text, { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!).at(-1)).toBe('project_code');
    expect(rows.map((r) => r.project_code)).toEqual(['EXP-7']);

    const xlsx = await json(owner)
      .get(`/projects/${project}/shifts.xlsx`)
      .buffer(true)
      .parse(binaryBody);
    expect(xlsx.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.body as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    const header = sheet.getRow(1).values as unknown[];
    const column = header.indexOf('project_code');
    expect(column).toBeGreaterThan(0);
    expect(sheet.getRow(2).getCell(column).value).toBe('EXP-7');
  });

  test('OpenAPI (the committed schema/openapi.json, held to the code by its drift test) describes it', () => {
    const openapi = JSON.parse(fs.readFileSync('schema/openapi.json', 'utf8'));
    expect(openapi.components.schemas.Project.properties.code.type).toBe('string');
  });

  test('a staff member reads the code of a project they see, and cannot write it', async () => {
    const id = await newProject('Seen', 'SEEN-1');
    const read = await t.gqlOk<{ project: { code: string } }>(
      staff,
      'query($id: ID!) { project(id: $id) { code } }',
      { id },
    );
    expect(read.project.code).toBe('SEEN-1');
    const write = await t.gql(
      staff,
      'mutation($id: ID!) { updateProject(input: { project: { id: $id }, patch: { code: "MINE" } }) { project { code } } }',
      { id },
    );
    expect(codes(write)).toEqual(['UPDATE_DENIED']);
  });
});
