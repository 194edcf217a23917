/**
 * The GraphQL side of events: the `shiftEvents` subscription, the source it listens to, and the
 * ShiftEventKind enum webhooks name. The schema assembly (src/graphql/schema.ts) imports it, and so
 * may another module's graphql/ folder that extends these types; nothing else does.
 */
import { ShiftEventResolver } from './shift-event.resolver';
import type { ResolverRegistration } from '../../../core/module-definition';
import type { ShiftService } from '../../shifts';

export { registerShiftEventSource } from './shift-event.resolver';
export { ShiftEventKindEnum } from './shift-event.types';

/** Built once per schema from the services they use. */
export const EVENT_RESOLVERS: readonly ResolverRegistration<{ shifts: ShiftService }>[] = [
  [ShiftEventResolver, (s) => new ShiftEventResolver(s.shifts)],
];
