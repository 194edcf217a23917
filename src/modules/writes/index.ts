/**
 * What every service's writes share: locating rows (by uuid or integer id), validation,
 * transactions with their retries and row locks, Idempotency-Key handling, the current rates'
 * history entries (which the project, staff and rate services write), and the contract by which
 * the modules below shifts report the shifts their deletions reach (`ShiftCascades`).
 * Imports core and ids. Other modules and the layers above use nothing of it but what this file
 * exports.
 */
import type { ModuleDefinition } from '../../core/module-definition';
import { IdempotencyKeysMigration } from './migrations/20261125000000-idempotency-keys.migration';
export { idempotentTransaction } from './idempotency';
export { rateEntryConflict, recordCurrentRate, type RateOwner } from './rate-history';
export {
  CASCADE_LIST_MAX,
  type Cascaded,
  type DeletionCascade,
  type ShiftCascadeRoot,
  type ShiftCascades,
} from './shift-cascades';
export {
  assertUuidFree,
  assignDefined,
  fields,
  findByUuids,
  inOrderOf,
  findLocated,
  inTransaction,
  locatorWhere,
  lockRow,
  validate,
  type Locator,
} from './service-support';

/** What the module adds to the process (migrations); src/modules/index.ts lists it. */
export const WRITES_MODULE = {
  name: 'writes',
  migrations: [{ name: '20261125000000-idempotency-keys', class: IdempotencyKeysMigration }],
} as const satisfies ModuleDefinition;
