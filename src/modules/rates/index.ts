/**
 * Rate histories: billable rates of projects and users and cost rates of users over time, and
 * the service that keeps each current rate the one in force now (the database prices shifts by
 * them). Imports accounts, staff and projects. Other modules and the layers above use nothing of
 * it but what this file exports.
 */
import type { ModuleDefinition } from '../../core/module-definition';
export { RateService } from './rate.service';
export {
  assertMaySetRateOf,
  assertMaySetRates,
  mayReadRatesOf,
  maySetRateOf,
  maySetRates,
} from './rate.policy';
export { CurrentRateClock } from './current-rate-clock';

/** The module's place in the order of src/modules/index.ts; it adds no entities or migrations. */
export const RATES_MODULE = {
  name: 'rates',
} as const satisfies ModuleDefinition;
