import { StaffType } from '../../src/core/viewer';
import {
  assertMayCreateStaff,
  assertMayDeleteStaff,
  assertMayReadStaff,
  assertMayUpdateStaff,
  managesStaff,
  mayCreateStaff,
  mayDeleteStaff,
  mayReadStaff,
  mayUpdateStaff,
  readableStaffWhere,
  staffReadDenial,
} from '../../src/modules/staff/staff.policy';
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
 * The staff policy's rules (src/modules/staff/staff.policy.ts) as truth tables over the three
 * roles and the records of one account: the owner, the caller's own, another manager's and
 * another staff member's. The permissions matrix (test/integration/permissions.test.ts) runs the
 * same rules through the API.
 */

const ROWS = {
  owner: rowOf(OWNER),
  manager: rowOf(MANAGER),
  staff: rowOf(STAFF),
  otherManager: rowOf(OTHER_MANAGER),
  otherStaff: rowOf(OTHER_STAFF),
} as const;
type RowName = keyof typeof ROWS;
type Caller = keyof typeof CALLERS;
const ROW_NAMES = Object.keys(ROWS) as RowName[];

/** Every caller against every row, with the rows `allowed` names for that caller. */
function table(allowed: Record<Caller, RowName[]>): [Caller, RowName, boolean][] {
  return (Object.keys(CALLERS) as Caller[]).flatMap((caller) =>
    ROW_NAMES.map((row): [Caller, RowName, boolean] => [
      caller,
      row,
      allowed[caller].includes(row),
    ]),
  );
}

describe('reading a staff record', () => {
  test.each(table({ owner: ROW_NAMES, manager: ROW_NAMES, staff: ['staff'] }))(
    '%s reads the record of %s: %s',
    (caller, row, allowed) => {
      expect(mayReadStaff(CALLERS[caller], ROWS[row])).toBe(allowed);
      expect(staffReadDenial(CALLERS[caller], ROWS[row]) === null).toBe(allowed);
    },
  );

  test('a refused read is READ_DENIED', () => {
    expect(refusalOf(() => assertMayReadStaff(STAFF, ROWS.otherStaff))).toEqual({
      code: 'READ_DENIED',
      message: 'Read denied: you may not read this staff',
    });
    expect(refusalOf(() => assertMayReadStaff(STAFF, ROWS.staff))).toBeUndefined();
  });

  test('a list is the whole account for the owner and managers, the own record for staff', () => {
    expect(readableStaffWhere(OWNER)).toEqual({});
    expect(readableStaffWhere(MANAGER)).toEqual({});
    expect(readableStaffWhere(STAFF)).toEqual({ id: STAFF.id });
  });
});

describe('managing a staff record', () => {
  test.each(
    table({
      owner: ROW_NAMES,
      manager: ['manager', 'staff', 'otherStaff'],
      staff: [],
    }),
  )('%s manages the record of %s: %s', (caller, row, allowed) => {
    expect(managesStaff(CALLERS[caller], ROWS[row])).toBe(allowed);
  });
});

describe('creating a user', () => {
  test.each([
    ['owner', StaffType.STAFF, true],
    ['owner', StaffType.MANAGER, true],
    ['manager', StaffType.STAFF, true],
    ['manager', StaffType.MANAGER, false],
    ['staff', StaffType.STAFF, false],
    ['staff', StaffType.MANAGER, false],
  ] as const)('%s creates a %s: %s', (caller, type, allowed) => {
    expect(mayCreateStaff(CALLERS[caller], type)).toBe(allowed);
    expect(refusalOf(() => assertMayCreateStaff(CALLERS[caller], type)) === undefined).toBe(
      allowed,
    );
  });

  test('the refusals the API has always given', () => {
    // By role alone, before the input is read.
    expect(refusalOf(() => assertMayCreateStaff(STAFF))).toEqual({
      code: 'CREATE_DENIED',
      message: 'Create denied: you may not create this staff',
    });
    expect(refusalOf(() => assertMayCreateStaff(MANAGER))).toBeUndefined();
    expect(refusalOf(() => assertMayCreateStaff(MANAGER, StaffType.MANAGER))).toEqual({
      code: 'CREATE_DENIED',
      message: 'Create denied: only the owner may create managers',
    });
  });
});

