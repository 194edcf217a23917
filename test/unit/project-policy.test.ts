import {
  assertMayWriteProject,
  mayWriteProjects,
  projectVisibilityWhere,
} from '../../src/modules/projects/project.policy';
import { CALLERS, OWNER, STAFF, refusalOf, viewerOnlyContext } from '../support/policy-viewers';

/*
 * The project policy (src/modules/projects/project.policy.ts): who writes projects, and that the
 * owner sees every one. The rule for everyone else is the one companies share, tested in
 * company-policy.test.ts over the same forms.
 */

test.each([
  ['owner', true],
  ['manager', true],
  ['staff', false],
] as const)('%s creates, changes and deletes projects: %s', (caller, allowed) => {
  expect(mayWriteProjects(CALLERS[caller])).toBe(allowed);
  for (const act of ['create', 'update', 'delete'] as const)
    expect(refusalOf(() => assertMayWriteProject(CALLERS[caller], act)) === undefined).toBe(
      allowed,
    );
});

test("a refused write is the act's own refusal", () => {
  expect(refusalOf(() => assertMayWriteProject(STAFF, 'create'))).toEqual({
    code: 'CREATE_DENIED',
    message: 'Create denied: you may not create this project',
  });
  expect(refusalOf(() => assertMayWriteProject(STAFF, 'update'))?.code).toBe('UPDATE_DENIED');
  expect(refusalOf(() => assertMayWriteProject(STAFF, 'delete'))?.code).toBe('DELETE_DENIED');
});

test('the owner sees every project: an empty where-object, without reading any list', async () => {
  expect(await projectVisibilityWhere(viewerOnlyContext(OWNER))).toEqual({});
});
