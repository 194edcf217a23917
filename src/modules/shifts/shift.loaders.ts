import type { RequestContext } from '../../core/request-context';
import type { ConnectionShape, OrderSpec } from '../../core/list-shapes';
import { childPage, type ChildList, declaredWhere, type PageRequest } from '../paging';
import { Shift } from './shift.entity';
import { shiftVisibilityWhere } from './shift.policy';

/**
 * One project's page of the shifts the caller sees (`Project.shifts`): the shifts of every
 * project of the request in one query, with what their nodes select (`page.nodeFields`)
 * read ahead in one batch each.
 */
export async function projectShifts(
  ctx: RequestContext,
  projectId: number,
  page: PageRequest,
  filter: object | undefined,
  order: OrderSpec[] | undefined,
): Promise<ConnectionShape<Shift>> {
  const list = await projectShiftList(ctx, filter, order);
  return childPage(ctx, list, `projectShifts:${JSON.stringify([filter, order])}`, projectId, page);
}

/** The shifts `Project.shifts` lists, of any project, before paging (reads compiled to SQL page it too). */
export async function projectShiftList(
  ctx: RequestContext,
  filter: object | undefined,
  order: OrderSpec[] | undefined,
): Promise<ChildList<Shift>> {
  return {
    entity: 'Shift',
    entityClass: Shift,
    parent: 'project',
    where: {
      $and: [
        declaredWhere(ctx.viewer, 'Shift', Shift, filter, order),
        // The shift list's own rule, not "the parent is visible": a staff member sees a PUBLIC
        // project, and on it their own shifts only.
        await shiftVisibilityWhere(ctx),
      ],
    },
    order,
    selectedColumns: true,
  };
}
