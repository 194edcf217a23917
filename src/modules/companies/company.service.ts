import { z } from 'zod';
import { isManagerOrOwner } from '../../auth/viewer';
import { PermissionDeniedError } from '../../errors';
import type { RequestContext } from '../../graphql/context';
import type { OrderSpec } from '../../graphql/list-args';
import { Visibility } from '../common/enums';
import { compileFilter, findPage, type PageRequest } from '../common/list-query';
import { replaceMembers, resolveMemberIds } from '../common/members';
import { assertUuidFree, assignDefined, fields, findLocated, inTransaction, validate, type Locator } from '../common/service-support';
import { companyVisibilityWhere } from '../common/visibility';
import { Company } from './company.entity';
import { COMPANY_FILTER_FIELDS, COMPANY_TEXT_FIELDS, type CompanyFilter, type CompanyInput, type CreateCompanyInput } from './company.inputs';

const companyFields = {
  name: fields.requiredText(),
  visibility: z.enum(Visibility),
  userIds: z.array(z.string()).nullish(),
  userLegacyIds: z.array(z.number()).nullish(),
  latitude: z.number().min(-90).max(90).nullable(),
  longitude: z.number().min(-180).max(180).nullable(),
  ...Object.fromEntries(COMPANY_TEXT_FIELDS.map((f) => [f, fields.text(f === 'notes' ? 10_000 : 255).nullable()])),
};
const updateSchema = z.object(Object.fromEntries(Object.entries(companyFields).map(([k, v]) => [k, v.optional()])));
const createSchema = updateSchema.extend({ id: fields.uuid().nullish(), name: companyFields.name });

export class CompanyService {
  async get(ctx: RequestContext, locator: Locator): Promise<Company> {
    return findLocated(ctx.em, Company, 'Company', locator, { extraWhere: await companyVisibilityWhere(ctx) });
  }

  async list(ctx: RequestContext, filter: CompanyFilter | undefined, order: OrderSpec[] | undefined, page: PageRequest) {
    const where = { $and: [compileFilter('Company', filter as never, COMPANY_FILTER_FIELDS), await companyVisibilityWhere(ctx)] };
    return findPage(ctx, Company, 'Company', where, order, page);
  }

  async create(ctx: RequestContext, input: CreateCompanyInput): Promise<Company> {
    if (!isManagerOrOwner(ctx.viewer)) throw new PermissionDeniedError('create', 'Company');
    const data = validate('Company', createSchema, input) as unknown as CreateCompanyInput & { name: string };
    return inTransaction(ctx, async (em) => {
      if (data.id) await assertUuidFree(em, Company, 'Company', data.id);
      const memberIds = await resolveMemberIds(em, 'Company', data.userIds, data.userLegacyIds);
      const { id, userIds: _u, userLegacyIds: _l, ...rest } = data;
      const company = em.create(Company, {
        ...rest,
        ...(id ? { uuid: id } : {}),
        account: ctx.viewer.accountId,
        createdBy: ctx.viewer.id,
      } as never) as Company;
      await em.flush();
      if (memberIds) await replaceMembers(em, ctx.viewer.accountId, { company }, memberIds);
      return company;
    });
  }

  async update(ctx: RequestContext, locator: Locator, input: CompanyInput): Promise<Company> {
    const data = validate('Company', updateSchema, input) as unknown as CompanyInput;
    return inTransaction(ctx, async (em) => {
      const company = await findLocated(em, Company, 'Company', locator, { extraWhere: await companyVisibilityWhere(ctx, em) });
      if (!isManagerOrOwner(ctx.viewer)) throw new PermissionDeniedError('update', 'Company');
      const memberIds = await resolveMemberIds(em, 'Company', data.userIds, data.userLegacyIds);
      const { userIds: _u, userLegacyIds: _l, ...rest } = data;
      assignDefined(company, rest as Partial<Company>);
      await em.flush();
      if (memberIds) await replaceMembers(em, ctx.viewer.accountId, { company }, memberIds);
      return company;
    });
  }

  async delete(ctx: RequestContext, locator: Locator): Promise<Company> {
    return inTransaction(ctx, async (em) => {
      const company = await findLocated(em, Company, 'Company', locator, { extraWhere: await companyVisibilityWhere(ctx, em) });
      if (!isManagerOrOwner(ctx.viewer)) throw new PermissionDeniedError('delete', 'Company');
      // Projects, their activities and shifts go with it (ON DELETE CASCADE).
      await em.nativeDelete(Company, { id: company.id });
      return company;
    });
  }
}

