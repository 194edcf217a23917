/**
 * Live shift events: the LISTEN/NOTIFY relay between processes and the GraphQL subscription that
 * applies the shift list's rule per event. Imports shifts. Other modules and the layers above use
 * nothing of it but what this file exports.
 */
export { LiveShiftEvents } from './live-shift-events';
export { NotificationListener } from './notification-listener';
