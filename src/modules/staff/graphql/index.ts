/**
 * The GraphQL side of staff: the staff and viewer resolvers, and the delete payload
 * companies/graphql and projects/graphql add cascades to. The schema assembly
 * (src/graphql/schema.ts) imports it, and so may another module's graphql/ folder that extends
 * these types; nothing else does.
 */
import { StaffResolver } from './staff.resolver';
import { AccountResolver, ViewerResolver } from './viewer.resolver';
import type { ResolverRegistration } from '../../../core/module-definition';
import type { StaffService } from '../../staff';
import { lookupOf, rootList, type ListRegistration } from '../../paging/graphql';

export { DeleteStaffPayload } from './staff.payloads';

/** Built once per schema from the services they use. */
export const STAFF_RESOLVERS: readonly ResolverRegistration<{ staff: StaffService }>[] = [
  [ViewerResolver, () => new ViewerResolver()],
  [AccountResolver, () => new AccountResolver()],
  [StaffResolver, (s) => new StaffResolver(s.staff)],
];

/** What the root list pages, by its resolver's service method; its lookup reads one row of it. */
const staffList = (s: { staff: StaffService }) => rootList(s.staff.listSource.bind(s.staff));

/** The lists reads compiled to SQL answer, by their resolver's service method. */
export const STAFF_LISTS: readonly ListRegistration<{ staff: StaffService }>[] = [
  ['Query.staff', staffList],
  ['Query.staffMember', (s) => lookupOf(staffList(s), 'Staff')],
];
