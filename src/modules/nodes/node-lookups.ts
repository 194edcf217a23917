import { NotFoundError } from '../../core/errors';
import type { RequestContext } from '../../core/request-context';
import { Account } from '../accounts';
import type { ActivityService } from '../activities';
import { loadById, type NodeTypeName, nodeTypesOf } from '../common';
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

type Lookup = (ctx: RequestContext, id: string) => Promise<object>;

/**
 * For each type, the lookup its own query field uses (`project(id:)`, `shift(id:)`, ...), with
 * that field's policy: what the caller may not see fails there as it fails here.
 */
function lookups(services: NodeServices): Record<NodeTypeName, Lookup> {
  return {
    Account: async (ctx, id) => {
      // The caller's own account is the only one it reads (`viewer.account`).
      const account = await loadById(ctx, Account, ctx.viewer.accountId);
      if (!account || account.uuid !== id) throw new NotFoundError('Account');
      return account;
    },
    Staff: (ctx, id) => services.staff.get(ctx, { id }),
    Company: (ctx, id) => services.companies.get(ctx, { id }),
    Project: (ctx, id) => services.projects.get(ctx, { id }),
    Activity: (ctx, id) => services.activities.get(ctx, { id }),
    Shift: (ctx, id) => services.shifts.get(ctx, { id }),
    Webhook: (ctx, id) => services.webhooks.get(ctx, id),
    WebhookDelivery: (ctx, id) => services.webhooks.getDelivery(ctx, id),
    OAuthClient: (ctx, id) => services.oauthClients.get(ctx, id),
  };
}

/**
 * Objects by id alone: one statement learns the type of every id (common/node-ids.ts), then each
 * object comes from its type's lookup. Each answer is the object or the lookup's failure, in the
 * order of `ids`; an id that names nothing is NOT_FOUND, as an object the caller may not see is.
 */
export class NodeLookup {
  private readonly byType: Record<NodeTypeName, Lookup>;

  constructor(services: NodeServices) {
    this.byType = lookups(services);
  }

  async find(ctx: RequestContext, ids: readonly string[]): Promise<Promise<object>[]> {
    const types = await nodeTypesOf(ctx.em, ids);
    return ids.map((id) => {
      const type = types.get(id.toLowerCase());
      return type
        ? this.byType[type](ctx, id.toLowerCase())
        : Promise.reject(new NotFoundError('Node', 'No object has this id'));
    });
  }
}
