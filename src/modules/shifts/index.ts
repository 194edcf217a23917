/**
 * Shifts: the entity, the visibility policy every shift read uses, the service, punching in and
 * out, the project totals and running shift, the events a shift change announces, loaders and
 * GraphQL (with the time fields and punches of Project). Imports accounts, staff, projects and
 * activities. Other modules and the layers above use nothing of it but what this file exports.
 */
export { PunchService } from './punch.service';
export { Shift } from './shift.entity';
export { isDeletedShiftVisible, isShiftVisible, shiftVisibilitySql } from './shift.policy';
export {
  assertMayChangeShift,
  assertMayLogShiftsOf,
  mayChangeShift,
  mayLogShiftsOf,
} from './shift.policy';
export { ShiftService } from './shift.service';
export {
  SHIFT_EVENT_KINDS,
  ShiftEvents,
  type ShiftEvent,
  type ShiftEventKind,
  type ShiftEventSink,
} from './shift-events';
export { ShiftCascadeRecorder } from './shift-cascades';
export type { NewShift, PunchInFields, ShiftChanges } from './shift.changes';
