import { NotFoundError } from '../../core/errors';
import type { RequestContext } from '../../core/request-context';
import { Account } from '../accounts';
import type { ActivityService } from '../activities';
import { type NodeTypeName, nodeTypesOf } from '../ids';
import { loadById } from '../paging';
import type { CompanyService } from '../companies';
import type { OAuthClientService } from '../oauth';
import type { ProjectService } from '../projects';
import type { ShiftService } from '../shifts';
import type { StaffService } from '../staff';
import type { WebhookService } from '../webhooks';

/** The services whose typed lookups `node(id:)` goes through. */
export interface NodeServices {
  staff: StaffService;
  companies: CompanyService;
  projects: ProjectService;
  activities: ActivityService;
  shifts: ShiftService;
  webhooks: WebhookService;
  oauthClients: OAuthClientService;
}

/** The objects of one type among distinct lower-case uuids: each found one, or its refusal. */
type Lookup = (ctx: RequestContext, ids: readonly string[]) => Promise<Map<string, object>>;

/**
 * For each type, the batch form of the lookup its own query field uses (`project(id:)`,
 * `shift(id:)`, ...), with that field's policy: what the caller may not see fails there as it
 * fails here.
 */
function lookups(services: NodeServices): Record<NodeTypeName, Lookup> {
  return {
    Account: async (ctx, ids) => {
      // The caller's own account is the only one it reads (`viewer.account`).
      const account = await loadById(ctx, Account, ctx.viewer.accountId);
      return new Map(account && ids.includes(account.uuid) ? [[account.uuid, account]] : []);
    },
    Staff: (ctx, ids) => services.staff.getMany(ctx, ids),
    Company: (ctx, ids) => services.companies.getMany(ctx, ids),
    Project: (ctx, ids) => services.projects.getMany(ctx, ids),
    Activity: (ctx, ids) => services.activities.getMany(ctx, ids),
    Shift: (ctx, ids) => services.shifts.getMany(ctx, ids),
    Webhook: (ctx, ids) => services.webhooks.getMany(ctx, ids),
    WebhookDelivery: (ctx, ids) => services.webhooks.getDeliveries(ctx, ids),
    OAuthClient: (ctx, ids) => services.oauthClients.getMany(ctx, ids),
  };
}

/**
 * The one answer for every id the caller cannot see: one that names nothing, one of another
 * account, one of the caller's account that its type's policy hides. Alike byte for byte, so
 * `node` tells nobody which ids exist or what they are.
 */
function noSuchNode(): NotFoundError {
  return new NotFoundError('Node', 'No object has this id');
}

/**
 * Objects by id alone. Each distinct id is looked up once, whatever the list repeats: one
 * statement learns the types of all of them in the caller's account (ids/node-ids.ts), then one
 * statement per type present reads its objects under its policy. So the work of a request grows
 * with the distinct ids it names, which the cost guard counts, and another account's id costs what
 * an unknown one does. Each answer is the object or its refusal, in the order of `ids`.
 */
export class NodeLookup {
  private readonly byType: Record<NodeTypeName, Lookup>;

  constructor(services: NodeServices) {
    this.byType = lookups(services);
  }

  async find(ctx: RequestContext, ids: readonly string[]): Promise<(object | Error)[]> {
    const types = await nodeTypesOf(ctx.em, ids, { accountId: ctx.viewer.accountId });
    const idsByType = new Map<NodeTypeName, string[]>();
    for (const [id, type] of types) {
      const group = idsByType.get(type);
      if (group) group.push(id);
      else idsByType.set(type, [id]);
    }
    const found = new Map<string, object | Error>();
    await Promise.all(
      [...idsByType].map(async ([type, typeIds]) => {
        const objects = await this.byType[type](ctx, typeIds).catch((refusal: unknown) => {
          const error = refusal instanceof Error ? refusal : new Error(String(refusal));
          return new Map(typeIds.map((id) => [id, error]));
        });
        for (const [id, object] of objects) found.set(id, object);
      }),
    );
    return ids.map((id) => found.get(id.toLowerCase()) ?? noSuchNode());
  }
}
