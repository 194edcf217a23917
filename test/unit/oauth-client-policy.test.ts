import {
  assertMayManageOAuthClients,
  mayManageOAuthClients,
  servesAccount,
} from '../../src/modules/oauth/oauth-client.policy';
import { CALLERS, MANAGER, refusalOf } from '../support/policy-viewers';

/*
 * The OAuth client policy (src/modules/oauth/oauth-client.policy.ts): the owner alone registers,
 * lists and revokes the account's applications, and an application serves its own account's
 * users unless the operator registered it for every account.
 */

test.each([
  ['owner', true],
  ['manager', false],
  ['staff', false],
] as const)("%s manages the account's applications: %s", (caller, allowed) => {
  expect(mayManageOAuthClients(CALLERS[caller])).toBe(allowed);
  for (const act of ['create', 'read', 'delete'] as const)
    expect(refusalOf(() => assertMayManageOAuthClients(CALLERS[caller], act)) === undefined).toBe(
      allowed,
    );
});

test.each([
  ['create', 'CREATE_DENIED', 'Create denied: only the account owner registers applications'],
  ['read', 'READ_DENIED', 'Read denied: only the account owner sees its applications'],
  ['delete', 'DELETE_DENIED', 'Delete denied: only the account owner revokes applications'],
] as const)('a refused %s is %s', (act, code, message) => {
  expect(refusalOf(() => assertMayManageOAuthClients(MANAGER, act))).toEqual({ code, message });
});

test.each([
  [{ accountId: 1, servesEveryAccount: false }, 1, true],
  [{ accountId: 1, servesEveryAccount: false }, 2, false],
  [{ accountId: 1, servesEveryAccount: true }, 2, true],
])('application %j serves the users of account %d: %s', (client, accountId, serves) => {
  expect(servesAccount(client, accountId)).toBe(serves);
});
