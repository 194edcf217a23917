import { type EntityName, PermissionDeniedError } from '../../core/errors';
import { isManagerOrOwner, type Viewer } from '../../core/viewer';

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
 * A filter or order on a money field would find a hidden value by bisection
 * (`hourlyRateCents > 4999` lists a row, `> 5000` does not), so a caller who may not read money
 * may not query by it either: READ_DENIED (403 on the legacy interfaces, whose `where` and
 * `order` compile to these filters and orders), rather than an answer that depends on it. Each
 * module names its money fields as its filter, order enum and type do; the rule is this one.
 */
export function assertMoneyQueryReadable(
  viewer: Viewer,
  entity: EntityName,
  moneyFields: ReadonlySet<string>,
  filter: object | undefined | null,
  order: readonly { field: string }[] | undefined | null,
): void {
  if (mayReadMoney(viewer)) return;
  const named = [...filterFieldNames(filter), ...(order ?? []).map((o) => o.field)].find((field) =>
    moneyFields.has(field),
  );
  if (named !== undefined)
    throw new PermissionDeniedError(
      'read',
      entity,
      `Read denied: only the owner and managers may filter or order by ${named}`,
    );
}

/** Every field a filter names, through its `and`, `or` and `not`. */
function filterFieldNames(filter: object | undefined | null): string[] {
  if (!filter) return [];
  return Object.entries(filter).flatMap(([key, value]) => {
    if (value === undefined || value === null) return [];
    if (key === 'and' || key === 'or')
      return (value as object[]).flatMap((part) => filterFieldNames(part));
    if (key === 'not') return filterFieldNames(value as object);
    return [key];
  });
}
