import { isManagerOrOwner, type Viewer } from '../../core/viewer';
import type { ReadRule } from '../common';

/**
 * Who reads money. The owner and the managers read all of it; staff members read rates and
 * amounts (project rates, their own rate, a report's amounts) only where the owner lets them
 * (the account's `staffSeeMoney`), and costs, profits and other people's rates never
 * (docs/permissions.md). Where a caller may not read money, every money field answers null, and
 * a report no amount, which would give a rate away (amount × 3600 / billable seconds). The one
 * place every module's money fields go by.
 */
export function mayReadMoney(viewer: Viewer): boolean {
  return isManagerOrOwner(viewer) || viewer.staffSeeMoney;
}

/** What the account's work costs it (users' cost rates, costs, profits): the owner's and the managers'. */
export function mayReadCosts(viewer: Viewer): boolean {
  return isManagerOrOwner(viewer);
}

/**
 * The money rule as a field declaration's read rule (common/field-declarations.ts): a money field
 * reads null, and may not be filtered or ordered by, for a caller who may not read money.
 */
export const MONEY_RULE: ReadRule = {
  name: 'money',
  refusal: 'only the owner and managers',
  query: mayReadMoney,
  row: mayReadMoney,
  sql: mayReadMoney,
};
