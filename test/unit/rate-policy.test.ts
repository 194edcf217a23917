import {
  assertMaySetRateOf,
  assertMaySetRates,
  mayReadRatesOf,
  maySetRateOf,
  maySetRates,
} from '../../src/modules/rates/rate.policy';
import {
  CALLERS,
  MANAGER,
  OTHER_MANAGER,
  OTHER_STAFF,
  OWNER,
  STAFF,
  refusalOf,
  rowOf,
} from '../support/policy-viewers';

/*
 * The rate policy (src/modules/rates/rate.policy.ts): who reads and who sets whose rate
 * histories. Money itself (who reads rates at all) is the accounts' rule and not tested here.
 */

const USERS = {
  owner: rowOf(OWNER),
  manager: rowOf(MANAGER),
  staff: rowOf(STAFF),
  otherManager: rowOf(OTHER_MANAGER),
  otherStaff: rowOf(OTHER_STAFF),
} as const;
type UserName = keyof typeof USERS;
type Caller = keyof typeof CALLERS;
const USER_NAMES = Object.keys(USERS) as UserName[];

function table(allowed: Record<Caller, UserName[]>): [Caller, UserName, boolean][] {
  return (Object.keys(CALLERS) as Caller[]).flatMap((caller) =>
    USER_NAMES.map((user): [Caller, UserName, boolean] => [
      caller,
      user,
      allowed[caller].includes(user),
    ]),
  );
}

test.each(table({ owner: USER_NAMES, manager: USER_NAMES, staff: ['staff'] }))(
  "%s reads the rate history of %s: %s (where the user's record may be read)",
  (caller, user, allowed) => {
    expect(mayReadRatesOf(CALLERS[caller], USERS[user].id)).toBe(allowed);
  },
);

test.each([
  ['owner', true],
  ['manager', true],
  ['staff', false],
] as const)('%s writes rate histories: %s', (caller, allowed) => {
  expect(maySetRates(CALLERS[caller])).toBe(allowed);
  expect(refusalOf(() => assertMaySetRates(CALLERS[caller], 'update')) === undefined).toBe(allowed);
});

test('a refused write of a rate is UPDATE_DENIED when setting, DELETE_DENIED when removing', () => {
  expect(refusalOf(() => assertMaySetRates(STAFF, 'update'))).toEqual({
    code: 'UPDATE_DENIED',
    message: 'Update denied: you may not update this rate',
  });
  expect(refusalOf(() => assertMaySetRates(STAFF, 'delete'))).toEqual({
    code: 'DELETE_DENIED',
    message: 'Delete denied: you may not delete this rate',
  });
});

test.each(table({ owner: USER_NAMES, manager: ['manager', 'staff', 'otherStaff'], staff: [] }))(
  '%s sets the rates of %s: %s',
  (caller, user, allowed) => {
    expect(maySetRateOf(CALLERS[caller], USERS[user])).toBe(allowed);
    expect(refusalOf(() => assertMaySetRateOf(CALLERS[caller], USERS[user])) === undefined).toBe(
      allowed,
    );
  },
);

test('the refusals of setting a user rate the API has always given', () => {
  expect(refusalOf(() => assertMaySetRateOf(STAFF, USERS.staff))).toEqual({
    code: 'UPDATE_DENIED',
    message: 'Update denied: you may not update this rate',
  });
  for (const user of [USERS.owner, USERS.otherManager])
    expect(refusalOf(() => assertMaySetRateOf(MANAGER, user))).toEqual({
      code: 'UPDATE_DENIED',
      message: 'Update denied: only the owner sets the rates of managers and the owner',
    });
});
