import { CompanyMember } from './company-member.entity';
import { z } from 'zod';
import type { RequestContext } from '../../core/request-context';
import { declaredInputs } from '../common';
import type { OrderSpec } from '../../core/list-shapes';
import { declaredWhere, type ListSource } from '../paging';
import {
  findByUuids,
  idempotentTransaction,
  assertUuidFree,
  assignDefined,
  fields,
  findLocated,
  inTransaction,
  locatorWhere,
  validate,
  type DeletionCascade,
  type Locator,
  type ShiftCascades,
} from '../writes';
import { replaceMembers, resolveMemberIds } from '../staff';
import { companyVisibilityWhere } from './company.policy';
import { assertMayWriteCompany, mayWriteCompanies } from './company.policy';
import { Company } from './company.entity';
import type { CompanyChanges, NewCompany } from './company.changes';
import { isCoordinates, type Coordinates, type GeocodableAddress, type Geocoder } from './geocoder';

const typed = declaredInputs(Company, ['name', 'visibility', 'latitude', 'longitude']);
/** The contact fields and notes: texts the service stores as given. */
const {
  name: _n,
  visibility: _v,
  latitude: _la,
  longitude: _lo,
  ...contact
} = declaredInputs(Company);
// A 422 lists its field errors in this order.
const companyFields = {
  ...contact,
  name: typed.name,
  visibility: typed.visibility,
  userIds: z.array(z.string()).nullish(),
  userLegacyIds: z.array(z.number()).nullish(),
  latitude: typed.latitude,
  longitude: typed.longitude,
};
const updateSchema = z.object(companyFields).partial();
const createSchema = updateSchema.extend({ id: fields.uuid().nullish(), name: companyFields.name });

const ADDRESS_FIELDS = [
  'mainAddress',
  'mainCity',
  'mainState',
  'mainPostcode',
  'mainCountry',
] as const;
type AddressFields = { [F in (typeof ADDRESS_FIELDS)[number]]?: string | null };
type CoordinateFields = { latitude?: number | null; longitude?: number | null };

/**
 * Coordinates left blank are derived from the address (rule 8): only when latitude and longitude
 * are both empty and all five address fields are filled; coordinates a client gave are never
 * replaced. The geocoder runs before the transaction opens (it may be a network call, and no
 * connection is held meanwhile); when it fails or finds nothing, the company is saved without.
 */
export class CompanyService {
  /** `cascades`: what deleting a company reports of its projects' shifts (tests of geocoding alone go without). */
  constructor(
    private readonly geocoder: Geocoder,
    private readonly cascades?: ShiftCascades,
  ) {}

  async get(ctx: RequestContext, locator: Locator): Promise<Company> {
    return findLocated(ctx.em, Company, 'Company', locator, {
      extraWhere: await companyVisibilityWhere(ctx),
    });
  }

  /** The companies among `ids` (lower-case uuids) that `get` would answer, in one statement: for `nodes`. */
  async getMany(ctx: RequestContext, ids: readonly string[]): Promise<Map<string, Company>> {
    return findByUuids(ctx.em, Company, ids, await companyVisibilityWhere(ctx));
  }

  /** The companies the caller may list by the filter and order, before paging. */
  async listSource(
    ctx: RequestContext,
    filter: object | undefined,
    order: OrderSpec[] | undefined,
  ): Promise<ListSource<Company>> {
    const where = {
      $and: [
        declaredWhere(ctx.viewer, 'Company', Company, filter, order),
        await companyVisibilityWhere(ctx),
      ],
    };
    return { entityClass: Company, entity: 'Company', where, order };
  }

  async create(ctx: RequestContext, input: NewCompany): Promise<Company> {
    assertMayWriteCompany(ctx.viewer, 'create');
    const data = validate('Company', createSchema, input);
    const address =
      data.latitude == null && data.longitude == null
        ? completeAddress(data as AddressFields)
        : null;
    const derived = address ? await this.derive(ctx, address) : null;
    if (derived) Object.assign(data, derived);
    const act = {
      name: 'createCompany',
      request: input,
      entityClass: Company,
      entity: 'Company',
    } as const;
    return idempotentTransaction(ctx, act, async (tx) => {
      if (data.id) await assertUuidFree(tx.em, 'Company', data.id);
      const memberIds = await resolveMemberIds(tx.em, 'Company', data.userIds, data.userLegacyIds);
      const { id, userIds: _u, userLegacyIds: _l, ...rest } = data;
      const company = tx.em.create(Company, {
        ...rest,
        ...(id ? { uuid: id } : {}),
        account: tx.viewer.accountId,
        createdBy: tx.viewer.id,
      });
      await tx.em.flush();
      if (memberIds)
        await replaceMembers(
          tx.em,
          tx.viewer.accountId,
          CompanyMember,
          'company',
          company,
          memberIds,
        );
      return company;
    });
  }

