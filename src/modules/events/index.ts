export { ShiftEventResolver } from './graphql/shift-event.resolver';
export { ShiftEventKindEnum } from './graphql/shift-event.types';
export { LiveShiftEvents } from './live-shift-events';
