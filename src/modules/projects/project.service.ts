import { ProjectMember } from './project-member.entity';
import { ref } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { ValidationError, type EntityName, type FieldError } from '../../core/errors';
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
  recordCurrentRate,
  validate,
  type DeletionCascade,
  type Locator,
  type ShiftCascades,
} from '../writes';
import { minorUnitDigits } from '../../core/currency-units';
import { Account } from '../accounts';
import { Company, companyVisibilityWhere } from '../companies';
import { replaceMembers, resolveMemberIds } from '../staff';
import { projectVisibilityWhere } from './project.policy';
import { assertMayWriteProject } from './project.policy';
import { parseHourlyRate, parseTimeLimit } from './human-values';
import { Project } from './project.entity';
import type { NewProject, ProjectChanges } from './project.changes';

// A 422 lists its field errors in this order.
const projectFields = {
  ...declaredInputs(Project, ['code', 'name']),
  companyId: z.string().optional(),
  companyLegacyId: z.number().optional(),
  ...declaredInputs(Project, ['active', 'visibility']),
  userIds: z.array(z.string()).nullish(),
  userLegacyIds: z.array(z.number()).nullish(),
  ...declaredInputs(Project, [
    'timeLimit',
    'timeLimitString',
    'defaultTags',
    'defaultTagsText',
    'tagList',
    'notes',
    'hourlyRate',
    'hourlyRateCents',
    'invoiceAmountCents',
    'billableByDefault',
  ]),
  // A field declared writable since: written as given (create and update spread what they do not
  // name), its errors after these. The fields named above keep their places.
  ...declaredInputs(Project),
};
const updateSchema = z.object(projectFields).partial();
const createSchema = updateSchema.extend({ id: fields.uuid().nullish(), name: projectFields.name });

export class ProjectService {
  constructor(private readonly cascades: ShiftCascades) {}

  /** The projects the caller may list by the filter and order (and company), before paging. */
  async listSource(
    ctx: RequestContext,
    filter: object | undefined,
    order: OrderSpec[] | undefined,
    companyLocator?: Locator,
  ): Promise<ListSource<Project>> {
    const company = companyLocator ? await this.findCompany(ctx, companyLocator) : undefined;
    const where = {
      $and: [
        declaredWhere(ctx.viewer, 'Project', Project, filter, order),
        await projectVisibilityWhere(ctx),
        company ? { company: company.id } : {},
      ],
    };
    return { entityClass: Project, entity: 'Project', where, order, rows: { unmanaged: true } };
  }

  async create(ctx: RequestContext, input: NewProject): Promise<Project> {
    assertMayWriteProject(ctx.viewer, 'create');
    const data = await fillFromText(ctx, validate('Project', createSchema, input));
    const act = {
      name: 'createProject',
      request: input,
      entityClass: Project,
      entity: 'Project',
    } as const;
    return idempotentTransaction(ctx, act, async (tx) => {
      if (data.id) await assertUuidFree(tx.em, 'Project', data.id);
      const company = await this.findCompany(
        tx,
        { id: data.companyId ?? null, legacyId: data.companyLegacyId ?? null },
        true,
      );
      const memberIds = await resolveMemberIds(tx.em, 'Project', data.userIds, data.userLegacyIds);
      const {
        id,
        companyId: _c,
        companyLegacyId: _cl,
        userIds: _u,
        userLegacyIds: _l,
        ...rest
      } = data;
      const project = tx.em.create(Project, {
        ...rest,
        ...(id ? { uuid: id } : {}),
        company,
        account: tx.viewer.accountId,
        createdBy: tx.viewer.id,
      });
      await tx.em.flush();
      await recordRate(tx, project, true);
      if (memberIds)
        await replaceMembers(
          tx.em,
          tx.viewer.accountId,
          ProjectMember,
          'project',
          project,
          memberIds,
        );
      return project;
    });
  }

  async update(
    ctx: RequestContext,
    locator: Locator,
    input: ProjectChanges,
    companyLocator?: Locator,
  ): Promise<Project> {
    const data = await fillFromText(ctx, validate('Project', updateSchema, input));
    return inTransaction(ctx, async (tx) => {
      const project = await this.get(tx, locator, companyLocator);
      assertMayWriteProject(tx.viewer, 'update');
      const { companyId, companyLegacyId, userIds: _u, userLegacyIds: _l, ...rest } = data;
      if (companyId != null || companyLegacyId != null) {
        project.company = ref(
          await this.findCompany(
            tx,
            { id: companyId ?? null, legacyId: companyLegacyId ?? null },
            true,
          ),
        );
      }
      const memberIds = await resolveMemberIds(tx.em, 'Project', data.userIds, data.userLegacyIds);
      const rateBefore = project.hourlyRateCents;
      assignDefined(project, rest);
      await tx.em.flush();
      if (project.hourlyRateCents !== rateBefore) await recordRate(tx, project, false);
      if (memberIds)
        await replaceMembers(
          tx.em,
          tx.viewer.accountId,
          ProjectMember,
          'project',
          project,
          memberIds,
        );
      return project;
    });
  }

