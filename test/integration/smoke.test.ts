import { codes, startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

test('an authenticated GraphQL query answers with the viewer', async () => {
  const owner = await t.newAccount();
  const data = await t.gqlOk(
    owner,
    '{ viewer { staff { id legacyId login type } account { staffMax } } }',
  );
  expect(data.viewer.staff).toEqual({
    id: owner.ownerId,
    legacyId: owner.ownerLegacyId,
    login: owner.login,
    type: 'OWNER',
  });
});

test('no credentials is 401 UNAUTHENTICATED with a Basic challenge', async () => {
  const res = await t.gql(undefined, '{ viewer { staff { id } } }');
  expect(res.status).toBe(401);
  expect(codes(res)).toEqual(['UNAUTHENTICATED']);
});
