import {
  assertMayChangeShift,
  assertMayLogShiftsOf,
  isDeletedShiftVisible,
  isShiftVisible,
  mayChangeShift,
  mayLogShiftsOf,
  shiftVisibilityWhere,
} from '../../src/modules/shifts/shift.policy';
import {
  CALLERS,
  MANAGER,
  OTHER_STAFF,
  OWNER,
  STAFF,
  refusalOf,
  viewerOnlyContext,
} from '../support/policy-viewers';

/*
 * The shift policy (src/modules/shifts/shift.policy.ts): whose time a caller records, and which
 * shifts they see in the forms that need no database (the owner's and a staff member's; a
 * manager's depends on the projects they see, which the integration tests cover).
 */

const PEOPLE = { owner: OWNER, manager: MANAGER, staff: STAFF, otherStaff: OTHER_STAFF } as const;
type Person = keyof typeof PEOPLE;
type Caller = keyof typeof CALLERS;

const LOGS: [Caller, Person, boolean][] = [
  ['owner', 'owner', true],
  ['owner', 'staff', true],
  ['manager', 'owner', true],
  ['manager', 'manager', true],
  ['manager', 'otherStaff', true],
  ['staff', 'staff', true],
  ['staff', 'otherStaff', false],
  ['staff', 'manager', false],
];

test.each(LOGS)('%s records the time of %s: %s', (caller, person, allowed) => {
  const viewer = CALLERS[caller];
  const user = PEOPLE[person];
  expect(mayLogShiftsOf(viewer, user.id)).toBe(allowed);
  expect(mayChangeShift(viewer, { user })).toBe(allowed);
  expect(refusalOf(() => assertMayLogShiftsOf(viewer, user, 'create')) === undefined).toBe(allowed);
  expect(refusalOf(() => assertMayChangeShift(viewer, { user }, 'delete')) === undefined).toBe(
    allowed,
  );
});

test("the refusals of another user's shift the API has always given", () => {
  expect(refusalOf(() => assertMayLogShiftsOf(STAFF, OTHER_STAFF, 'create'))).toEqual({
    code: 'CREATE_DENIED',
    message: 'Create denied: you may only log your own shifts',
  });
  expect(refusalOf(() => assertMayLogShiftsOf(STAFF, OTHER_STAFF, 'update'))).toEqual({
    code: 'UPDATE_DENIED',
    message: 'Update denied: you may only log your own shifts',
  });
  expect(refusalOf(() => assertMayChangeShift(STAFF, { user: OTHER_STAFF }, 'update'))).toEqual({
    code: 'UPDATE_DENIED',
    message: 'Update denied: you may not update this shift',
  });
  expect(refusalOf(() => assertMayChangeShift(STAFF, { user: OTHER_STAFF }, 'delete'))).toEqual({
    code: 'DELETE_DENIED',
    message: 'Delete denied: you may not delete this shift',
  });
});

describe('which shifts a caller sees', () => {
  test('as a where-object: every shift for the owner, their own for a staff member', async () => {
    expect(await shiftVisibilityWhere(viewerOnlyContext(OWNER))).toEqual({});
    expect(await shiftVisibilityWhere(viewerOnlyContext(STAFF))).toEqual({ user: STAFF.id });
  });

  test("as a row test of an event's snapshot", async () => {
    const ofStaff = { userId: STAFF.uuid, projectId: 'p' };
    const ofOther = { userId: OTHER_STAFF.uuid, projectId: 'p' };
    expect(await isShiftVisible(viewerOnlyContext(OWNER), ofOther)).toBe(true);
    expect(await isShiftVisible(viewerOnlyContext(STAFF), ofStaff)).toBe(true);
    expect(await isShiftVisible(viewerOnlyContext(STAFF), ofOther)).toBe(false);
  });

  test.each([
    ['owner', 'otherStaff', false, true],
    ['manager', 'manager', false, true],
    ['manager', 'otherStaff', true, true],
    ['manager', 'otherStaff', false, false],
    ['staff', 'staff', false, true],
    ['staff', 'otherStaff', true, false],
  ] as const)(
    "%s learns of the deletion of %s's shift (project visible: %s): %s",
    async (caller, person, projectVisible, seen) => {
      const asked: boolean[] = [];
      const visible = await isDeletedShiftVisible(
        CALLERS[caller],
        { userId: PEOPLE[person].id },
        () => {
          asked.push(true);
          return Promise.resolve(projectVisible);
        },
      );
      expect(visible).toBe(seen);
      // The project's rule is read only where it decides: a manager's view of others' shifts.
      expect(asked.length).toBe(caller === 'manager' && person !== 'manager' ? 1 : 0);
    },
  );
});
