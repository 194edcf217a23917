import { randomUUID } from 'node:crypto';
import { startTestApp, type Credentials, type TestApp } from '../support/test-app';

let t: TestApp;
let owner: Credentials & { ownerId: string };
let staff: Credentials & { id: string };
beforeAll(async () => {
  t = await startTestApp();
  owner = await t.newAccount();
  staff = await t.newStaff(owner);
});
afterAll(() => t?.close());

const VIEWER = 'viewer { staff { id } }';

/**
 * A lookup that finds nothing, or finds what the caller may not read, is null with an error at its
 * own path, as GitHub answers: the other fields of the same request keep their answers.
 */
describe('single-object lookups are nullable', () => {
  it('answers an unknown project as null plus NOT_FOUND at its path, keeping the viewer', async () => {
    const res = await t.gql(owner, `{ ${VIEWER} project(id: "${randomUUID()}") { id } }`);
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ viewer: { staff: { id: owner.ownerId } }, project: null });
    expect(res.errors).toHaveLength(1);
    expect(res.errors![0]!.path).toEqual(['project']);
    expect(res.errors![0]!.extensions?.code).toBe('NOT_FOUND');
  });

  it('answers a user the caller may not read as null plus READ_DENIED at its path', async () => {
    const res = await t.gql(staff, `{ ${VIEWER} staffMember(id: "${owner.ownerId}") { id } }`);
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ viewer: { staff: { id: staff.id } }, staffMember: null });
    expect(res.errors).toHaveLength(1);
    expect(res.errors![0]!.path).toEqual(['staffMember']);
    expect(res.errors![0]!.extensions?.code).toBe('READ_DENIED');
  });

  it('keeps every found object beside every missing one, each error at its own path', async () => {
    const unknown = randomUUID();
    const res = await t.gql(
      owner,
      `{
        ${VIEWER}
        me: staffMember(id: "${owner.ownerId}") { id }
        project(id: "${unknown}") { id }
        company(id: "${unknown}") { id }
        activity(id: "${unknown}") { id }
        shift(id: "${unknown}") { id }
        staffMember(legacyId: 2147483000) { id }
      }`,
    );
    expect(res.data).toEqual({
      viewer: { staff: { id: owner.ownerId } },
      me: { id: owner.ownerId },
      project: null,
      company: null,
      activity: null,
      shift: null,
      staffMember: null,
    });
    const byPath = Object.fromEntries(
      (res.errors ?? []).map((e) => [e.path!.join('.'), e.extensions?.code]),
    );
    expect(byPath).toEqual({
      project: 'NOT_FOUND',
      company: 'NOT_FOUND',
      activity: 'NOT_FOUND',
      shift: 'NOT_FOUND',
      staffMember: 'NOT_FOUND',
    });
  });

  it("answers the owner's lists to anyone else as null plus READ_DENIED, keeping the rest", async () => {
    const res = await t.gql(staff, `{ ${VIEWER} webhooks { id } oauthClients { name } }`);
    expect(res.status).toBe(200);
    expect(res.data).toEqual({
      viewer: { staff: { id: staff.id } },
      webhooks: null,
      oauthClients: null,
    });
    const byPath = Object.fromEntries(
      (res.errors ?? []).map((e) => [e.path!.join('.'), e.extensions?.code]),
    );
    expect(byPath).toEqual({ webhooks: 'READ_DENIED', oauthClients: 'READ_DENIED' });
  });

  it('still answers the legacy interfaces 404 and 403 for the same lookups', async () => {
    const http = (await import('supertest')).default(t.app.express);
    const missing = await http
      .get(`/api/1/projects/${randomUUID()}.json`)
      .auth(owner.login, owner.password);
    expect(missing.status).toBe(404);
    const denied = await http
      .get(`/api/1/staff/${owner.ownerId}.json`)
      .auth(staff.login, staff.password);
    expect(denied.status).toBe(403);
  });
});
