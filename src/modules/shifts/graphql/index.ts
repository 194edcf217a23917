/**
 * The GraphQL side of shifts: the shift resolvers, the time fields and punches of Project, and the
 * shifts an activity deletion cascades to. The schema assembly (src/graphql/schema.ts) imports it,
 * and so may another module's graphql/ folder that extends these types; nothing else does.
 */
import { ActivityCascadeResolver } from './activity-cascade.resolver';
import { ShiftResolver } from './shift.resolver';
import { ProjectTimeResolver } from './project-time.resolver';
import type { ResolverRegistration } from '../../../core/module-definition';
import type { ShiftService } from '../../shifts';
import type { PunchService } from '../punch.service';
import { lookupOf, rootList, type ListRegistration } from '../../paging/graphql';
import { projectShiftList } from '../shift.loaders';

/** Built once per schema from the services they use. */
export const SHIFT_RESOLVERS: readonly ResolverRegistration<{
  shifts: ShiftService;
  punches: PunchService;
}>[] = [
  [ShiftResolver, (s) => new ShiftResolver(s.shifts)],
  [ProjectTimeResolver, (s) => new ProjectTimeResolver(s.punches)],
  [ActivityCascadeResolver, (s) => new ActivityCascadeResolver(s.shifts)],
];

/** What the root list pages, by its resolver's service method; its lookup reads one row of it. */
const shiftList = (s: { shifts: ShiftService }) =>
  rootList(s.shifts.listSource.bind(s.shifts), 'project');

/** The lists reads compiled to SQL answer, by their resolver's service method. */
export const SHIFT_LISTS: readonly ListRegistration<{ shifts: ShiftService }>[] = [
  ['Query.shifts', shiftList],
  ['Query.shift', (s) => lookupOf(shiftList(s), 'Shift')],
  ['Project.shifts', () => (ctx, args) => projectShiftList(ctx, args.filter, args.order)],
];