  async update(ctx: RequestContext, locator: Locator, input: CompanyChanges): Promise<Company> {
    const data = validate('Company', updateSchema, input);
    const derived = await this.deriveForUpdate(ctx, locator, data);
    return inTransaction(ctx, async (tx) => {
      const company = await this.get(tx, locator);
      assertMayWriteCompany(tx.viewer, 'update');
      const memberIds = await resolveMemberIds(tx.em, 'Company', data.userIds, data.userLegacyIds);
      const { userIds: _u, userLegacyIds: _l, ...rest } = data;
      assignDefined(company, rest);
      // Applied only if the row still asks for it: a concurrent save may have set coordinates or
      // changed the address since the lookup.
      if (
        derived &&
        company.latitude === null &&
        company.longitude === null &&
        sameAddress(completeAddress(company), derived.address)
      ) {
        Object.assign(company, derived.coordinates);
      }
      await tx.em.flush();
      if (memberIds)
        await replaceMembers(
          tx.em,
          tx.viewer.accountId,
          CompanyMember,
          'company',
          company,
          memberIds,
        );
      return company;
    });
  }

  /** Deletes a company with its projects; answers it as it was and what went with it. */
  async delete(
    ctx: RequestContext,
    locator: Locator,
  ): Promise<{ company: Company; cascade: DeletionCascade }> {
    const cascades = this.cascades;
    if (!cascades) throw new Error('CompanyService was built without its shift cascades');
    return inTransaction(ctx, async (tx) => {
      const company = await this.get(tx, locator);
      assertMayWriteCompany(tx.viewer, 'delete');
      // Projects, their activities and shifts go with it (ON DELETE CASCADE); each shift's
      // deletion is announced first (events, webhooks), in this transaction.
      const cascade = await cascades.deleting(tx, { company: company.id });
      await tx.em.nativeDelete(Company, { id: company.id });
      return { company, cascade };
    });
  }

  /**
   * An update derives coordinates only when it sets an address field: a client that clears the
   * coordinates alone, or changes something else, gets what it asked for. The stored values are
   * read here, outside the transaction; the transaction re-checks them before applying the result.
   */
  private async deriveForUpdate(
    ctx: RequestContext,
    locator: Locator,
    data: CompanyChanges,
  ): Promise<{ address: GeocodableAddress; coordinates: Coordinates } | null> {
    // The transaction refuses these callers anyway; no lookup on their behalf.
    if (!mayWriteCompanies(ctx.viewer)) return null;
    if (!ADDRESS_FIELDS.some((f) => data[f] !== undefined)) return null;
    if (data.latitude != null || data.longitude != null) return null;
    const stored = await this.findForLookup(ctx, locator);
    if (!stored) return null; // the transaction reports why
    const merged: AddressFields & CoordinateFields = { ...pick(stored), ...definedOnly(data) };
    if (merged.latitude != null || merged.longitude != null) return null;
    const address = completeAddress(merged);
    if (!address) return null;
    const coordinates = await this.derive(ctx, address);
    return coordinates ? { address, coordinates } : null;
  }

  /** The stored company, read outside any transaction and outside the identity map; null on any failure. */
  private async findForLookup(ctx: RequestContext, locator: Locator): Promise<Company | null> {
    try {
      const where = { ...locatorWhere('Company', locator), ...(await companyVisibilityWhere(ctx)) };
      return await ctx.em.findOne(Company, where, { disableIdentityMap: true });
    } catch {
      return null;
    }
  }

  private async derive(
    ctx: RequestContext,
    address: GeocodableAddress,
  ): Promise<Coordinates | null> {
    try {
      const found = await this.geocoder.locate(address);
      return isCoordinates(found) ? { latitude: found.latitude, longitude: found.longitude } : null;
    } catch (error) {
      ctx.log.warn(
        `geocoder failed; the company is saved without coordinates: ${error instanceof Error ? error.message : String(error)}`,
      );
      return null;
    }
  }
}

/** All five address fields, trimmed, or null when any is blank. */
function completeAddress(values: AddressFields): GeocodableAddress | null {
  const [street, city, state, postcode, country] = ADDRESS_FIELDS.map(
    (f) => values[f]?.trim() ?? '',
  );
  if (!street || !city || !state || !postcode || !country) return null;
  return { street, city, state, postcode, country };
}

function sameAddress(a: GeocodableAddress | null, b: GeocodableAddress): boolean {
  return (
    a !== null &&
    a.street === b.street &&
    a.city === b.city &&
    a.state === b.state &&
    a.postcode === b.postcode &&
    a.country === b.country
  );
}

function pick(company: Company): AddressFields & CoordinateFields {
  const { latitude, longitude } = company;
  return { ...Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, company[f]])), latitude, longitude };
}

function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(values).filter(([, v]) => v !== undefined),
  ) as Partial<T>;
}
