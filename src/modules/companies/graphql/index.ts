/**
 * The GraphQL side of companies: the company resolvers and the companies a staff deletion cascades
 * to. The schema assembly (src/graphql/schema.ts) imports it, and so may another module's graphql/
 * folder that extends these types; nothing else does.
 */
import { CompanyResolver } from './company.resolver';
import { StaffCascadeCompaniesResolver } from './staff-cascade.resolver';
import type { ResolverRegistration } from '../../../core/module-definition';
import type { CompanyService } from '../company.service';
import { lookupOf, rootList, type ListRegistration } from '../../paging/graphql';

/** Built once per schema from the services they use. */
export const COMPANY_RESOLVERS: readonly ResolverRegistration<{ companies: CompanyService }>[] = [
  [CompanyResolver, (s) => new CompanyResolver(s.companies)],
  [StaffCascadeCompaniesResolver, (s) => new StaffCascadeCompaniesResolver(s.companies)],
];

/** What the root list pages, by its resolver's service method; its lookup reads one row of it. */
const companyList = (s: { companies: CompanyService }) =>
  rootList(s.companies.listSource.bind(s.companies));

/** The lists reads compiled to SQL answer, by their resolver's service method. */
export const COMPANY_LISTS: readonly ListRegistration<{ companies: CompanyService }>[] = [
  ['Query.companies', companyList],
  ['Query.company', (s) => lookupOf(companyList(s), 'Company')],
];
