import {
  assertMayWriteActivity,
  mayWriteActivities,
} from '../../src/modules/activities/activity.policy';
import { CALLERS, STAFF, refusalOf } from '../support/policy-viewers';

/* The activity policy (src/modules/activities/activity.policy.ts): who writes activities. */

test.each([
  ['owner', true],
  ['manager', true],
  ['staff', false],
] as const)('%s creates, changes and deletes activities: %s', (caller, allowed) => {
  expect(mayWriteActivities(CALLERS[caller])).toBe(allowed);
  for (const act of ['create', 'update', 'delete'] as const)
    expect(refusalOf(() => assertMayWriteActivity(CALLERS[caller], act)) === undefined).toBe(
      allowed,
    );
});

test("a refused write is the act's own refusal", () => {
  expect(refusalOf(() => assertMayWriteActivity(STAFF, 'create'))).toEqual({
    code: 'CREATE_DENIED',
    message: 'Create denied: you may not create this activity',
  });
  expect(refusalOf(() => assertMayWriteActivity(STAFF, 'update'))?.code).toBe('UPDATE_DENIED');
  expect(refusalOf(() => assertMayWriteActivity(STAFF, 'delete'))?.code).toBe('DELETE_DENIED');
});
