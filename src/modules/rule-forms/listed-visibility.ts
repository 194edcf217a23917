import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/request-context';
import { isOwner, type Viewer } from '../../core/viewer';
import { Visibility } from '../../core/visibility';
import { TEST_FORM, WHERE_FORM, type RuleForm } from './rule-forms';

/**
 * Who sees a row that has a `visibility` (a company, a project): the owner every row; everyone
 * else PUBLIC rows, the rows they created (which survives a later change of their type), and
 * CUSTOM rows whose member list names them. A member list on a row that is not CUSTOM is ignored.
 * Rows the caller cannot see behave as if they did not exist (404), like rows of another account.
 */
function listedVisibility<C>(
  viewer: Viewer,
  form: RuleForm<C>,
  terms: { public: C; createdByViewer: C; listsViewer: () => Promise<C | null> },
): Promise<C> {
  if (isOwner(viewer)) return Promise.resolve(form.always());
  return form.anyOf(terms.public, terms.createdByViewer, terms.listsViewer);
}

/** The ids of the rows whose CUSTOM list names the viewer. */
export type ListedIds = () => Promise<number[]>;

export function listedVisibilityWhere(viewer: Viewer, listedIds: ListedIds): Promise<object> {
  return listedVisibility(viewer, WHERE_FORM, {
    public: { visibility: Visibility.PUBLIC },
    createdByViewer: { createdBy: viewer.id },
    listsViewer: async () => {
      const ids = await listedIds();
      return ids.length > 0 ? { visibility: Visibility.CUSTOM, id: { $in: ids } } : null;
    },
  });
}

export interface ListedRow {
  readonly id: number;
  readonly visibility: Visibility;
  readonly createdBy: { readonly id: number } | null;
}

export function isListedVisible(
  viewer: Viewer,
  row: ListedRow,
  listedIds: ListedIds,
): Promise<boolean> {
  return listedVisibility(viewer, TEST_FORM, {
    public: row.visibility === Visibility.PUBLIC,
    createdByViewer: row.createdBy?.id === viewer.id,
    listsViewer: async () =>
      row.visibility === Visibility.CUSTOM && (await listedIds()).includes(row.id),
  });
}

/**
 * Reads listed ids once per request (the loader `name`) for reads; afresh inside a transaction,
 * which may itself have changed the lists. A transaction's context (`inTransaction`'s `tx`)
 * carries the transaction's EntityManager, so the query never waits for a second connection.
 */
export async function listedIdsOnce(
  ctx: RequestContext,
  name: string,
  query: (em: EntityManager) => Promise<number[]>,
): Promise<number[]> {
  if (ctx.em.isInTransaction()) return query(ctx.em);
  return ctx.loaders.load<string, number[]>(name, 'viewer', async (keys) => {
    const ids = await query(ctx.em);
    return keys.map(() => ids);
  });
}

/**
 * A deleted company or project as its tombstone keeps it (docs/sync.md): the rows the rule reads
 * (the row, its CUSTOM list) are gone, so the tombstone keeps what the rule needs, as it was.
 */
export interface ListedSnapshot {
  readonly id: number;
  readonly visibility: Visibility;
  readonly createdBy: number | null;
  readonly memberIds: readonly number[];
}

/** The same rule, over a snapshot: whether the caller could see the row when it was deleted. */
export function isListedSnapshotVisible(viewer: Viewer, row: ListedSnapshot): Promise<boolean> {
  return isListedVisible(
    viewer,
    {
      id: row.id,
      visibility: row.visibility,
      createdBy: row.createdBy === null ? null : { id: row.createdBy },
    },
    () => Promise.resolve(row.memberIds.includes(viewer.id) ? [row.id] : []),
  );
}
