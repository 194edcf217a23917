/**
 * Companies: the entity, its members and visibility policy, the service, the geocoder, loaders and
 * GraphQL. Imports accounts and staff. Other modules and the layers above use nothing of it but
 * what this file exports.
 */
import type { ModuleDefinition } from '../../core/module-definition';
import { Company } from './company.entity';
import { CompanyMember } from './company-member.entity';
export { CompanyMember } from './company-member.entity';
export { Company } from './company.entity';
export { visibleCompany } from './company.loaders';
export {
  assertMayWriteCompany,
  companyVisibilitySql,
  companyVisibilityWhere,
  mayWriteCompanies,
} from './company.policy';
export { CompanyService } from './company.service';
export { createGeocoder, type Geocoder } from './geocoder';
export type { CompanyChanges, NewCompany } from './company.changes';

/** What the module adds to the process (entities); src/modules/index.ts lists it. */
export const COMPANIES_MODULE = {
  name: 'companies',
  entities: [Company, CompanyMember],
} as const satisfies ModuleDefinition;
