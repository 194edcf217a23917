import type { RequestContext } from '../../core/request-context';
import type { MaybePromise } from '../../core/loaders';
import { StaffType } from '../common';
import { findRows } from '../paging';
import { Staff } from './staff.entity';

/** The owner of an account; every project of a list renders it, so it is read once per request. */
export function accountOwner(ctx: RequestContext, accountId: number): MaybePromise<Staff | null> {
  return ctx.loaders.load<number, Staff | null>('accountOwner', accountId, async (ids) => {
    const owners = await findRows(ctx.em, Staff, {
      account: { $in: [...ids] },
      type: StaffType.OWNER,
    });
    return ids.map((id) => owners.find((o) => o.account.id === id) ?? null);
  });
}