  /** Deletes a project with its activities and shifts; answers it as it was and what went with it. */
  async delete(
    ctx: RequestContext,
    locator: Locator,
    companyLocator?: Locator,
  ): Promise<{ project: Project; cascade: DeletionCascade }> {
    return inTransaction(ctx, async (tx) => {
      const project = await this.get(tx, locator, companyLocator);
      assertMayWriteProject(tx.viewer, 'delete');
      // Its activities and shifts go with it (ON DELETE CASCADE); each shift's deletion is
      // announced first (events, webhooks), in this transaction.
      const cascade = await this.cascades.deleting(tx, { project: project.id });
      await tx.em.nativeDelete(Project, { id: project.id });
      return { project, cascade };
    });
  }

  /**
   * A visible project, optionally required to belong to a named company (nested routes).
   * `inputOf`: the project is named in that entity's input, as `projectId`/`projectLegacyId`.
   */
  async get(
    ctx: RequestContext,
    locator: Locator,
    companyLocator?: Locator,
    inputOf?: EntityName,
  ): Promise<Project> {
    const company = companyLocator ? await this.findCompany(ctx, companyLocator) : undefined;
    return findLocated(ctx.em, Project, 'Project', locator, {
      extraWhere: {
        ...(await projectVisibilityWhere(ctx)),
        ...(company ? { company: company.id } : {}),
      },
      ...(inputOf ? { reference: { of: inputOf, names: ['projectId', 'projectLegacyId'] } } : {}),
    });
  }

  /** The projects among `ids` (lower-case uuids) that `get` would answer, in one statement: for `nodes`. */
  async getMany(ctx: RequestContext, ids: readonly string[]): Promise<Map<string, Project>> {
    return findByUuids(ctx.em, Project, ids, await projectVisibilityWhere(ctx));
  }

  /** A visible company; `inProjectInput`: named in a project's input as `companyId`/`companyLegacyId`. */
  private async findCompany(
    ctx: RequestContext,
    locator: Locator,
    inProjectInput = false,
  ): Promise<Company> {
    return findLocated(ctx.em, Company, 'Company', locator, {
      extraWhere: await companyVisibilityWhere(ctx),
      ...(inProjectInput
        ? { reference: { of: 'Project', names: ['companyId', 'companyLegacyId'] } }
        : {}),
    });
  }
}

/**
 * The digits of the minor unit of the account's currency, in which `hourlyRateCents` counts
 * (ISO 4217: 2 for EUR, 0 for JPY): "¥5000" is 5000 yen, "€85" 8500 cents.
 */
async function rateDigits(ctx: RequestContext): Promise<number> {
  const account = await ctx.em.findOneOrFail(Account, ctx.viewer.accountId);
  return minorUnitDigits(account.currency);
}

/**
 * The text forms fill the values they stand for. `timeLimitString` → `timeLimit` seconds and
 * `hourlyRate` → `hourlyRateCents` when the numbers are not given (omitted or null);
 * `defaultTagsText`, kept as written, → `defaultTags` (a list given instead is written back as
 * its text). Text that would be used but cannot be read is a validation error naming the field.
 */
async function fillFromText<T extends ProjectChanges>(ctx: RequestContext, data: T): Promise<T> {
  const errors: FieldError[] = [];
  if (data.defaultTagsText !== undefined) {
    if (data.defaultTags !== undefined)
      errors.push({
        field: 'defaultTagsText',
        message: 'give either defaultTags or defaultTagsText',
      });
    const tags = projectFields.defaultTags.safeParse(splitTags(data.defaultTagsText ?? ''));
    if (tags.success) data.defaultTags = tags.data;
    else {
      const [issue] = tags.error.issues;
      const which = typeof issue!.path[0] === 'number' ? `tag ${issue!.path[0] + 1} ` : '';
      errors.push({ field: 'defaultTagsText', message: `${which}${issue!.message}` });
    }
  } else if (data.defaultTags !== undefined) {
    data.defaultTagsText = data.defaultTags.length ? data.defaultTags.join(',') : null;
  }
  if (
    data.timeLimit == null &&
    data.timeLimitString != null &&
    data.timeLimitString.trim() !== ''
  ) {
    const seconds = parseTimeLimit(data.timeLimitString);
    if (seconds === undefined)
      errors.push({
        field: 'timeLimitString',
        message: 'is not a duration this service can read (e.g. "12h", "2h 30m", "1:30")',
      });
    else data.timeLimit = seconds;
  }
  if (data.hourlyRateCents == null && data.hourlyRate != null && data.hourlyRate.trim() !== '') {
    const cents = parseHourlyRate(data.hourlyRate, await rateDigits(ctx));
    if (cents === undefined)
      errors.push({
        field: 'hourlyRate',
        message: 'is not an amount this service can read (e.g. "$85", "$12.50")',
      });
    else data.hourlyRateCents = cents;
  }
  if (errors.length > 0) throw new ValidationError('Project', errors);
  return data;
}

/** Comma-separated tags as applied: trimmed, blanks dropped ("urgent,  Billable ," → urgent, Billable). */
function splitTags(text: string): string[] {
  return text
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
}

/** The project's billable rate, as the write just left it, in its history. */
function recordRate(tx: RequestContext, project: Project, created: boolean): Promise<void> {
  const owner = { column: 'project_id', accountId: tx.viewer.accountId, id: project.id } as const;
  return recordCurrentRate(tx, owner, 'billable', project.hourlyRateCents, created);
}
