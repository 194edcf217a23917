/**
 * Shifts: the entity, the visibility policy every shift read uses, the service, punching in and
 * out, the project totals and running shift, the events a shift change announces, loaders and
 * GraphQL (with the time fields and punches of Project). Imports accounts, staff, projects and
 * activities. Other modules and the layers above use nothing of it but what this file exports.
 */
import type { ModuleDefinition } from '../../core/module-definition';
import { Shift } from './shift.entity';
import { ProjectTotalsMigration } from './migrations/20261124000000-project-totals.migration';
import { TimeRollupsMigration } from './migrations/20261204000000-time-rollups.migration';
import { ProjectTotalsCoveringMigration } from './migrations/20261210000000-project-totals-covering.migration';
import { ShardLocalTimeTriggersMigration } from './migrations/20261212000000-shard-local-time-triggers.migration';
export { PunchService } from './punch.service';
export { Shift } from './shift.entity';
export {
  isDeletedShiftVisible,
  isShiftVisible,
  shiftScope,
  shiftVisibilitySql,
  type ShiftScope,
} from './shift.policy';
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

/** What the module adds to the process (entities and migrations); src/modules/index.ts lists it. */
export const SHIFTS_MODULE = {
  name: 'shifts',
  entities: [Shift],
  migrations: [
    { name: '20261124000000-project-totals', class: ProjectTotalsMigration },
    { name: '20261204000000-time-rollups', class: TimeRollupsMigration },
    { name: '20261210000000-project-totals-covering', class: ProjectTotalsCoveringMigration },
    { name: '20261212000000-shard-local-time-triggers', class: ShardLocalTimeTriggersMigration },
  ],
} as const satisfies ModuleDefinition;
