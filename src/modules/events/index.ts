/**
 * Live shift events: the LISTEN/NOTIFY relay between processes and the GraphQL subscription that
 * applies the shift list's rule per event. Imports shifts. Other modules and the layers above use
 * nothing of it but what this file exports.
 */
export { registerShiftEventSource, ShiftEventResolver } from './graphql/shift-event.resolver';
export { ShiftEventKindEnum } from './graphql/shift-event.types';
export { LiveShiftEvents } from './live-shift-events';
export { NotificationListener } from './notification-listener';
