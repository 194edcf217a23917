import { BasicAuthenticator } from '../../src/auth/basic-auth';
import { createPasswordHasher, type PasswordHasher } from '../../src/modules/staff/passwords';
import { SignInLimiter } from '../../src/auth/sign-in-limiter';
import { UnauthenticatedError } from '../../src/core/errors';
import { startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

/** A real argon2 hasher that counts what it is asked to do. */
function countingHasher(): PasswordHasher & { verifies: number; dummies: number } {
  const real = createPasswordHasher(1024);
  const counted = {
    verifies: 0,
    dummies: 0,
    hash: real.hash,
    verify: (hash: string, password: string) => {
      counted.verifies += 1;
      return real.verify(hash, password);
    },
    verifyDummy: (password: string) => {
      counted.dummies += 1;
      return real.verifyDummy(password);
    },
  };
  return counted;
}

const fork = () => t.db.orm.em.fork();
const limiter = () =>
  new SignInLimiter(t.db.orm.em.getConnection().getKnex(), t.config.auth.signInLimits);
const HERE = '127.0.0.1';

test('a successful verification is cached, so Basic auth does not pay the hash on every request', async () => {
  const owner = await t.newAccount();
  const hasher = countingHasher();
  const auth = new BasicAuthenticator(hasher, limiter(), 60_000);
  for (let i = 0; i < 5; i++) {
    expect((await auth.authenticate(fork(), owner, HERE)).login).toBe(owner.login);
  }
  expect(hasher.verifies).toBe(1);
});

test('a wrong password is verified every time and never cached', async () => {
  const owner = await t.newAccount();
  const hasher = countingHasher();
  const auth = new BasicAuthenticator(hasher, limiter(), 60_000);
  await auth.authenticate(fork(), owner, HERE);
  for (let i = 0; i < 3; i++) {
    await expect(
      auth.authenticate(fork(), { login: owner.login, password: 'not-it' }, HERE),
    ).rejects.toThrow(UnauthenticatedError);
  }
  expect(hasher.verifies).toBe(4);
});

test('an unknown login costs one (dummy) verification, like a known one', async () => {
  const hasher = countingHasher();
  const auth = new BasicAuthenticator(hasher, limiter(), 60_000);
  await expect(
    auth.authenticate(fork(), { login: 'nobody-here', password: 'whatever1' }, HERE),
  ).rejects.toThrow(UnauthenticatedError);
  expect(hasher.dummies).toBe(1);
});

test('logins match whatever their case', async () => {
  const owner = await t.newAccount({ login: 'MixedCase.Login' });
  const data = await t.gqlOk(
    { login: 'mixedcase.login', password: owner.password },
    '{ viewer { staff { login } } }',
  );
  expect(data.viewer.staff.login).toBe('MixedCase.Login');
});

test('a cached password stops working at once when it is changed, even within the cache lifetime', async () => {
  const owner = await t.newAccount();
  const hasher = countingHasher();
  const auth = new BasicAuthenticator(hasher, limiter(), 60_000);
  await auth.authenticate(fork(), owner, HERE);
  await t.gqlOk(
    owner,
    'mutation($id: ID!) { updateStaff(input: { staff: { id: $id }, patch: { password: "a-new-password" } }) { staff { id } } }',
    { id: owner.ownerId },
  );
  await expect(auth.authenticate(fork(), owner, HERE)).rejects.toThrow(UnauthenticatedError);
  expect(
    (await auth.authenticate(fork(), { login: owner.login, password: 'a-new-password' }, HERE))
      .login,
  ).toBe(owner.login);
});

test('malformed Authorization headers are 401, never 500', async () => {
  const { default: request } = await import('supertest');
  for (const header of [
    'Basic',
    'Basic !!!',
    `Basic ${Buffer.from('no-colon').toString('base64')}`,
    'Bearer abc',
    `Basic ${Buffer.from(`x\u0000:y`).toString('base64')}`,
  ]) {
    const res = await request(t.app.express)
      .post('/graphql')
      .set('authorization', header)
      .send({ query: '{ viewer { staff { id } } }' });
    expect(res.status).toBe(401);
    expect(res.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  }
});
