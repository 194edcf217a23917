/**
 * The time zone list with its coordinates and offsets, and its GraphQL. Imports paging. Other
 * modules and the layers above use nothing of it but what this file exports.
 */
import type { ModuleDefinition } from '../../core/module-definition';
export { TimeZoneService } from './time-zone.service';
export type { ListedTimeZone } from './listed-time-zone';

/** The module's place in the order of src/modules/index.ts; it adds no entities or migrations. */
export const TIME_ZONES_MODULE = {
  name: 'time-zones',
} as const satisfies ModuleDefinition;
