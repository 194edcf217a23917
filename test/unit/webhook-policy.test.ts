import {
  assertMayManageWebhooks,
  mayManageWebhooks,
} from '../../src/modules/webhooks/webhook.policy';
import { CALLERS, MANAGER, refusalOf } from '../support/policy-viewers';

/* The webhook policy (src/modules/webhooks/webhook.policy.ts): the owner alone manages webhooks. */

test.each([
  ['owner', true],
  ['manager', false],
  ['staff', false],
] as const)('%s reads and manages webhooks: %s', (caller, allowed) => {
  expect(mayManageWebhooks(CALLERS[caller])).toBe(allowed);
  for (const act of ['read', 'create', 'update', 'delete'] as const)
    expect(refusalOf(() => assertMayManageWebhooks(CALLERS[caller], act)) === undefined).toBe(
      allowed,
    );
});

test.each([
  ['read', 'READ_DENIED', 'Read denied: only the account owner manages webhooks'],
  ['create', 'CREATE_DENIED', 'Create denied: only the account owner manages webhooks'],
  ['update', 'UPDATE_DENIED', 'Update denied: only the account owner manages webhooks'],
  ['delete', 'DELETE_DENIED', 'Delete denied: only the account owner manages webhooks'],
] as const)('a refused %s is %s', (act, code, message) => {
  expect(refusalOf(() => assertMayManageWebhooks(MANAGER, act))).toEqual({ code, message });
});
