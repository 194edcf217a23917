import { AppError } from '../../src/core/errors';
import type { RequestContext } from '../../src/core/request-context';
import { StaffType, type Viewer } from '../../src/core/viewer';

/*
 * Callers and staff rows for the policies' unit tests, built in memory: a policy decides from a
 * Viewer and the row it is asked about, so its truth table needs no app, database or server.
 */

export function viewerOf(type: StaffType, id: number, staffSeeMoney = false): Viewer {
  return {
    id,
    uuid: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    login: `${type}-${id}`,
    type,
    accountId: 1,
    staffSeeMoney,
  };
}

/** One account's people: the owner, two managers and two staff members. */
export const OWNER = viewerOf(StaffType.OWNER, 1);
export const MANAGER = viewerOf(StaffType.MANAGER, 2);
export const STAFF = viewerOf(StaffType.STAFF, 3);
export const OTHER_MANAGER = viewerOf(StaffType.MANAGER, 4);
export const OTHER_STAFF = viewerOf(StaffType.STAFF, 5);

/** The three callers of the permissions matrix (docs/permissions.md), by the matrix's names. */
export const CALLERS = { owner: OWNER, manager: MANAGER, staff: STAFF } as const;

/** A staff row as a policy reads it: its id and role. */
export function rowOf(viewer: Viewer): { id: number; type: StaffType } {
  return { id: viewer.id, type: viewer.type };
}

/**
 * A context carrying only a viewer, for the rule forms that decide from the viewer alone (the
 * owner's `{}`, a staff member's own rows). A form that reads the database fails on it.
 */
export function viewerOnlyContext(viewer: Viewer): RequestContext {
  return { viewer } as unknown as RequestContext;
}

/** The catalogue error `act` throws, as code and message; undefined when it throws none. */
export function refusalOf(act: () => void): { code: string; message: string } | undefined {
  try {
    act();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { code: error.code, message: error.message };
  }
  return undefined;
}