describe('deleting a user', () => {
  test.each(
    table({
      owner: ['manager', 'staff', 'otherManager', 'otherStaff'],
      manager: ['staff', 'otherStaff'],
      staff: [],
    }),
  )('%s deletes %s: %s', (caller, row, allowed) => {
    expect(mayDeleteStaff(CALLERS[caller], ROWS[row])).toBe(allowed);
  });

  test.each([
    ['staff', 'otherStaff', 'Delete denied: you may not delete this staff'],
    ['owner', 'owner', 'Delete denied: the account owner cannot be deleted'],
    ['manager', 'owner', 'Delete denied: the account owner cannot be deleted'],
    ['manager', 'manager', 'Delete denied: you cannot delete yourself'],
    ['manager', 'otherManager', 'Delete denied: only the owner may delete managers'],
  ] as const)('%s deleting %s is refused: %s', (caller, row, message) => {
    expect(refusalOf(() => assertMayDeleteStaff(CALLERS[caller], ROWS[row]))).toEqual({
      code: 'DELETE_DENIED',
      message,
    });
  });
});

describe('updating a user', () => {
  const record = (row: RowName) => ({ ...ROWS[row], firstName: 'Ann', active: true });

  test.each([
    // A staff member edits the profile of their own record, nothing else.
    ['staff', 'staff', { firstName: 'Bo' }, null],
    ['staff', 'staff', { password: 'a new password' }, null],
    // What a legacy client PUTs back unchanged is no change.
    ['staff', 'staff', { firstName: 'Bo', type: StaffType.STAFF, active: true }, null],
    ['staff', 'staff', { type: StaffType.MANAGER }, 'Update denied: you may not update this staff'],
    ['staff', 'staff', { hourlyRateCents: 100 }, 'Update denied: you may not update this staff'],
    ['staff', 'otherStaff', { firstName: 'Bo' }, 'Update denied: you may not update this staff'],
    // A manager manages staff members and their own profile.
    ['manager', 'otherStaff', { firstName: 'Bo', active: false }, null],
    ['manager', 'manager', { firstName: 'Bo' }, null],
    [
      'manager',
      'otherStaff',
      { type: StaffType.MANAGER },
      'Update denied: only the owner may manage managers',
    ],
    [
      'manager',
      'manager',
      { type: StaffType.STAFF },
      'Update denied: only the owner may manage managers',
    ],
    [
      'manager',
      'otherManager',
      { firstName: 'Bo' },
      'Update denied: only the owner may manage managers',
    ],
    ['manager', 'owner', { firstName: 'Bo' }, 'Update denied: only the owner may manage managers'],
    ['manager', 'manager', { active: false }, 'Update denied: you cannot disable yourself'],
    // The owner manages everyone, and stays an active owner.
    ['owner', 'otherManager', { type: StaffType.STAFF }, null],
    ['owner', 'otherStaff', { type: StaffType.MANAGER }, null],
    ['owner', 'owner', { firstName: 'Bo', type: StaffType.OWNER }, null],
    [
      'owner',
      'owner',
      { type: StaffType.MANAGER },
      'Update denied: the owner stays an active owner',
    ],
    ['owner', 'owner', { active: false }, 'Update denied: the owner stays an active owner'],
  ] as const)('%s updates %s with %j: %s', (caller, row, changes, refusal) => {
    const viewer = CALLERS[caller];
    expect(mayUpdateStaff(viewer, record(row), changes)).toBe(refusal === null);
    expect(refusalOf(() => assertMayUpdateStaff(viewer, record(row), changes))).toEqual(
      refusal === null ? undefined : { code: 'UPDATE_DENIED', message: refusal },
    );
  });
});
