import type { RequestContext } from '../../core/request-context';
import {
  type ConnectionShape,
  type OrderSpec,
  childPage,
  type ChildList,
  compileFilter,
  type PageRequest,
} from '../common';
import { Shift } from './shift.entity';
import { SHIFT_FILTER_FIELDS, type ShiftFilter } from './graphql/shift.inputs';
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
  filter: ShiftFilter | undefined,
  order: OrderSpec[] | undefined,
): Promise<ConnectionShape<Shift>> {
  const list: ChildList<Shift> = {
    entity: 'Shift',
    entityClass: Shift,
    parent: 'project',
    where: {
      $and: [
        compileFilter<Shift>('Shift', filter, SHIFT_FILTER_FIELDS),
        // The shift list's own rule, not "the parent is visible": a staff member sees a PUBLIC
        // project, and on it their own shifts only.
        await shiftVisibilityWhere(ctx),
      ],
    },
    order,
    selectedColumns: true,
  };
  return childPage(ctx, list, `projectShifts:${JSON.stringify([filter, order])}`, projectId, page);
}
