export { ShiftResolver } from './graphql/shift.resolver';
export { PunchService } from './punch.service';
export { Shift } from './shift.entity';
export { isShiftVisible, shiftVisibilitySql } from './shift.policy';
export { ShiftService } from './shift.service';
export { ProjectTimeResolver } from './graphql/project-time.resolver';
export { primeProjectTimeFields } from './project-time.loaders';
export {
  SHIFT_EVENT_KINDS,
  ShiftEvents,
  type ShiftEvent,
  type ShiftEventKind,
  type ShiftEventSink,
} from './shift-events';
