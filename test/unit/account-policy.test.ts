import {
  assertMayChangeAccount,
  mayChangeAccount,
} from '../../src/modules/accounts/account.policy';
import { CALLERS, MANAGER, refusalOf } from '../support/policy-viewers';

/*
 * The account policy (src/modules/accounts/account.policy.ts): the owner alone changes the
 * account's settings. Who reads money (money-visibility.ts) has its own tests.
 */

test.each([
  ['owner', true],
  ['manager', false],
  ['staff', false],
] as const)("%s changes the account's settings: %s", (caller, allowed) => {
  expect(mayChangeAccount(CALLERS[caller])).toBe(allowed);
  expect(refusalOf(() => assertMayChangeAccount(CALLERS[caller])) === undefined).toBe(allowed);
});

test('a refused change is UPDATE_DENIED', () => {
  expect(refusalOf(() => assertMayChangeAccount(MANAGER))).toEqual({
    code: 'UPDATE_DENIED',
    message: 'Update denied: only the owner may change the account',
  });
});
