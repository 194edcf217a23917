export { CompanyMember } from './company-member.entity';
export { Company } from './company.entity';
export { visibleCompany } from './company.loaders';
export { companyVisibilitySql, companyVisibilityWhere } from './company.policy';
export { CompanyService } from './company.service';
export { createGeocoder, type Geocoder } from './geocoder';
export { CompanyResolver } from './graphql/company.resolver';
