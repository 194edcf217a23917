/**
 * Live shift events: the LISTEN/NOTIFY relay between processes and the GraphQL subscription that
 * applies the shift list's rule per event. Imports shifts. Other modules and the layers above use
 * nothing of it but what this file exports.
 */
import type { ModuleDefinition } from '../../core/module-definition';
export { LiveShiftEvents } from './live-shift-events';
export { NotificationListener } from './notification-listener';

/** The module's place in the order of src/modules/index.ts; it adds no entities or migrations. */
export const EVENTS_MODULE = {
  name: 'events',
} as const satisfies ModuleDefinition;
