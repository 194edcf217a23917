import { z } from 'zod';
import type { JsonRoute } from '../json/json-format';
import {
  createRoute,
  deleteRoute,
  listRoute,
  showRoute,
  updateRoute,
  type JsonResource,
} from '../json/json-routes';
import type { CompanyFieldsFragment, CompanyOrderField } from '../operations/generated';
import { legacyFields, type WireOf } from './legacy-fields';
import { memberUuids, uuidField, withOwner } from './wire-types';

/** The company's fields as declared (`legacy` of the Company entity's fields). */
export const COMPANY = legacyFields('Company');

/** A company as every company operation answers it (fragment CompanyFields). */
export type CompanyNode = CompanyFieldsFragment;

const companyWire = z
  .object({ ...COMPANY.jsonShape, user_uuids: z.array(uuidField) })
  .strict()
  .meta({ id: 'Company' });

export const companyColumns = COMPANY.columns;

export const companyResource: JsonResource<
  CompanyNode,
  WireOf<typeof companyWire>,
  CompanyOrderField,
  'company'
> = {
  key: 'company',
  named: (value) => ({ company: value }),
  entity: 'Company',
  legacyEntity: 'Company',
  wire: companyWire,
  render: (c: CompanyNode) => ({
    ...COMPANY.json(c),
    user_uuids: withOwner(c.account.owner, c.users).map((user) => user.id),
  }),
  createFields: { ...COMPANY.createFields, ...memberUuids },
  updateFields: { ...COMPANY.updateFields, ...memberUuids },
  columns: COMPANY.columns,
};

export const companyJsonRoutes: JsonRoute[] = [
  listRoute(
    companyResource,
    '/companies',
    'ListCompanies',
    'List the companies the caller can see',
  ),
  createRoute(companyResource, '/companies', 'CreateCompany', 'Create a company'),
  showRoute(companyResource, '/companies/:uuid', 'ShowCompany', 'Show a company'),
  updateRoute(
    companyResource,
    '/companies/:uuid',
    'UpdateCompany',
    'Update a company; omitted fields are kept',
  ),
  deleteRoute(
    companyResource,
    '/companies/:uuid',
    'DeleteCompany',
    'Delete a company with its projects',
  ),
];
