import { Visibility } from '../../src/modules/common/graphql/enums';
import {
  isListedSnapshotVisible,
  isListedVisible,
  listedVisibilityWhere,
} from '../../src/modules/rule-forms/listed-visibility';
import {
  assertMayWriteCompany,
  companyVisibilityWhere,
  mayWriteCompanies,
} from '../../src/modules/companies/company.policy';
import {
  CALLERS,
  MANAGER,
  OWNER,
  STAFF,
  refusalOf,
  viewerOnlyContext,
} from '../support/policy-viewers';

/*
 * The company policy (src/modules/companies/company.policy.ts): who writes companies, and who sees
 * them by the rule companies and projects share (rule-forms/listed-visibility.ts), in its where-object
 * and row-test forms. Each form is given the CUSTOM lists naming the caller directly, so no
 * database is read.
 */

test.each([
  ['owner', true],
  ['manager', true],
  ['staff', false],
] as const)('%s creates, changes and deletes companies: %s', (caller, allowed) => {
  expect(mayWriteCompanies(CALLERS[caller])).toBe(allowed);
  for (const act of ['create', 'update', 'delete'] as const)
    expect(refusalOf(() => assertMayWriteCompany(CALLERS[caller], act)) === undefined).toBe(
      allowed,
    );
});

test("a refused write is the act's own refusal", () => {
  expect(refusalOf(() => assertMayWriteCompany(STAFF, 'create'))).toEqual({
    code: 'CREATE_DENIED',
    message: 'Create denied: you may not create this company',
  });
  expect(refusalOf(() => assertMayWriteCompany(STAFF, 'update'))?.code).toBe('UPDATE_DENIED');
  expect(refusalOf(() => assertMayWriteCompany(STAFF, 'delete'))?.code).toBe('DELETE_DENIED');
});

describe('which companies a caller sees', () => {
  test('the owner sees every one: an empty where-object, without reading any list', async () => {
    expect(await companyVisibilityWhere(viewerOnlyContext(OWNER))).toEqual({});
  });

  test('everyone else: PUBLIC ones, their own, and CUSTOM ones listing them', async () => {
    expect(await listedVisibilityWhere(STAFF, () => Promise.resolve([7, 9]))).toEqual({
      $or: [
        { visibility: Visibility.PUBLIC },
        { createdBy: STAFF.id },
        { visibility: Visibility.CUSTOM, id: { $in: [7, 9] } },
      ],
    });
    // No list names them: no condition that could match nothing.
    expect(await listedVisibilityWhere(MANAGER, () => Promise.resolve([]))).toEqual({
      $or: [{ visibility: Visibility.PUBLIC }, { createdBy: MANAGER.id }],
    });
  });

  const row = (visibility: Visibility, createdBy: number | null) => ({
    id: 7,
    visibility,
    createdBy: createdBy === null ? null : { id: createdBy },
  });

  test.each([
    ['owner', Visibility.PRIVATE, null, false, true],
    ['manager', Visibility.PUBLIC, null, false, true],
    ['manager', Visibility.PRIVATE, null, false, false],
    ['manager', Visibility.PRIVATE, MANAGER.id, false, true],
    ['staff', Visibility.CUSTOM, null, true, true],
    ['staff', Visibility.CUSTOM, null, false, false],
    // A member list on a row that is not CUSTOM is ignored.
    ['staff', Visibility.PRIVATE, null, true, false],
  ] as const)(
    '%s sees a %s company created by %s (listed: %s): %s',
    async (caller, visibility, createdBy, listed, seen) => {
      const viewer = CALLERS[caller];
      const listedIds = () => Promise.resolve(listed ? [7] : []);
      expect(await isListedVisible(viewer, row(visibility, createdBy), listedIds)).toBe(seen);
      // A deleted company, by what its tombstone kept: the same answer.
      expect(
        await isListedSnapshotVisible(viewer, {
          id: 7,
          visibility,
          createdBy,
          memberIds: listed ? [viewer.id] : [],
        }),
      ).toBe(seen);
    },
  );
});
