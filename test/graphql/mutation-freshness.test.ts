import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

let t: TestApp;
let owner: Credentials;
beforeAll(async () => {
  t = await startTestApp();
  owner = await t.newAccount();
});
afterAll(() => t?.close());

async function newProject(name: string): Promise<{ id: string }> {
  const company = await t.create(owner, 'createCompany', { name: `${name} client` });
  return t.create(owner, 'createProject', {
    name,
    companyId: company.id,
    visibility: 'PUBLIC',
  });
}

/**
 * The root fields of a mutation run one after the other, and each may change what an earlier one
 * read: every answer must show the state after its own field, never values the request kept from
 * before it (per-request loaders, the identity map).
 */
describe('mutation fields answer with fresh values', () => {
  it('shows the second of two punches running, with its shift', async () => {
    const a = await newProject('Punch A');
    const b = await newProject('Punch B');
    const data = await t.gqlOk(
      owner,
      `mutation($a: ID!, $b: ID!) {
        a: punchIn(input: { project: { id: $a } }) { project { running currentShift { id } } }
        b: punchIn(input: { project: { id: $b } }) { project { running currentShift { id } } }
      }`,
      { a: a.id, b: b.id },
    );
    const after = await t.gqlOk(
      owner,
      `query($a: ID!, $b: ID!) {
        a: project(id: $a) { running }
        b: project(id: $b) { running currentShift { id } }
      }`,
      { a: a.id, b: b.id },
    );
    expect(after.a.running).toBe(false);
    expect(after.b.running).toBe(true);
    expect(data.a.project.running).toBe(true);
    expect(data.b.project).toEqual({
      running: true,
      currentShift: { id: after.b.currentShift.id },
    });
    expect(data.a.project.currentShift.id).not.toBe(after.b.currentShift.id);
  });

  it('shows a project renamed by an earlier field through the loaders of a later one', async () => {
    const project = await newProject('Old name');
    const shift = await t.create(owner, 'createShift', {
      projectId: project.id,
      start: '2026-01-05T09:00:00Z',
      stop: '2026-01-05T10:00:00Z',
    });
    const data = await t.gqlOk(
      owner,
      `mutation($shift: ID!, $project: ID!) {
        before: updateShift(input: { shift: { id: $shift }, patch: { notes: "one" } }) { shift { project { name } } }
        rename: updateProject(input: { project: { id: $project }, patch: { name: "New name" } }) { project { name } }
        after: updateShift(input: { shift: { id: $shift }, patch: { notes: "two" } }) { shift { notes project { name } } }
      }`,
      { shift: shift.id, project: project.id },
    );
    expect(data).toEqual({
      before: { shift: { project: { name: 'Old name' } } },
      rename: { project: { name: 'New name' } },
      after: { shift: { notes: 'two', project: { name: 'New name' } } },
    });
  });
});
