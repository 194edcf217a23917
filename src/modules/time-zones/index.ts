/**
 * The time zone list with its coordinates and offsets, and its GraphQL. Imports common. Other
 * modules and the layers above use nothing of it but what this file exports.
 */
export { TimeZoneService } from './time-zone.service';
export type { ListedTimeZone } from './listed-time-zone';
